//! The moves the Spider search tries: the legal moves less those that never pay.

use super::position::{suit, Game, Move, Pos, BASE_ON_RANK};
use super::COLUMNS;

impl Game {
    /// The moves the search tries: the legal moves less those that never pay.
    pub(super) fn search_moves(&self, pos: &Pos, out: &mut Vec<Move>) {
        out.clear();
        // The columns whose top card has each rank and each suit (bit per column), and
        // each column's one-suit run.
        let mut by_top_rank = [0u16; 16];
        // Bit `r`: some column's top card has rank `r`.
        let mut top_ranks = 0u32;
        let mut by_top_suit = [0u16; 4];
        let mut suited = [0u8; COLUMNS];
        let mut first_empty = None;
        for (index, &id) in pos.cols.iter().enumerate() {
            let t = self.store.info(id);
            if t.is_empty() {
                first_empty = first_empty.or(Some(index));
            } else {
                // Ranks and suits are below 16 and 4: the masks take no bounds checks.
                by_top_rank[t.top_rank as usize & 15] |= 1 << index;
                by_top_suit[t.top_suit as usize & 3] |= 1 << index;
                top_ranks |= 1 << t.top_rank;
                suited[index] = t.suited;
            }
        }
        let empty_bit = first_empty.map_or(0u16, |empty| 1 << empty);
        for (src, &id) in pos.cols.iter().enumerate() {
            let s = self.store.info(id);
            if s.is_empty() {
                continue;
            }
            let (top_rank, top_suit) = (s.top_rank, s.top_suit);
            let movable = s.movable as usize;
            // The counts worth a look (bit `count - 1`): with an empty column all of them,
            // else those whose base is one rank below some column's top (the run is in
            // rank order, at most 13 cards: its base is `count - 1` ranks above its top).
            // Any other count has no target: skipping it lists the same moves.
            debug_assert!(movable <= 13);
            let run = (1u32 << movable) - 1;
            let mut counts = if first_empty.is_some() { run } else { (top_ranks >> (top_rank + 1)) & run };
            while counts != 0 {
                let count = counts.trailing_zeros() as usize + 1;
                counts &= counts - 1;
                // The run of `count` cards is in rank order: its base is `count - 1` ranks
                // above the top, and of the top's suit within the one-suit run.
                let rank_of_card = top_rank as usize + count - 1;
                let suit_of_card = if count <= s.suited as usize {
                    top_suit
                } else {
                    let cards = self.store.cards(pos.cols[src]);
                    suit(cards[cards.len() - count])
                };
                // Is the run's base on a card one rank higher (of its own suit)? Inside the
                // movable run it is on a card one rank higher.
                let rank_link = count < movable || s.links & BASE_ON_RANK != 0;
                let suited_link = s.links & (1 << (count - 1)) != 0;
                // A run on a card of its own suit one rank higher moves only onto such a
                // card; a run already on a card one rank higher only moves to a card of
                // its own suit (a lateral move changes nothing that counts).
                let same_suit_only = suited_link || (self.lateral_prune && rank_link);
                let whole = count == s.len as usize;
                let mut targets = by_top_rank[(rank_of_card + 1) & 15] & !(1 << src);
                if !whole && !suited_link {
                    targets |= empty_bit;
                }
                if same_suit_only {
                    targets &= by_top_suit[suit_of_card as usize & 3] | empty_bit;
                }
                while targets != 0 {
                    let dst = targets.trailing_zeros() as usize;
                    targets &= targets - 1;
                    if suited_link && self.grow_runs && suited[dst] as usize + count <= s.suited as usize {
                        continue;
                    }
                    out.push(Move { src: src as u8, dst: dst as u8, count: count as u8 });
                }
            }
        }
        if self.deals_left(pos) > 0 && first_empty.is_none() {
            out.push(Move::DEAL);
        }
    }
}
