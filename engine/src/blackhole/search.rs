//! The Black Hole search: one exact depth-first pass with restarts over a shared
//! table of positions.

use super::position::{adjacent, foundation_rank, height, with_height, Layout};
use super::prunes::{present, walk_possible, Pairs, Walk};
use super::{Preset, EXACT, PILES, RANKS, RANK_SHIFT};
use crate::hashset::KeySet;
use crate::search::{Budget, Solution};

pub(super) enum Run {
    Won(Vec<u8>),
    Lost,
    OutOfBudget,
    Restart(Vec<u64>),
}

impl Layout {
    /// Solve with the [`EXACT`] preset. The line is pile indices (0-based) in the real
    /// (not canonical) layout.
    pub fn solve(&self, budget: &mut Budget) -> Solution<u8> {
        self.solve_with(budget, &EXACT)
    }

    pub fn solve_with(&self, budget: &Budget, preset: &Preset) -> Solution<u8> {
        let mut counts = [0u8; RANKS];
        let mut bottoms = [0u8; RANKS];
        let mut left = 0usize;
        for p in 0..PILES {
            let h = self.heights[p] as usize;
            for d in 0..h {
                counts[self.ranks[p][d] as usize] += 1;
            }
            if h > 0 {
                bottoms[self.ranks[p][0] as usize] += 1;
            }
            left += h;
        }
        let root = self.root();
        if left == 0 {
            return Solution::won(vec![], 1);
        }
        let mut budget = budget.pass(0, 1, 1, preset.cap);
        let mut seen = KeySet::with_capacity_log2(12);
        seen.insert(root);
        let mut positions = 1u64;
        if !walk_possible(&counts, foundation_rank(root), present(&bottoms)) {
            return Solution::lost(positions);
        }
        let mut run = 0u32;
        let mut run_limit = preset.first_run;
        loop {
            let limit = if run_limit == 0 { u64::MAX } else { positions.saturating_add(run_limit) };
            match self.dfs(root, counts, bottoms, left, run, limit, &mut seen, &mut positions, &mut budget) {
                Run::Won(line) => return Solution::won(line, positions),
                Run::Lost => return Solution::lost(positions),
                Run::OutOfBudget => return Solution::unknown(positions),
                Run::Restart(path) => {
                    // Every position this run finished is dead; the ones still on its
                    // path are not, so they are searched again by the next run.
                    for state in path {
                        seen.remove(state);
                    }
                    run += 1;
                    run_limit = if run_limit > (1 << 40) { 0 } else { (run_limit * preset.growth.0 / preset.growth.1).max(run_limit + 1) };
                }
            }
        }
    }

    /// The canonical children of `state` for `moves`; their table slots are prefetched
    /// so that the inserts to come find them in cache.
    #[inline]
    pub(super) fn children(&self, moves: &[u8], state: u64, out: &mut [u64; PILES], seen: &KeySet) {
        for (i, &p) in moves.iter().enumerate() {
            let p = p as usize;
            let h = height(state, p);
            let rank = self.ranks[p][h - 1];
            let child = (with_height(state, p, h - 1) & ((1u64 << RANK_SHIFT) - 1)) | ((rank as u64) << RANK_SHIFT);
            let child = self.canonical_after(child, p);
            seen.prefetch(child);
            out[i] = child;
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn dfs(
        &self,
        root: u64,
        mut counts: [u8; RANKS],
        mut bottoms: [u8; RANKS],
        mut left: usize,
        run: u32,
        limit: u64,
        seen: &mut KeySet,
        positions: &mut u64,
        budget: &mut Budget,
    ) -> Run {
        #[derive(Clone, Copy)]
        pub(super) struct Frame {
            state: u64,
            moves: [u8; PILES],
            children: [u64; PILES],
            count: u8,
            next: u8,
            played: u8,
            emptied: u8,
            edge: u8,
            /// The rank the played card lay on (255: none).
            lay_on: u8,
        }
        let mut pairs = Pairs { count: [[0; RANKS]; RANKS], under: [0; 16] };
        for p in 0..PILES {
            for d in 1..height(root, p) {
                pairs.add(self.ranks[p][d] as usize, self.ranks[p][d - 1] as usize);
            }
        }
        // One frame per card played, written in place (a frame is 170 bytes).
        let blank =
            Frame { state: 0, moves: [0; PILES], children: [0; PILES], count: 0, next: 0, played: 0, emptied: 255, edge: 0, lay_on: 255 };
        let mut stack = [blank; 53];
        let mut walk = Walk::new(&counts, foundation_rank(root));
        let mut in_play = present(&counts);
        let mut bottom_ranks = present(&bottoms);
        stack[0].state = root;
        stack[0].count = self.moves(root, run, &mut stack[0].moves) as u8;
        {
            let first = &mut stack[0];
            self.children(&first.moves[..first.count as usize], root, &mut first.children, seen);
        }
        let mut depth = 0usize;
        loop {
            let top = &mut stack[depth];
            if top.next == top.count {
                if depth == 0 {
                    break;
                }
                let done = *top;
                depth -= 1;
                counts[done.played as usize] += 1;
                in_play |= 1 << done.played;
                if done.emptied != 255 {
                    bottoms[done.emptied as usize] += 1;
                    bottom_ranks |= 1 << done.emptied;
                }
                walk.uncross(done.edge as usize);
                if done.lay_on != 255 {
                    pairs.add(done.played as usize, done.lay_on as usize);
                }
                left += 1;
                continue;
            }
            let p = top.moves[top.next as usize] as usize;
            let child = top.children[top.next as usize];
            top.next += 1;
            let h = height(top.state, p);
            let from = foundation_rank(top.state);
            let rank = self.ranks[p][h - 1];
            if !seen.insert(child) {
                continue;
            }
            *positions += 1;
            let emptied = if h == 1 { self.ranks[p][0] } else { 255 };
            if left == 1 {
                stack[depth + 1].state = child;
                return Run::Won(self.real_line(stack[..depth + 2].iter().map(|f| f.state)));
            }
            if budget.exhausted(*positions) {
                return Run::OutOfBudget;
            }
            if *positions >= limit {
                let mut path: Vec<u64> = stack[1..=depth].iter().map(|f| f.state).collect();
                path.push(child);
                return Run::Restart(path);
            }
            counts[rank as usize] -= 1;
            if counts[rank as usize] == 0 {
                in_play &= !(1 << rank);
            }
            if emptied != 255 {
                bottoms[emptied as usize] -= 1;
                if bottoms[emptied as usize] == 0 {
                    bottom_ranks &= !(1 << emptied);
                }
            }
            left -= 1;
            let edge = walk.cross(from, rank as usize);
            debug_assert_eq!(walk, Walk::new(&counts, rank as usize));
            depth += 1;
            let frame = &mut stack[depth];
            frame.state = child;
            frame.count = 0;
            frame.next = 0;
            frame.played = rank;
            frame.emptied = emptied;
            frame.edge = edge as u8;
            let lay_on = if h >= 2 { self.ranks[p][h - 2] } else { 255 };
            frame.lay_on = lay_on;
            if lay_on != 255 {
                pairs.remove(rank as usize, lay_on as usize);
            }
            if self.alive(child, &walk, &pairs, in_play, rank as usize, self.last_cards(child, bottom_ranks)) {
                frame.count = self.moves(child, run, &mut frame.moves) as u8;
                self.children(&frame.moves[..frame.count as usize], child, &mut frame.children, seen);
            }
            // A frame with no moves is popped (and its counts restored) at once.
        }
        Run::Lost
    }

    /// Turns a path of canonical states into pile moves in the real layout: at each step,
    /// play a pile whose result is equivalent to the next canonical state.
    pub(super) fn real_line(&self, path: impl Iterator<Item = u64>) -> Vec<u8> {
        let path: Vec<u64> = path.collect();
        let mut real = (self.foundation as u64) << RANK_SHIFT;
        for p in 0..PILES {
            real = with_height(real, p, self.heights[p] as usize);
        }
        let mut line = Vec::with_capacity(path.len());
        for next in &path[1..] {
            let f = foundation_rank(real);
            let mut chosen = None;
            for p in 0..PILES {
                let h = height(real, p);
                if h == 0 || !adjacent(self.ranks[p][h - 1] as usize, f) {
                    continue;
                }
                let rank = self.ranks[p][h - 1] as u64;
                let candidate = (with_height(real, p, h - 1) & ((1u64 << RANK_SHIFT) - 1)) | (rank << RANK_SHIFT);
                if self.canonical(candidate) == *next {
                    chosen = Some((p, candidate));
                    break;
                }
            }
            let (p, candidate) = chosen.expect("canonical path has a real move at every step");
            line.push(p as u8);
            real = candidate;
        }
        line
    }
}
