//! A Fourteen Out layout, its positions (the twelve pile heights) and their moves.
//!
//! Two exact prunes, both cheap with the per-pile counts packed into one word:
//!
//! * **a pairing for every value**: the cards of a value v and of 14 - v (the class of
//!   v; the Sevens are a class of their own) must all leave in pairs of one v and one
//!   14 - v from two different piles. Such a pairing exists exactly when no pile holds
//!   more than half of its class's cards (Hall's condition: the class of n pairs is
//!   blocked by a pile holding a of the v and b of the 14 - v when a + b > n; two
//!   Sevens of one pile never pair). Removing a pair keeps every other class as it
//!   was, so this is checked for all seven classes at once in every position;
//! * **available classes go at once**: when every card left of a class is available,
//!   removing a pair of them is never worse than anything else (in any winning line
//!   they leave paired among themselves, and taking a pair out earlier only frees
//!   cards sooner), so it is the only move tried.

/// Piles of a deal.
pub const PILES: usize = 12;
/// The deepest pile (the first four are dealt five cards).
pub const DEEPEST: usize = 5;
const CLASSES: usize = 7;
/// Bits of a class's field in a packed count (a count is at most 8, doubled 10).
const FIELD: u32 = 6;
/// The top bit of every field: `(totals | GUARD) - 2 * counts` keeps it set in every
/// field where the pile holds at most half of the class.
const GUARD: u64 = {
    let mut guard = 0u64;
    let mut k = 0;
    while k < CLASSES {
        guard |= 1 << (FIELD as usize * k + 5);
        k += 1;
    }
    guard
};

/// The class of a rank (1 to 13): 0 for Aces and Kings ... 5 for Sixes and Eights, 6
/// for Sevens.
#[inline]
pub fn class_of(rank: u8) -> usize {
    (rank.min(14 - rank) - 1) as usize
}

#[inline]
pub fn height(state: u64, pile: usize) -> usize {
    ((state >> (3 * pile)) & 7) as usize
}

#[inline]
pub fn lower(state: u64, pile: usize) -> u64 {
    state - (1 << (3 * pile))
}

/// A layout to search: each pile's ranks (1 to 13), bottom first, and packed counts.
pub struct Layout {
    pub(crate) ranks: [[u8; DEEPEST]; PILES],
    pub(crate) heights: [u8; PILES],
    /// `counts[p][h]`: pile p's cards of each class among its bottom h cards, one
    /// field of [`FIELD`] bits a class.
    counts: [[u64; DEEPEST + 1]; PILES],
}

impl Layout {
    /// A layout from card indices (suit * 13 + rank - 1), bottom first; an error names
    /// what is wrong (a card twice, a pile too tall, too many piles).
    pub fn new(piles: &[Vec<u8>]) -> Result<Layout, String> {
        if piles.len() != PILES {
            return Err(format!("Fourteen Out has {PILES} piles, not {}", piles.len()));
        }
        let mut ranks = [[0u8; DEEPEST]; PILES];
        let mut heights = [0u8; PILES];
        let mut counts = [[0u64; DEEPEST + 1]; PILES];
        let mut seen = 0u64;
        for (p, pile) in piles.iter().enumerate() {
            if pile.len() > DEEPEST {
                return Err(format!("pile {} holds {} cards, at most {DEEPEST}", p + 1, pile.len()));
            }
            heights[p] = pile.len() as u8;
            for (d, &card) in pile.iter().enumerate() {
                if card >= 52 || seen & (1 << card) != 0 {
                    return Err(format!("card index {card} is out of range or appears twice"));
                }
                seen |= 1 << card;
                let rank = card % 13 + 1;
                ranks[p][d] = rank;
                counts[p][d + 1] = counts[p][d] + (1 << (FIELD as usize * class_of(rank)));
            }
        }
        Ok(Layout { ranks, heights, counts })
    }

    /// The position as dealt.
    pub fn root(&self) -> u64 {
        (0..PILES).fold(0, |state, p| state | (self.heights[p] as u64) << (3 * p))
    }

    #[inline]
    pub fn top(&self, state: u64, pile: usize) -> Option<u8> {
        let h = height(state, pile);
        (h > 0).then(|| self.ranks[pile][h - 1])
    }

    /// The class counts of every card left, packed.
    #[inline]
    fn totals(&self, state: u64) -> u64 {
        (0..PILES).map(|p| self.counts[p][height(state, p)]).sum()
    }

    /// Can every card left still be paired (each class, pile by pile: Hall's
    /// condition)? False is a proof that the position is lost.
    #[inline]
    pub fn pairable(&self, state: u64) -> bool {
        let totals = self.totals(state) | GUARD;
        (0..PILES).all(|p| (totals - 2 * self.counts[p][height(state, p)]) & GUARD == GUARD)
    }

    /// Every pair of piles whose top cards make 14 (tallest piles first).
    pub fn moves(&self, state: u64) -> Vec<(u8, u8)> {
        let mut out = [(0u8, 0u8); PILES * PILES / 2];
        let n = self.moves_into(state, &mut out, false);
        out[..n].to_vec()
    }

    /// Writes the moves to try from `state` into `out`, returns how many. With
    /// `forced`, a class whose cards left are all available gives its one pair only.
    pub fn moves_into(&self, state: u64, out: &mut [(u8, u8); PILES * PILES / 2], forced: bool) -> usize {
        let mut tops = [0u8; PILES];
        let mut in_class = [0u8; CLASSES];
        for p in 0..PILES {
            if let Some(rank) = self.top(state, p) {
                tops[p] = rank;
                in_class[class_of(rank)] += 1;
            }
        }
        if forced {
            let totals = self.totals(state);
            for k in 0..CLASSES {
                let left = (totals >> (FIELD as usize * k)) & 31;
                if left > 0 && left == in_class[k] as u64 {
                    // Every card of the class is available: pair the first with a partner.
                    let p = (0..PILES).find(|&p| tops[p] != 0 && class_of(tops[p]) == k).unwrap();
                    if let Some(q) = (p + 1..PILES).find(|&q| tops[q] != 0 && tops[p] + tops[q] == 14) {
                        out[0] = (p as u8, q as u8);
                        return 1;
                    }
                }
            }
        }
        let mut n = 0;
        for p in 0..PILES {
            if tops[p] == 0 {
                continue;
            }
            for q in p + 1..PILES {
                if tops[q] != 0 && tops[p] + tops[q] == 14 {
                    out[n] = (p as u8, q as u8);
                    n += 1;
                }
            }
        }
        // Tallest piles first: deeper cards are freed sooner.
        let key = |&(p, q): &(u8, u8)| std::cmp::Reverse(height(state, p as usize) + height(state, q as usize));
        out[..n].sort_by_key(key);
        n
    }
}
