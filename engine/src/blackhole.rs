//! Black Hole: an exact depth-first search over (pile heights, foundation rank).
//!
//! A position is 17 pile heights of two bits and the foundation's rank in four bits:
//! 38 bits in a `u64`, kept in an open-addressing set. Three exact prunes keep every
//! verdict right while cutting most of the space:
//!
//! * **rank walk**: the cards left must be playable as one walk of +-1 steps around the
//!   13-rank circle from the foundation's rank, using each remaining rank exactly as
//!   often as it is on the table. That is an Euler-trail condition on the rank cycle
//!   (edge multiplicities solved in closed form on the odd cycle, then connectivity);
//! * **last card**: the walk must end on the rank of some pile's bottom card, since the
//!   last card played empties its pile;
//! * **interchangeable piles**: piles whose remaining cards have the same ranks in the
//!   same order are the same for the rest of the game, so each such set of positions is
//!   searched once (heights put in a canonical order).
//!
//! Moves are tried tallest pile first, then from the last pile to the first.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::search::{Budget, Solution};
use crate::hashset::KeySet;

pub const PILES: usize = 17;
const RANKS: usize = 13;
const FULL: u32 = (1 << RANKS) - 1;
const RANK_SHIFT: u32 = 34;
/// The low bit of every pile's two-bit height.
const SPREAD: u64 = 0x1_5555_5555;
/// The search's schedule: one exact depth-first pass over a shared table of positions,
/// restarted with another move order after `first_run` positions, the limit growing by
/// `growth.0 / growth.1` at each restart (only the current path is searched again, so
/// the pass stays complete and a `lost` verdict is a proof). With no node limit from
/// the caller the pass stops after `cap` positions (verdict `unknown`).
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub name: &'static str,
    pub first_run: u64,
    pub growth: (u64, u64),
    pub cap: u64,
}

/// Fitted on deals 1-1000: frequent restarts with fresh tie-breaks find wins sooner
/// (13.5 million positions in all against 18.2 million when the limit doubles from
/// 500). Held out, deals 1001-2000: see `bench/black_hole.py`. The cap is almost three
/// times the largest search of the first million deals (22 million positions); the
/// table then holds about 1 GB.
pub const EXACT: Preset = Preset { name: "exact", first_run: 300, growth: (9, 8), cap: 60_000_000 };

/// A layout to search: ranks 0 (Ace) to 12 (King) of each pile, bottom first.
pub struct Layout {
    ranks: [[u8; 3]; PILES],
    heights: [u8; PILES],
    foundation: u8,
    /// For each foundation rank and height h (1 to 3): bit 2p set when pile p's card at
    /// height h can go on the foundation.
    playable: [[u64; 4]; RANKS],
    /// Each pile's bottom card's rank, as a bit.
    bottom_bit: [u32; PILES],
    /// Bit 2p set when the card above pile p's bottom card is one rank away from it.
    above_adjacent_bits: u64,
    /// For each pile p: (q, n) where the bottom n cards of p and q have the same ranks.
    partners: [[(u8, u8); PILES]; PILES],
    partner_count: [u8; PILES],
}

#[inline]
fn height(state: u64, pile: usize) -> usize {
    ((state >> (2 * pile)) & 3) as usize
}

#[inline]
fn with_height(state: u64, pile: usize, h: usize) -> u64 {
    (state & !(3u64 << (2 * pile))) | ((h as u64) << (2 * pile))
}

#[inline]
fn foundation_rank(state: u64) -> usize {
    (state >> RANK_SHIFT) as usize
}

#[inline]
fn adjacent(a: usize, b: usize) -> bool {
    let d = (a + RANKS - b) % RANKS;
    d == 1 || d == RANKS - 1
}

#[inline]
fn rotate(mask: u32, by: u32) -> u32 {
    ((mask >> by) | (mask << (RANKS as u32 - by))) & FULL
}

/// For each possible last rank t, the edges whose multiplicity grows by one half (the
/// others shrink by one half) when the walk ends at t: see `walk_possible`.
struct WalkTables {
    plus: [u32; RANKS],
}

const fn walk_tables() -> WalkTables {
    // Solve "degree -1 at t, 0 elsewhere" on the 13-cycle (edge v joins v and v+1), in
    // doubled units: every edge is +-1, and `plus[t]` collects the +1 edges.
    let mut plus = [0u32; RANKS];
    let mut t = 0;
    while t < RANKS {
        let mut q = [0i32; RANKS];
        let mut v = 0;
        let mut prev = 0i32;
        while v < RANKS {
            let d = if v == t { -1 } else { 0 };
            q[v] = d - prev;
            prev = q[v];
            v += 1;
        }
        let mut mask = 0u32;
        let mut v = 0;
        while v < RANKS {
            let sign = if v % 2 == 0 { -1 } else { 1 }; // (-1)^(v+1)
            let doubled = 2 * q[v] + sign * q[RANKS - 1];
            if doubled > 0 {
                mask |= 1 << v;
            }
            v += 1;
        }
        plus[t] = mask;
        t += 1;
    }
    WalkTables { plus }
}

static TABLES: WalkTables = walk_tables();

enum Run {
    Won(Vec<u8>),
    Lost,
    OutOfBudget,
    Restart(Vec<u64>),
}


/// The edges of the rank circle a walk must cross: edge v joins ranks v and v+1, and a
/// walk that starts at `start` and plays every rank of `counts` crosses it a fixed
/// number of times (see [`walk_possible`]), kept here doubled, before the end's own
/// correction. Playing a card from rank s to rank r crosses the edge between them once
/// more, so the search updates one edge a move ([`Walk::cross`]) instead of solving
/// the whole circle again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walk {
    edges: [i32; RANKS],
    /// Edges crossed fewer than -1/2 times (dead), exactly -1/2, exactly +1/2.
    below: u32,
    minus_one: u32,
    one: u32,
}

impl Walk {
    pub fn new(counts: &[u8; RANKS], start: usize) -> Walk {
        let mut q = [0i32; RANKS];
        let mut prev = 0i32;
        for v in 0..RANKS {
            q[v] = 2 * counts[v] as i32 + (v == start) as i32 - prev;
            prev = q[v];
        }
        let last = q[RANKS - 1];
        let mut walk = Walk { edges: [0; RANKS], below: 0, minus_one: 0, one: 0 };
        for v in 0..RANKS {
            let sign = if v % 2 == 0 { -1 } else { 1 };
            walk.edges[v] = 2 * q[v] + sign * last;
            walk.mark(v);
        }
        walk
    }

    #[inline]
    fn mark(&mut self, v: usize) {
        let e = self.edges[v];
        let bit = 1u32 << v;
        self.below = (self.below & !bit) | (((e < -1) as u32) << v);
        self.minus_one = (self.minus_one & !bit) | (((e == -1) as u32) << v);
        self.one = (self.one & !bit) | (((e == 1) as u32) << v);
    }

    /// A card of rank `to` played on rank `from` (one apart): returns the edge crossed.
    #[inline]
    pub fn cross(&mut self, from: usize, to: usize) -> usize {
        let edge = if to == (from + 1) % RANKS { from } else { to };
        self.edges[edge] -= 2;
        self.mark(edge);
        edge
    }

    /// Undoes [`Walk::cross`].
    #[inline]
    pub fn uncross(&mut self, edge: usize) {
        self.edges[edge] += 2;
        self.mark(edge);
    }

    /// Can the walk end at a rank in `ends`, with `in_play` the ranks still on the
    /// table and the start?
    #[inline]
    pub fn can_end(&self, in_play: u32, ends: u32) -> bool {
        if self.below != 0 {
            return false;
        }
        let mut candidates = ends;
        while candidates != 0 {
            let t = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let plus = TABLES.plus[t];
            if self.minus_one & !plus != 0 {
                continue;
            }
            let cuts = self.minus_one | (self.one & !plus);
            if cuts.count_ones() <= 1 {
                return true;
            }
            let by = (cuts.trailing_zeros() + 1) % RANKS as u32;
            let vertices = rotate(in_play, by);
            let cuts = rotate(cuts, by);
            let lo = vertices.trailing_zeros();
            let hi = 31 - vertices.leading_zeros();
            let span = (1u32 << hi) - (1u32 << lo);
            if cuts & span == 0 {
                return true;
            }
        }
        false
    }
}

/// Can the ranks `counts` still on the table be played as one walk of +-1 steps around
/// the rank circle, starting at `start` and ending at a rank in `ends`?
///
/// Such a walk crosses edge v (between ranks v and v+1) some e_v times; it exists iff
/// every rank v has degree e_{v-1} + e_v = 2 counts[v] + [v = start] - [v = end], all
/// e_v are whole and non-negative, and the edges used connect every rank in play. On
/// the odd cycle the degrees fix the e_v uniquely; doubled, they are the odd numbers E
/// for the degrees without the end, plus or minus one for the end.
pub fn walk_possible(counts: &[u8; RANKS], start: usize, ends: u32) -> bool {
    Walk::new(counts, start).can_end(present(counts) | (1 << start), ends)
}

/// The ranks with a card left (a bit each).
#[inline]
fn present(counts: &[u8; RANKS]) -> u32 {
    let mut mask = 0;
    for (r, &count) in counts.iter().enumerate() {
        mask |= ((count > 0) as u32) << r;
    }
    mask
}

impl Layout {
    /// `piles`: card indices 0..51 (rank = index % 13), bottom first; `foundation`: the
    /// foundation's rank, 1 (Ace) to 13 (King).
    pub fn new(piles: &[Vec<u8>], foundation: u8) -> Result<Layout, String> {
        if piles.len() != PILES {
            return Err(format!("Black Hole has {PILES} piles, not {}", piles.len()));
        }
        if !(1..=13).contains(&foundation) {
            return Err(format!("foundation rank {foundation} is not 1 to 13"));
        }
        let mut ranks = [[0u8; 3]; PILES];
        let mut heights = [0u8; PILES];
        for (p, pile) in piles.iter().enumerate() {
            if pile.len() > 3 {
                return Err(format!("pile {} has more than 3 cards", p + 1));
            }
            for (d, &card) in pile.iter().enumerate() {
                if card >= 52 {
                    return Err(format!("card index {card} is not 0 to 51"));
                }
                ranks[p][d] = card % 13;
            }
            heights[p] = pile.len() as u8;
        }
        let mut partners = [[(0u8, 0u8); PILES]; PILES];
        let mut partner_count = [0u8; PILES];
        for p in 0..PILES {
            for q in p + 1..PILES {
                let limit = heights[p].min(heights[q]) as usize;
                let mut n = 0;
                while n < limit && ranks[p][n] == ranks[q][n] {
                    n += 1;
                }
                if n > 0 {
                    partners[p][partner_count[p] as usize] = (q as u8, n as u8);
                    partner_count[p] += 1;
                    partners[q][partner_count[q] as usize] = (p as u8, n as u8);
                    partner_count[q] += 1;
                }
            }
        }
        let mut playable = [[0u64; 4]; RANKS];
        for p in 0..PILES {
            for h in 1..=heights[p] as usize {
                let r = ranks[p][h - 1] as usize;
                for f in [(r + 1) % RANKS, (r + RANKS - 1) % RANKS] {
                    playable[f][h] |= 1 << (2 * p);
                }
            }
        }
        let mut bottom_bit = [0u32; PILES];
        let mut above_adjacent_bits = 0u64;
        for p in 0..PILES {
            if heights[p] > 0 {
                let t = ranks[p][0] as usize;
                bottom_bit[p] = 1 << t;
                if heights[p] >= 2 && adjacent(ranks[p][1] as usize, t) {
                    above_adjacent_bits |= 1 << (2 * p);
                }
            }
        }
        Ok(Layout {
            ranks,
            heights,
            foundation: foundation - 1,
            playable,
            bottom_bit,
            above_adjacent_bits,
            partners,
            partner_count,
        })
    }

    fn root(&self) -> u64 {
        let mut state = (self.foundation as u64) << RANK_SHIFT;
        for p in 0..PILES {
            state = with_height(state, p, self.heights[p] as usize);
        }
        self.canonical(state)
    }

    /// Orders the heights of interchangeable piles: for each pair p < q whose bottom n
    /// cards match in rank, if both heights are at most n then p's is the larger.
    /// `changed` is the one pile whose height differs from a canonical state (or
    /// `None` to check every pair): only its pairs, and those of piles it swaps with,
    /// can be out of order.
    #[inline]
    fn canonical_after(&self, mut state: u64, changed: usize) -> u64 {
        let mut work = [0u8; PILES + 1];
        let mut queued = 1u32 << changed;
        work[0] = changed as u8;
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let p = work[len] as usize;
            queued &= !(1 << p);
            for &(q, n) in &self.partners[p][..self.partner_count[p] as usize] {
                let (q, n) = (q as usize, n as usize);
                let (lo, hi) = if p < q { (p, q) } else { (q, p) };
                let (hl, hh) = (height(state, lo), height(state, hi));
                if hl < hh && hh <= n {
                    state = with_height(with_height(state, lo, hh), hi, hl);
                    for x in [lo, hi] {
                        if queued & (1 << x) == 0 {
                            queued |= 1 << x;
                            work[len] = x as u8;
                            len += 1;
                        }
                    }
                }
            }
        }
        state
    }

    fn canonical(&self, mut state: u64) -> u64 {
        for p in 0..PILES {
            state = self.canonical_after(state, p);
        }
        state
    }

    /// The moves from `state`, best first, written to `out`. Run 0 tries the tallest
    /// pile first, then the last pile first; later runs (restarts) keep tallest-first
    /// but start the pile order at a point hashed from the position and the run, so each
    /// run looks somewhere else first.
    #[inline]
    fn moves(&self, state: u64, run: u32, out: &mut [u8; PILES]) -> usize {
        let low = state & SPREAD;
        let high = (state >> 1) & SPREAD;
        // Bit 2p: pile p's top card can go on the foundation.
        let on = &self.playable[foundation_rank(state)];
        let playable = (low & !high & on[1]) | (high & !low & on[2]) | (low & high & on[3]);
        if playable == 0 {
            return 0;
        }
        let classes = [playable & low & high, playable & high & !low, playable & low & !high];
        let mut n = 0;
        if run == 0 {
            for mut class in classes {
                while class != 0 {
                    let bit = 63 - class.leading_zeros();
                    class &= !(1u64 << bit);
                    out[n] = (bit / 2) as u8;
                    n += 1;
                }
            }
            return n;
        }
        let mix = (state ^ (run as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        for mut class in classes {
            let first = n;
            while class != 0 {
                let bit = 63 - class.leading_zeros();
                class &= !(1u64 << bit);
                let p = (bit / 2) as u8;
                // Insertion by a per-position, per-run key: ties broken differently.
                let key = |p: u8| (mix >> (3 * p as u32)) & 7;
                let mut i = n;
                while i > first && key(out[i - 1]) < key(p) {
                    out[i] = out[i - 1];
                    i -= 1;
                }
                out[i] = p;
                n += 1;
            }
        }
        n
    }

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

    /// The ranks the last card of the game can have: a pile's bottom card t, when the
    /// card before it can be the card just above it (one rank away) or another pile's
    /// bottom card one rank away (the card before the last must empty its pile too).
    /// `bottom_ranks` holds the ranks of the bottom cards still on the table.
    #[inline]
    fn last_cards(&self, state: u64, bottom_ranks: u32) -> u32 {
        let low = state & SPREAD;
        let high = (state >> 1) & SPREAD;
        if (low | high).count_ones() == 1 {
            // One pile left: its cards are played top down, the bottom card last.
            return bottom_ranks;
        }
        // Bottom cards with another bottom card one rank away...
        let mut ends = bottom_ranks & (rotate(bottom_ranks, 1) | rotate(bottom_ranks, RANKS as u32 - 1));
        // ... or with a card one rank away still on them.
        let mut stacked = high & self.above_adjacent_bits;
        while stacked != 0 {
            let bit = stacked.trailing_zeros() as usize;
            stacked &= stacked - 1;
            ends |= self.bottom_bit[bit / 2];
        }
        ends
    }

    /// The canonical children of `state` for `moves`; their table slots are prefetched
    /// so that the inserts to come find them in cache.
    #[inline]
    fn children(&self, moves: &[u8], state: u64, out: &mut [u64; PILES], seen: &KeySet) {
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
    fn dfs(
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
        struct Frame {
            state: u64,
            moves: [u8; PILES],
            children: [u64; PILES],
            count: u8,
            next: u8,
            played: u8,
            emptied: u8,
            edge: u8,
        }
        // One frame per card played, written in place (a frame is 170 bytes).
        let blank = Frame { state: 0, moves: [0; PILES], children: [0; PILES], count: 0, next: 0, played: 0, emptied: 255, edge: 0 };
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
            if walk.can_end(in_play | (1 << rank), self.last_cards(child, bottom_ranks)) {
                frame.count = self.moves(child, run, &mut frame.moves) as u8;
                self.children(&frame.moves[..frame.count as usize], child, &mut frame.children, seen);
            }
            // A frame with no moves is popped (and its counts restored) at once.
        }
        Run::Lost
    }

    /// Turns a path of canonical states into pile moves in the real layout: at each step,
    /// play a pile whose result is equivalent to the next canonical state.
    fn real_line(&self, path: impl Iterator<Item = u64>) -> Vec<u8> {
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

/// Solve a Black Hole position. `piles`: card indices bottom first; `foundation_rank`:
/// 1 (Ace) to 13 (King). Returns `(verdict, pile indices of the winning line, positions)`.
#[pyfunction]
#[pyo3(signature = (piles, foundation_rank, max_nodes=None, max_seconds=None))]
fn black_hole_solve(
    py: Python<'_>,
    piles: Vec<Vec<u8>>,
    foundation_rank: u8,
    max_nodes: Option<u64>,
    max_seconds: Option<f64>,
) -> PyResult<(&'static str, Vec<u8>, u64)> {
    let layout = Layout::new(&piles, foundation_rank).map_err(PyValueError::new_err)?;
    let solution = py.allow_threads(|| layout.solve(&mut Budget::new(max_nodes, max_seconds)));
    Ok((solution.outcome.as_str(), solution.line, solution.positions))
}

/// The piles (0-based) whose top card can go on the foundation, in the engine's order
/// (tallest pile first, then the last pile first): for tests against the Python rules.
#[pyfunction]
fn black_hole_moves(piles: Vec<Vec<u8>>, foundation_rank: u8) -> PyResult<Vec<u8>> {
    let layout = Layout::new(&piles, foundation_rank).map_err(PyValueError::new_err)?;
    let mut state = (layout.foundation as u64) << RANK_SHIFT;
    for p in 0..PILES {
        state = with_height(state, p, layout.heights[p] as usize);
    }
    let mut out = [0u8; PILES];
    let n = layout.moves(state, 0, &mut out);
    Ok(out[..n].to_vec())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(black_hole_solve, m)?)?;
    m.add_function(wrap_pyfunction!(black_hole_moves, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_walk(counts: &[u8; RANKS], start: usize, ends: u32) -> bool {
        let total: u32 = counts.iter().map(|&c| c as u32).sum();
        if total == 0 {
            return true;
        }
        let mut c = *counts;
        fn go(c: &mut [u8; RANKS], at: usize, left: u32, ends: u32) -> bool {
            if left == 0 {
                return ends & (1 << at) != 0;
            }
            for next in [(at + 1) % RANKS, (at + RANKS - 1) % RANKS] {
                if c[next] > 0 {
                    c[next] -= 1;
                    let ok = go(c, next, left - 1, ends);
                    c[next] += 1;
                    if ok {
                        return true;
                    }
                }
            }
            false
        }
        go(&mut c, start, total, ends)
    }

    #[test]
    fn walk_condition_matches_brute_force() {
        let mut seed = 12345u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20000 {
            let mut counts = [0u8; RANKS];
            let cards = (next() % 9) as usize;
            for _ in 0..cards {
                counts[(next() % RANKS as u64) as usize] += 1;
            }
            let start = (next() % RANKS as u64) as usize;
            let ends = (next() as u32) & FULL;
            let ranks_in_play = (0..RANKS).filter(|&r| counts[r] > 0).fold(0, |m, r| m | (1 << r));
            let ends = ends & ranks_in_play;
            if cards == 0 {
                continue;
            }
            assert_eq!(walk_possible(&counts, start, ends), brute_walk(&counts, start, ends), "{counts:?} {start} {ends:b}");
        }
    }
}
