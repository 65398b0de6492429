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

use crate::budget::Budget;
use crate::hashset::KeySet;

pub const PILES: usize = 17;
const RANKS: usize = 13;
const FULL: u32 = (1 << RANKS) - 1;
const RANK_SHIFT: u32 = 34;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Lost,
    Unknown,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Unknown => "unknown",
        }
    }
}

pub struct Solution {
    pub outcome: Outcome,
    /// Pile indices (0-based) of the winning line, in the real (not canonical) layout.
    pub line: Vec<u8>,
    pub positions: u64,
}

/// A layout to search: ranks 0 (Ace) to 12 (King) of each pile, bottom first.
pub struct Layout {
    ranks: [[u8; 3]; PILES],
    heights: [u8; PILES],
    foundation: u8,
    /// (p, q, n) with p < q: the bottom n cards of p and q have the same ranks.
    pairs: Vec<(u8, u8, u8)>,
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

/// Can the ranks `counts` still on the table be played as one walk of +-1 steps around
/// the rank circle, starting at `start` and ending at a rank in `ends`?
///
/// Such a walk crosses edge v (between ranks v and v+1) some e_v times; it exists iff
/// every rank v has degree e_{v-1} + e_v = 2 counts[v] + [v = start] - [v = end], all
/// e_v are whole and non-negative, and the edges used connect every rank in play. On
/// the odd cycle the degrees fix the e_v uniquely; doubled, they are the odd numbers E
/// for the degrees without the end, plus or minus one for the end.
#[inline]
pub fn walk_possible(counts: &[u8; RANKS], start: usize, ends: u32) -> bool {
    let mut q = [0i32; RANKS];
    let mut prev = 0i32;
    let mut in_play = 1u32 << start;
    for v in 0..RANKS {
        let c = counts[v] as i32;
        if c > 0 {
            in_play |= 1 << v;
        }
        let d = 2 * c + (v == start) as i32;
        q[v] = d - prev;
        prev = q[v];
    }
    let last = q[RANKS - 1];
    let mut minus_one = 0u32;
    let mut one = 0u32;
    for (v, &qv) in q.iter().enumerate() {
        let e = if v % 2 == 0 { 2 * qv - last } else { 2 * qv + last };
        if e < -1 {
            return false;
        }
        if e == -1 {
            minus_one |= 1 << v;
        } else if e == 1 {
            one |= 1 << v;
        }
    }
    let mut candidates = ends;
    while candidates != 0 {
        let t = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let plus = TABLES.plus[t];
        if minus_one & !plus != 0 {
            continue;
        }
        let cuts = minus_one | (one & !plus);
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
        let mut pairs = Vec::new();
        for p in 0..PILES {
            for q in p + 1..PILES {
                let limit = heights[p].min(heights[q]) as usize;
                let mut n = 0;
                while n < limit && ranks[p][n] == ranks[q][n] {
                    n += 1;
                }
                if n > 0 {
                    pairs.push((p as u8, q as u8, n as u8));
                }
            }
        }
        Ok(Layout { ranks, heights, foundation: foundation - 1, pairs })
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
    #[inline]
    fn canonical(&self, mut state: u64) -> u64 {
        loop {
            let mut changed = false;
            for &(p, q, n) in &self.pairs {
                let (p, q, n) = (p as usize, q as usize, n as usize);
                let (hp, hq) = (height(state, p), height(state, q));
                if hp < hq && hq <= n {
                    state = with_height(with_height(state, p, hq), q, hp);
                    changed = true;
                }
            }
            if !changed {
                return state;
            }
        }
    }

    #[inline]
    fn moves(&self, state: u64, out: &mut [u8; PILES]) -> usize {
        let f = foundation_rank(state);
        let (up, down) = ((f + 1) % RANKS, (f + RANKS - 1) % RANKS);
        let mut buckets = [[0u8; PILES]; 3];
        let mut sizes = [0usize; 3];
        for p in (0..PILES).rev() {
            let h = height(state, p);
            if h > 0 {
                let r = self.ranks[p][h - 1] as usize;
                if r == up || r == down {
                    buckets[h - 1][sizes[h - 1]] = p as u8;
                    sizes[h - 1] += 1;
                }
            }
        }
        let mut n = 0;
        for h in (0..3).rev() {
            out[n..n + sizes[h]].copy_from_slice(&buckets[h][..sizes[h]]);
            n += sizes[h];
        }
        n
    }

    pub fn solve(&self, budget: &mut Budget) -> Solution {
        struct Frame {
            state: u64,
            moves: [u8; PILES],
            count: u8,
            next: u8,
            played: u8,
            emptied: u8,
        }
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
            return Solution { outcome: Outcome::Won, line: vec![], positions: 1 };
        }
        let bottom_mask = |bottoms: &[u8; RANKS]| -> u32 {
            (0..RANKS).filter(|&r| bottoms[r] > 0).fold(0, |m, r| m | (1 << r))
        };
        let mut seen = KeySet::with_capacity_log2(12);
        seen.insert(root);
        let mut positions = 1u64;
        if !walk_possible(&counts, foundation_rank(root), bottom_mask(&bottoms)) {
            return Solution { outcome: Outcome::Lost, line: vec![], positions };
        }
        let mut stack: Vec<Frame> = Vec::with_capacity(64);
        let mut first = Frame { state: root, moves: [0; PILES], count: 0, next: 0, played: 0, emptied: 255 };
        first.count = self.moves(root, &mut first.moves) as u8;
        stack.push(first);
        while let Some(top) = stack.last_mut() {
            if top.next == top.count {
                let done = stack.pop().unwrap();
                if stack.is_empty() {
                    break;
                }
                counts[done.played as usize] += 1;
                if done.emptied != 255 {
                    bottoms[done.emptied as usize] += 1;
                }
                left += 1;
                continue;
            }
            let p = top.moves[top.next as usize] as usize;
            top.next += 1;
            let h = height(top.state, p);
            let rank = self.ranks[p][h - 1];
            let child = (with_height(top.state, p, h - 1) & ((1u64 << RANK_SHIFT) - 1)) | ((rank as u64) << RANK_SHIFT);
            let child = self.canonical(child);
            if !seen.insert(child) {
                continue;
            }
            positions += 1;
            let emptied = if h == 1 { self.ranks[p][0] } else { 255 };
            if left == 1 {
                stack.push(Frame { state: child, moves: [0; PILES], count: 0, next: 0, played: rank, emptied });
                let line = self.real_line(stack.iter().map(|f| f.state));
                return Solution { outcome: Outcome::Won, line, positions };
            }
            if budget.exhausted(positions) {
                return Solution { outcome: Outcome::Unknown, line: vec![], positions };
            }
            counts[rank as usize] -= 1;
            if emptied != 255 {
                bottoms[emptied as usize] -= 1;
            }
            left -= 1;
            let mut frame = Frame { state: child, moves: [0; PILES], count: 0, next: 0, played: rank, emptied };
            if walk_possible(&counts, rank as usize, bottom_mask(&bottoms)) {
                frame.count = self.moves(child, &mut frame.moves) as u8;
            }
            // A frame with no moves is popped (and its counts restored) at once.
            stack.push(frame);
        }
        Solution { outcome: Outcome::Lost, line: vec![], positions }
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(black_hole_solve, m)?)?;
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
