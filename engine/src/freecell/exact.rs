//! The searches over every atomic move: a best-first search (greedy, or exact) and an
//! exhaustive depth-first search. The exact ones see every position the rules reach
//! (up to the order of columns and cells, and the safe moves home), so when one runs
//! out of positions the deal is proved lost.

use std::collections::BinaryHeap;

use super::position::{mv, Game, Move, Position};
use super::rules::{MAX_COLUMNS, NO_CARD};
use crate::hashset::KeySet;
use crate::search::{Budget, Solution};

#[inline]
fn stored(key: u128) -> u128 {
    key >> 1 // the key set keeps the top bit for itself
}

/// A position stored compactly for the best-first search: column heights, the cards
/// of the columns one after the other, the cells, the foundations.
#[derive(Clone, Copy)]
struct Packed {
    bytes: [u8; 72],
}

fn pack(game: &Game, s: &Position) -> Packed {
    let mut p = Packed { bytes: [NO_CARD; 72] };
    let mut at = 8;
    for i in 0..game.rules.columns {
        let n = s.len[i] as usize;
        p.bytes[i] = n as u8;
        p.bytes[at..at + n].copy_from_slice(&s.cols[i][..n]);
        at += n;
    }
    p.bytes[60..68].copy_from_slice(&s.cells);
    p.bytes[68..72].copy_from_slice(&s.found);
    p
}

fn unpack(game: &Game, p: &Packed) -> Position {
    let mut s = Position::empty();
    let mut at = 8;
    for i in 0..game.rules.columns {
        let n = p.bytes[i] as usize;
        for &card in &p.bytes[at..at + n] {
            s.push(i, card, game.z, &game.rules.on);
        }
        s.rekey(i, 0);
        at += n;
    }
    for c in 0..game.rules.cells {
        if p.bytes[60 + c] != NO_CARD {
            s.set_cell(c, p.bytes[60 + c], game.z);
        }
    }
    s.found.copy_from_slice(&p.bytes[68..72]);
    game.recount(&mut s);
    s
}

/// Best-first search: always expand the best position found so far (by `weights`).
/// Children are kept as (parent, move) and laid out only when expanded.
///
/// `eager`: every card the foundations accept goes there at once and a few sideways
/// moves are skipped (`prune_quick`); faster, but it can miss wins, so it never says
/// lost. Otherwise it sees every position and an empty queue proves the loss.
pub fn best_first(game: &Game, root: &Position, budget: &mut Budget, already: u64, weights: &[i32; 6], eager: bool) -> Solution<Move> {
    let mut positions = already;
    let mut search = BestFirst::new(game, root, weights, eager, &mut positions);
    search.run(game, &mut positions, u64::MAX, budget)
}

struct Record {
    parent: u32,
    via: Move,
    packed: u32,
}

/// A resumable best-first search (see `best_first`), so that it can take turns with
/// the soft threads.
pub struct BestFirst {
    weights: [i32; 6],
    eager: bool,
    seen: KeySet<u128>,
    start: Position,
    opening: Vec<Move>,
    records: Vec<Record>,
    packs: Vec<Packed>,
    heap: BinaryHeap<(i32, u32)>,
    moves: Vec<Move>,
    done: Vec<Move>,
    /// The line, once won before the first turn (the start is already won).
    won_at_start: bool,
}

impl BestFirst {
    pub fn new(game: &Game, root: &Position, weights: &[i32; 6], eager: bool, positions: &mut u64) -> BestFirst {
        let mut seen: KeySet<u128> = KeySet::with_capacity_log2(12);
        let mut start = root.clone();
        let mut opening = Vec::new();
        game.auto_play_with(&mut start, &mut opening, eager);
        *positions += 1;
        seen.insert(stored(start.key));
        let won_at_start = start.is_won();
        let packs = vec![pack(game, &start)];
        let mut heap = BinaryHeap::new();
        heap.push((0, 0));
        BestFirst {
            weights: *weights,
            eager,
            seen,
            start,
            opening,
            records: vec![Record { parent: u32::MAX, via: mv(0, 0, 0), packed: 0 }],
            packs,
            heap,
            moves: Vec::with_capacity(64),
            done: Vec::with_capacity(64),
            won_at_start,
        }
    }

    /// Search until a win, a proved loss, or `positions` reaches `until` (or the budget
    /// says stop: then the outcome is unknown).
    pub fn run(&mut self, game: &Game, positions: &mut u64, until: u64, budget: &mut Budget) -> Solution<Move> {
        if self.won_at_start {
            return Solution::won(self.opening.clone(), *positions);
        }
        let eager = self.eager;
        while let Some(&(_, index)) = self.heap.peek() {
            if *positions >= until || budget.exhausted(*positions) {
                return Solution::unknown(*positions);
            }
            self.heap.pop();
            let mut state;
            if index == 0 {
                state = self.start.clone();
            } else {
                let record = &self.records[index as usize];
                state = unpack(game, &self.packs[self.records[record.parent as usize].packed as usize]);
                self.done.clear();
                game.play(&mut state, record.via);
                game.auto_play_with(&mut state, &mut self.done, eager);
                self.records[index as usize].packed = self.packs.len() as u32;
                self.packs.push(pack(game, &state));
            }
            game.moves(&state, &mut self.moves);
            if eager {
                prune_quick(game, &state, &mut self.moves);
            }
            let key = state.key;
            for k in 0..self.moves.len() {
                let m = self.moves[k];
                self.done.clear();
                let played = game.play(&mut state, m);
                self.done.push(played);
                game.auto_play_with(&mut state, &mut self.done, eager);
                if self.seen.insert(stored(state.key)) {
                    *positions += 1;
                    if state.is_won() {
                        return Solution::won(self.line_to(game, index, played), *positions);
                    }
                    let score = game.evaluate(&state, &self.weights);
                    self.records.push(Record { parent: index, via: played, packed: u32::MAX });
                    self.heap.push((score, (self.records.len() - 1) as u32));
                }
                game.undo_to_key(&mut state, &mut self.done, key);
            }
        }
        if eager {
            Solution::unknown(*positions)
        } else {
            Solution::lost(*positions)
        }
    }

    /// Every atomic move from the root to the child of record `index` by `last`.
    fn line_to(&self, game: &Game, index: u32, last: Move) -> Vec<Move> {
        let mut path = vec![last];
        let mut at = index;
        while at != 0 {
            path.push(self.records[at as usize].via);
            at = self.records[at as usize].parent;
        }
        path.reverse();
        let mut line = self.opening.clone();
        let mut s = self.start.clone();
        for m in path {
            line.push(game.play(&mut s, m));
            game.auto_play_with(&mut s, &mut line, self.eager);
        }
        line
    }
}

/// The eager search's shortcuts (it never claims a loss, so it may skip moves): no
/// part of a run moves sideways onto another column, a column moves into an empty
/// column only with its longest movable run, and a card leaves a cell for an empty
/// column only if it is one rank below the base (a King in FreeCell).
fn prune_quick(game: &Game, s: &Position, moves: &mut Vec<Move>) {
    let mut longest = [0u8; MAX_COLUMNS];
    for m in moves.iter() {
        if m.src < 8 && m.dst < 8 && s.len[m.dst as usize] == 0 {
            longest[m.src as usize] = longest[m.src as usize].max(m.count);
        }
    }
    let r = &game.rules;
    moves.retain(|m| {
        if m.dst >= 8 {
            return true;
        }
        if s.len[m.dst as usize] != 0 {
            // A part of a run moves to another column only if it leaves a card the
            // part does not build on (splitting a run sideways is skipped).
            if m.src >= 8 {
                return true;
            }
            let c = &s.cols[m.src as usize];
            let n = s.len[m.src as usize] as usize;
            let k = m.count as usize;
            return k == n || !r.builds_on(c[n - k], c[n - k - 1]);
        }
        if m.src < 8 {
            return m.count == longest[m.src as usize];
        }
        r.shifted[s.cells[(m.src - 8) as usize] as usize] == 12
    });
}

/// Exhaustive depth-first search, children best first (by `weights`): it needs only
/// the set of positions seen, and proves a loss when it runs out.
pub fn depth_first(game: &Game, root: &Position, budget: &mut Budget, already: u64, weights: &[i32; 6]) -> Solution<Move> {
    struct Frame {
        state: Position,
        children: Vec<(i32, Move)>,
        next: usize,
        via: Vec<Move>, // the move that led here, then its automatic moves
    }
    let mut seen: KeySet<u128> = KeySet::with_capacity_log2(12);
    let mut start = root.clone();
    let mut via = Vec::new();
    game.auto_play(&mut start, &mut via);
    let mut positions: u64 = already + 1;
    seen.insert(stored(start.key));
    if start.is_won() {
        return Solution::won(via, positions);
    }
    let mut moves = Vec::with_capacity(64);
    let mut expand = |state: &Position, seen: &mut KeySet<u128>, positions: &mut u64| -> Vec<(i32, Move)> {
        game.moves(state, &mut moves);
        let mut children = Vec::with_capacity(moves.len());
        let mut scratch = Vec::new();
        let mut child = state.clone();
        let key = state.key;
        for &m in moves.iter() {
            scratch.clear();
            scratch.push(game.play(&mut child, m));
            game.auto_play(&mut child, &mut scratch);
            if seen.insert(stored(child.key)) {
                *positions += 1;
                let score = if child.is_won() { i32::MAX } else { game.evaluate(&child, weights) };
                children.push((score, m));
            }
            game.undo_to_key(&mut child, &mut scratch, key);
        }
        children.sort_by_key(|child| std::cmp::Reverse(child.0));
        children
    };
    let children = expand(&start, &mut seen, &mut positions);
    let mut stack: Vec<Frame> = vec![Frame { state: start, children, next: 0, via }];
    while let Some(frame) = stack.last_mut() {
        if frame.next >= frame.children.len() {
            stack.pop();
            continue;
        }
        if budget.exhausted(positions) {
            return Solution::unknown(positions);
        }
        let (_, m) = frame.children[frame.next];
        frame.next += 1;
        let mut child = frame.state.clone();
        let played = game.play(&mut child, m);
        let mut via = vec![played];
        game.auto_play(&mut child, &mut via);
        if child.is_won() {
            let mut line: Vec<Move> = Vec::new();
            for f in stack.iter() {
                line.extend_from_slice(&f.via);
            }
            line.extend_from_slice(&via);
            return Solution::won(line, positions);
        }
        let children = expand(&child, &mut seen, &mut positions);
        stack.push(Frame { state: child, children, next: 0, via });
    }
    Solution::lost(positions)
}
