//! The moves the Spider search tries: the legal moves less those that never pay.

use super::position::{follows, rank, suit, Game, Move, Pos};
use super::COLUMNS;

impl Game {
    /// The moves the search tries: the legal moves less those that never pay.
    pub(super) fn search_moves(&self, pos: &Pos, out: &mut Vec<Move>) {
        out.clear();
        // The columns whose top card has each rank (bit per column), and the top suits.
        let mut by_top_rank = [0u16; 14];
        let mut top_suit = [0u8; COLUMNS];
        let mut suited = [0u8; COLUMNS];
        let mut first_empty = None;
        for (index, &id) in pos.cols.iter().enumerate() {
            let t = self.store.info(id);
            if t.is_empty() {
                first_empty = first_empty.or(Some(index));
            } else {
                by_top_rank[rank(t.top) as usize] |= 1 << index;
                top_suit[index] = suit(t.top);
                suited[index] = t.suited;
            }
        }
        for src in 0..COLUMNS {
            let s = *self.store.info(pos.cols[src]);
            if s.is_empty() {
                continue;
            }
            let cards = self.store.cards(pos.cols[src]);
            let up = s.up() as usize;
            for count in 1..=s.movable as usize {
                let card = cards[cards.len() - count];
                // Is the run's base on a card one rank higher (of its own suit)?
                let rank_link = count < up && follows(cards[cards.len() - count - 1], card, false);
                let suited_link = rank_link && follows(cards[cards.len() - count - 1], card, true);
                // A run on a card of its own suit one rank higher moves only onto such a
                // card; a run already on a card one rank higher only moves to a card of
                // its own suit (a lateral move changes nothing that counts).
                let same_suit_only = suited_link || (self.lateral_prune && rank_link);
                let whole = count == cards.len();
                let mut targets = by_top_rank[rank(card) as usize + 1] & !(1 << src);
                if let Some(empty) = first_empty {
                    if !whole && !suited_link {
                        targets |= 1 << empty;
                    }
                }
                while targets != 0 {
                    let dst = targets.trailing_zeros() as usize;
                    targets &= targets - 1;
                    if same_suit_only && Some(dst) != first_empty && top_suit[dst] != suit(card) {
                        continue;
                    }
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
