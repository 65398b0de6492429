//! The exact prunes of the Black Hole search: the rank walk, the last card and the
//! piles' order (see the module's documentation).

use super::position::{height, rotate, Layout};
use super::{FULL, RANKS, SPREAD};

/// others shrink by one half) when the walk ends at t: see `walk_possible`.
pub(super) struct WalkTables {
    pub(super) plus: [u32; RANKS],
}

pub(super) const fn walk_tables() -> WalkTables {
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

pub(super) static TABLES: WalkTables = walk_tables();

/// `RANK_AT[up][start][i]`: the rank i steps (0 to 13) from `start`, down (0) or up (1).
pub(super) static RANK_AT: [[[u8; RANKS + 1]; RANKS]; 2] = {
    let mut table = [[[0u8; RANKS + 1]; RANKS]; 2];
    let mut start = 0;
    while start < RANKS {
        let mut i = 0;
        while i <= RANKS {
            table[0][start][i] = ((start + RANKS - i) % RANKS) as u8;
            table[1][start][i] = ((start + i) % RANKS) as u8;
            i += 1;
        }
        start += 1;
    }
    table
};

/// The ranks that lie directly on one another in the piles: for each rank a, the ranks
/// of the cards right under a card of rank a (kept as counts, so that playing and taking
/// back a card update it in a few steps).
#[derive(Clone)]
pub(super) struct Pairs {
    pub(super) count: [[u8; RANKS]; RANKS],
    pub(super) under: [u32; 16],
}

impl Pairs {
    #[inline]
    pub(super) fn remove(&mut self, a: usize, b: usize) {
        self.count[a][b] -= 1;
        if self.count[a][b] == 0 {
            self.under[a] &= !(1 << b);
        }
    }

    #[inline]
    pub(super) fn add(&mut self, a: usize, b: usize) {
        self.count[a][b] += 1;
        self.under[a] |= 1 << b;
    }
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
    /// Edges crossed fewer than -1/2 times (dead), exactly -1/2, +1/2, 3/2 and 5/2.
    below: u32,
    minus_one: u32,
    one: u32,
    three: u32,
    five: u32,
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
        let mut walk = Walk { edges: [0; RANKS], below: 0, minus_one: 0, one: 0, three: 0, five: 0 };
        for v in 0..RANKS {
            let sign = if v % 2 == 0 { -1 } else { 1 };
            walk.edges[v] = 2 * q[v] + sign * last;
            walk.mark(v);
        }
        walk
    }

    #[inline]
    pub(super) fn mark(&mut self, v: usize) {
        let e = self.edges[v];
        let bit = 1u32 << v;
        self.below = (self.below & !bit) | (((e < -1) as u32) << v);
        self.minus_one = (self.minus_one & !bit) | (((e == -1) as u32) << v);
        self.one = (self.one & !bit) | (((e == 1) as u32) << v);
        self.three = (self.three & !bit) | (((e == 3) as u32) << v);
        self.five = (self.five & !bit) | (((e == 5) as u32) << v);
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
        self.can_end_with(in_play, ends, |_, _| true)
    }

    /// [`Walk::can_end`], with `fits(t, crossings)` asked of each end t whose walk exists.
    #[inline]
    pub(super) fn can_end_with(&self, in_play: u32, ends: u32, mut fits: impl FnMut(usize, Crossings) -> bool) -> bool {
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
            let connected = cuts.count_ones() <= 1 || {
                let by = (cuts.trailing_zeros() + 1) % RANKS as u32;
                let vertices = rotate(in_play, by);
                let cuts = rotate(cuts, by);
                let lo = vertices.trailing_zeros();
                let hi = 31 - vertices.leading_zeros();
                let span = (1u32 << hi) - (1u32 << lo);
                cuts & span == 0
            };
            if !connected {
                continue;
            }
            // Doubled, the walk ending at t crosses each edge E + 1 times (`plus`) or E - 1.
            let crossings = Crossings {
                zero: (self.minus_one & plus) | (self.one & !plus),
                one: (self.one & plus) | (self.three & !plus),
                two: (self.three & plus) | (self.five & !plus),
            };
            if fits(t, crossings) {
                return true;
            }
        }
        false
    }
}

/// The edges (bit v: between ranks v and v+1) that a walk crosses never, once and twice.
#[derive(Clone, Copy, Debug)]
pub(super) struct Crossings {
    pub(super) zero: u32,
    pub(super) one: u32,
    pub(super) two: u32,
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
pub(super) fn present(counts: &[u8; RANKS]) -> u32 {
    let mut mask = 0;
    for (r, &count) in counts.iter().enumerate() {
        mask |= ((count > 0) as u32) << r;
    }
    mask
}

impl Layout {
    /// Can a card of rank `r` be the first played of the cards whose ranks are in
    /// `block` (no such card above it)?
    #[inline]
    pub(super) fn can_open(&self, state: u64, r: usize, block: u32) -> bool {
        let (cards, n) = &self.rank_cards[r];
        cards[..*n as usize].iter().any(|&(p, d)| {
            let h = height(state, p as usize);
            (d as usize) < h && self.above[p as usize][h][d as usize] as u32 & block == 0
        })
    }

    /// Can a card of rank `r` be the last played of the cards whose ranks are in `block`
    /// (no such card under it)?
    #[inline]
    pub(super) fn can_close(&self, state: u64, r: usize, block: u32) -> bool {
        let (cards, n) = &self.rank_cards[r];
        cards[..*n as usize]
            .iter()
            .any(|&(p, d)| (d as usize) < height(state, p as usize) && self.below[p as usize][d as usize] as u32 & block == 0)
    }

    /// Whether some pile still holding its three cards has ranks (bottom first) that
    /// `found` picks.
    #[inline(always)]
    pub(super) fn some_full_pile(&self, state: u64, found: impl Fn(&[u8; 3]) -> bool) -> bool {
        let mut full = state & (state >> 1) & SPREAD;
        while full != 0 {
            let p = (full.trailing_zeros() / 2) as usize;
            full &= full - 1;
            if found(&self.ranks[p]) {
                return true;
            }
        }
        false
    }

    /// Whether the piles' order allows a walk from `start` to `end` that crosses the
    /// edges between ranks as `crossings` says.
    ///
    /// Lift the walk to the integers. All edges crossed exactly once are crossed in one
    /// direction, each at a single lift, so they cut the game into segments played in
    /// turn: going from `start` in that direction, the ranks up to the first such edge,
    /// then those up to the next, and so on, the last segment coming back to the arc of
    /// the first. No pile may hold a card of a later segment above one of an earlier
    /// segment, and each segment must open on a card that none of its own cards covers
    /// and close on one that covers none of them, at the ranks of its edges.
    ///
    /// When some edge is never crossed the walk lives on a line: its direction is the
    /// one towards `end`, and the first and last segments are the two ends of the line.
    /// An edge off the way from `start` to `end` crossed twice is then one excursion
    /// beyond it: its cards are played in one block, opened and closed next to the edge.
    /// On the full circle the direction is unknown and both are tried.
    #[inline]
    pub(super) fn order_fits(&self, state: u64, pairs: &Pairs, in_play: u32, start: usize, end: usize, crossings: Crossings) -> bool {
        let Crossings { zero, one, two } = crossings;
        if zero == 0 {
            one.count_ones() < 2
                || self.segments_fit(state, pairs, in_play, start, end, one, 0, 1)
                || self.segments_fit(state, pairs, in_play, start, end, one, 0, -1)
        } else if one == 0 && two == 0 {
            true
        } else {
            // The direction towards `end` on the line: `end` is reached going up from
            // `start` before any edge never crossed.
            let up = (end + RANKS - start) % RANKS;
            let first_zero = rotate(zero, start as u32).trailing_zeros() as usize;
            let direction = if up <= first_zero { 1 } else { -1 };
            self.segments_fit(state, pairs, in_play, start, end, one, zero | (two << 16), direction)
        }
    }

    /// `order_fits` in one direction (1: up the ranks, -1: down): `one` are the edges
    /// crossed once; `line` is 0 on the circle, else the edges never crossed (low 16
    /// bits) and those crossed twice (high bits).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn segments_fit(
        &self,
        state: u64,
        pairs: &Pairs,
        in_play: u32,
        start: usize,
        end: usize,
        one: u32,
        line: u32,
        direction: i32,
    ) -> bool {
        // Positions along the direction: the start at 0; edge at position i joins the
        // ranks at positions i and i + 1.
        let up = direction > 0;
        let ranks_at = &RANK_AT[up as usize][start];
        let orient = |edges: u32| {
            if up {
                rotate(edges, start as u32)
            } else {
                rotate(edges.reverse_bits() >> (32 - RANKS), (RANKS - start) as u32 % RANKS as u32)
            }
        };
        let ones = orient(one);
        let zeros = orient(line & FULL);
        let twos = orient(line >> 16);
        let segments = ones.count_ones() as usize;
        let circle = zeros == 0;
        // On a line the ranks behind the start (past the edge never crossed) belong to
        // the first segment; on the circle the arc of the first and last segments is
        // played partly first, partly last: a card there counts as first while nothing
        // of a later segment lies above it, else as last.
        let behind = if circle { RANKS - 1 } else { zeros.trailing_zeros() as usize };
        let mut block = 0u32;
        for i in behind + 1..RANKS {
            block |= 1 << ranks_at[i];
        }
        // blocks[k]: the ranks of segment k; lower: those of the segments before the
        // current one (on the circle, without the first).
        let mut blocks = [0u32; 16];
        let mut lower = 0u32;
        let mut conflict = 0u32;
        let mut k = 0usize;
        for i in 0..=behind {
            let a = ranks_at[i] as usize;
            conflict |= pairs.under[a] & lower;
            block |= 1 << a;
            if ones >> i & 1 != 0 {
                blocks[k] = block;
                if !circle || k > 0 {
                    lower |= block;
                }
                k += 1;
                block = 0;
                if circle && k == segments {
                    lower = 0;
                }
            }
        }
        blocks[k] = block;
        // A card of a later segment right on one of an earlier segment.
        if conflict != 0 {
            return false;
        }
        if circle {
            let arc = blocks[0] | blocks[segments];
            if arc >> end & 1 == 0 {
                return false;
            }
            // An arc card between two cards of middle segments.
            if self.some_full_pile(state, |r| arc >> r[1] & 1 != 0 && arc >> r[2] & 1 == 0 && arc >> r[0] & 1 == 0) {
                return false;
            }
        }
        // Each crossing, from segment k - 1 to k: closing and opening cards.
        let mut crossings = ones;
        let mut k = 1usize;
        while crossings != 0 {
            let i = crossings.trailing_zeros() as usize;
            crossings &= crossings - 1;
            let (closing, opening) = (ranks_at[i] as usize, ranks_at[i + 1] as usize);
            if (!circle || k > 1) && in_play >> closing & 1 != 0 && !self.can_close(state, closing, blocks[k - 1] & in_play) {
                return false;
            }
            if (!circle || k < segments) && !self.can_open(state, opening, blocks[k] & in_play) {
                return false;
            }
            k += 1;
        }
        // Excursions beyond edges crossed twice, on a line: past the end (i < behind)
        // they reach up to the edge never crossed; behind the start (i > behind) back
        // from it.
        let mut excursions = twos;
        while excursions != 0 {
            let i = excursions.trailing_zeros() as usize;
            excursions &= excursions - 1;
            let (from, to, entry) = if i < behind { (i + 1, behind, i + 1) } else { (behind + 1, i, i) };
            let mut block = 0u32;
            for j in from..=to {
                block |= 1 << ranks_at[j];
            }
            let block = block & in_play;
            if block == 0 {
                continue;
            }
            let entry = ranks_at[entry] as usize;
            if !self.can_open(state, entry, block) || !self.can_close(state, entry, block) {
                return false;
            }
            // A card outside the excursion between two of its cards.
            if self.some_full_pile(state, |r| block >> r[2] & 1 != 0 && block >> r[1] & 1 == 0 && block >> r[0] & 1 != 0) {
                return false;
            }
        }
        true
    }

    /// The ranks the last card of the game can have: a pile's bottom card t, when the
    /// card before it can be the card just above it (one rank away) or another pile's
    /// bottom card one rank away (the card before the last must empty its pile too).
    /// `bottom_ranks` holds the ranks of the bottom cards still on the table.
    #[inline]
    pub(super) fn last_cards(&self, state: u64, bottom_ranks: u32) -> u32 {
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

    /// The rank walk and the piles' order (see [`walk_possible`] and `order_fits`).
    #[inline]
    pub(super) fn alive(&self, state: u64, walk: &Walk, pairs: &Pairs, in_play: u32, start: usize, ends: u32) -> bool {
        walk.can_end_with(in_play | (1 << start), ends, |end, crossings| self.order_fits(state, pairs, in_play, start, end, crossings))
    }
}
