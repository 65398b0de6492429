//! Black Hole positions: the layout, a position packed in a `u64`, and its moves.

use super::{FULL, PILES, RANKS, RANK_SHIFT, SPREAD};

/// A layout to search: ranks 0 (Ace) to 12 (King) of each pile, bottom first.
pub struct Layout {
    pub(super) ranks: [[u8; 3]; PILES],
    pub(super) heights: [u8; PILES],
    pub(super) foundation: u8,
    /// For each foundation rank and height h (1 to 3): bit 2p set when pile p's card at
    /// height h can go on the foundation.
    pub(super) playable: [[u64; 4]; RANKS],
    /// Each pile's bottom card's rank, as a bit.
    pub(super) bottom_bit: [u32; PILES],
    /// Bit 2p set when the card above pile p's bottom card is one rank away from it.
    pub(super) above_adjacent_bits: u64,
    /// For each pile p: (q, n) where the bottom n cards of p and q have the same ranks.
    pub(super) partners: [[(u8, u8); PILES]; PILES],
    pub(super) partner_count: [u8; PILES],
    /// `above[p][h][d]`: with pile p at height h, the ranks (bits) of the cards above
    /// its card at depth d (0 = bottom); `below[p][d]`: the ranks under that card.
    pub(super) above: [[[u16; 3]; 4]; PILES],
    pub(super) below: [[u16; 3]; PILES],
    /// `top_down[p][h]`: the ranks of pile p at height h from the top down, four bits
    /// each (the top card in the low bits).
    pub(super) top_down: [[u16; 4]; PILES],
    /// Where each rank's cards lie: (pile, depth), and how many there are.
    pub(super) rank_cards: [([(u8, u8); 4], u8); RANKS],
}

#[inline]
pub(super) fn height(state: u64, pile: usize) -> usize {
    ((state >> (2 * pile)) & 3) as usize
}

#[inline]
pub(super) fn with_height(state: u64, pile: usize, h: usize) -> u64 {
    (state & !(3u64 << (2 * pile))) | ((h as u64) << (2 * pile))
}

#[inline]
pub(super) fn foundation_rank(state: u64) -> usize {
    (state >> RANK_SHIFT) as usize
}

#[inline]
pub(super) fn adjacent(a: usize, b: usize) -> bool {
    let d = (a + RANKS - b) % RANKS;
    d == 1 || d == RANKS - 1
}

#[inline]
pub(super) fn rotate(mask: u32, by: u32) -> u32 {
    ((mask >> by) | (mask << (RANKS as u32 - by))) & FULL
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
        let mut above = [[[0u16; 3]; 4]; PILES];
        let mut below = [[0u16; 3]; PILES];
        let mut rank_cards = [([(0u8, 0u8); 4], 0u8); RANKS];
        for p in 0..PILES {
            for d in 0..heights[p] as usize {
                for e in 0..d {
                    below[p][d] |= 1 << ranks[p][e];
                }
                for h in d + 1..=heights[p] as usize {
                    for e in d + 1..h {
                        above[p][h][d] |= 1 << ranks[p][e];
                    }
                }
                let (cards, n) = &mut rank_cards[ranks[p][d] as usize];
                if (*n as usize) < 4 {
                    cards[*n as usize] = (p as u8, d as u8);
                    *n += 1;
                } else {
                    return Err(format!("more than four cards of rank {}", ranks[p][d] + 1));
                }
            }
        }
        let mut top_down = [[0u16; 4]; PILES];
        for p in 0..PILES {
            for h in 1..=heights[p] as usize {
                for d in 0..h {
                    top_down[p][h] |= (ranks[p][h - 1 - d] as u16) << (4 * d);
                }
            }
        }
        Ok(Layout {
            top_down,
            above,
            below,
            rank_cards,
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

    pub(super) fn root(&self) -> u64 {
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
    pub(super) fn canonical_after(&self, mut state: u64, changed: usize) -> u64 {
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

    pub(super) fn canonical(&self, mut state: u64) -> u64 {
        for p in 0..PILES {
            state = self.canonical_after(state, p);
        }
        state
    }

    /// The moves worth trying from `state` (dominated ones left out), best first,
    /// written to `out`. Run 0 tries the tallest pile first, then the last pile first;
    /// later runs (restarts) keep tallest-first but break ties by a key hashed from the
    /// position and the run, so each run looks somewhere else first.
    #[inline]
    pub(super) fn moves(&self, state: u64, run: u32, out: &mut [u8; PILES]) -> usize {
        self.moves_with(state, run, true, out)
    }

    /// [`Layout::moves`], keeping the dominated moves too when `prune` is false.
    #[inline]
    pub(super) fn moves_with(&self, state: u64, run: u32, prune: bool, out: &mut [u8; PILES]) -> usize {
        let low = state & SPREAD;
        let high = (state >> 1) & SPREAD;
        // Bit 2p: pile p's top card can go on the foundation.
        let on = &self.playable[foundation_rank(state)];
        let mut playable = (low & !high & on[1]) | (high & !low & on[2]) | (low & high & on[3]);
        if playable == 0 {
            return 0;
        }
        // Dominated moves: when pile p's cards, top down, have the ranks of the top of
        // pile q's cards (a lone card and any card of its rank, say), some winning line
        // starts with q's card if any starts with p's. Swap p's i-th card with q's i-th
        // card in the line, for i up to the largest k at which p's k-th card still comes
        // before q's (k+1)-th; both piles keep their order and the ranks played do not
        // change. Of piles with the same ranks the last is kept.
        if prune && playable & (playable - 1) != 0 {
            let mut piles = [0u8; PILES];
            let mut n = 0;
            let mut bits = playable;
            while bits != 0 {
                piles[n] = (bits.trailing_zeros() / 2) as u8;
                bits &= bits - 1;
                n += 1;
            }
            let mut drop = 0u64;
            for i in 0..n {
                let p = piles[i] as usize;
                let hp = height(state, p);
                let cp = self.top_down[p][hp];
                let prefix = (1u16 << (4 * hp)) - 1;
                for j in 0..n {
                    let q = piles[j] as usize;
                    let hq = height(state, q);
                    if j != i && hq >= hp && self.top_down[q][hq] & prefix == cp && (hq > hp || q > p) {
                        drop |= 1 << (2 * p);
                        break;
                    }
                }
            }
            playable &= !drop;
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
}
