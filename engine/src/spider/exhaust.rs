//! Proof of loss: every position reachable from a root by the rules' own moves, each
//! counted once, until a win or until none is left.
//!
//! The best-first search ([`super::solve_bounded`]) prunes moves (a run split only to
//! grow a run, no lateral moves, one empty column as target), so its "nothing left" is
//! no proof. This search tries every legal move ([`Game::legal_moves`]) and keeps every
//! position it has reached (canonical: the columns in any order once the stock is gone,
//! since then nothing tells them apart), so it says "lost" only when the whole space
//! from the root has been walked without a win.
//!
//! What it reached is re-checkable without this code: the number of distinct canonical
//! positions (the root included) and the wrapping sum of their [`digest`]s, a function
//! of the cards alone (not of the search's order nor of its column ids), which
//! `tests/engine/test_spider_proof.py` computes again with the Python rules on a small
//! lost position.

use super::position::{mix, Game, Pos};
use super::{COLUMNS, RUNS};
use crate::hashset::KeySet;
use crate::search::{Budget, Outcome};

/// What an exhaustive search reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exhaustion {
    /// `Lost` (the whole space walked), `Won`, or `Unknown` (memory or time ran out).
    pub outcome: Outcome,
    /// Distinct canonical positions reached, the root included.
    pub positions: u64,
    /// The wrapping sum of every reached position's [`digest`].
    pub checksum: u64,
    /// The most positions waiting to be expanded at once.
    pub frontier: u64,
}

/// A column's content hash, from its face-down count and its cards (deepest first):
/// `h = mix(seed ^ down)`, then `h = mix(h ^ (card + 1))` for each card.
pub fn column_digest(seed: u64, down: u8, cards: &[u8]) -> u64 {
    let mut h = mix(seed ^ down as u64);
    for &card in cards {
        h = mix(h ^ (card as u64 + 1));
    }
    h
}

/// Salts of the two digests: the first is the checksum's, both make the seen key.
pub const DIGEST_SEEDS: [u64; 2] = [0x5350_4944_4552_0001, 0x5350_4944_4552_0002];

/// A position's digest (with the column digests `columns`, in column order):
/// `mix(dealt << 8 | removed)` plus, for each column `i`, `mix(column digest + salt)`,
/// salt `i + 1` while the stock lasts and 0 after (the sum is then the same in any
/// column order).
pub fn digest(columns: &[u64; COLUMNS], dealt: u8, removed: u8, stock_left: bool) -> u64 {
    let mut h = mix(((dealt as u64) << 8) | removed as u64);
    for (index, &column) in columns.iter().enumerate() {
        let salt = if stock_left { index as u64 + 1 } else { 0 };
        h = h.wrapping_add(mix(column.wrapping_add(salt)));
    }
    h
}

/// The column digests of every column id of the store, filled as the store grows.
struct Digests {
    of: [Vec<u64>; 2],
}

impl Digests {
    fn position(&mut self, game: &Game, pos: &Pos) -> [u64; 2] {
        while self.of[0].len() < game.store.infos.len() {
            let id = self.of[0].len() as u32;
            let (down, cards) = (game.store.info(id).down, game.store.cards(id));
            for (which, seed) in DIGEST_SEEDS.iter().enumerate() {
                self.of[which].push(column_digest(*seed, down, cards));
            }
        }
        let stock_left = game.deals_left(pos) > 0;
        std::array::from_fn(|which| {
            let columns = std::array::from_fn(|i| self.of[which][pos.cols[i] as usize]);
            digest(&columns, pos.dealt, pos.removed, stock_left)
        })
    }
}

/// Bytes a reached position costs at most: its 16-byte key in a set grown at 70 % full
/// (so up to 46 bytes a key just after growing), a frontier entry and its columns.
pub const EXHAUST_BYTES_PER_POSITION: u64 = 64;

/// Walks every position reachable from the root (depth first), holding at most about
/// `memory_mb` megabytes ([`EXHAUST_BYTES_PER_POSITION`] a position); `budget` may bound
/// its time. Lost only when nothing is left to expand.
pub fn exhaust(
    columns: &[(Vec<u8>, Vec<u8>)],
    stock: &[u8],
    removed: u8,
    by_suit: bool,
    memory_mb: u64,
    budget: &mut Budget,
) -> Result<Exhaustion, String> {
    let (mut game, root) = Game::new(columns, stock, removed, by_suit)?;
    let limit = (memory_mb.saturating_mul(1 << 20) / EXHAUST_BYTES_PER_POSITION).max(1000);
    let mut digests = Digests { of: [Vec::new(), Vec::new()] };
    let key = |d: [u64; 2]| ((d[0] as u128) << 64 | d[1] as u128) & !(1u128 << 127);
    let first = digests.position(&game, &root);
    let mut seen: KeySet<u128> = KeySet::with_capacity_log2(16);
    seen.insert(key(first));
    let mut out = Exhaustion { outcome: Outcome::Unknown, positions: 1, checksum: first[0], frontier: 1 };
    if root.removed == RUNS {
        out.outcome = Outcome::Won;
        return Ok(out);
    }
    let mut stack = vec![root];
    let mut moves = Vec::with_capacity(64);
    while let Some(pos) = stack.pop() {
        game.legal_moves_into(&pos, &mut moves);
        for &mv in moves.iter() {
            let child = game.apply(&pos, mv);
            let d = digests.position(&game, &child);
            if !seen.insert(key(d)) {
                continue;
            }
            out.positions += 1;
            out.checksum = out.checksum.wrapping_add(d[0]);
            if child.removed == RUNS {
                out.outcome = Outcome::Won;
                return Ok(out);
            }
            stack.push(child);
        }
        out.frontier = out.frontier.max(stack.len() as u64);
        if out.positions >= limit || budget.exhausted(out.positions) {
            return Ok(out);
        }
    }
    out.outcome = Outcome::Lost;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lost position with two runs left (spades 0-12, hearts 13-25 of the engine's
    /// indices; six removed) and no stock: a few moves, then none. Found by walking
    /// random positions of that kind; `tests/engine/test_spider_proof.py` walks it again
    /// with the Python rules and gets the same count and checksum.
    pub(crate) fn small_lost() -> Vec<(Vec<u8>, Vec<u8>)> {
        vec![
            (vec![20, 14, 11], vec![23]),
            (vec![3, 17, 7, 9, 12], vec![2]),
            (vec![24], vec![10]),
            (vec![21], vec![8]),
            (vec![13], vec![15]),
            (vec![], vec![0]),
            (vec![18], vec![25]),
            (vec![5], vec![19]),
            (vec![4, 6], vec![22]),
            (vec![1], vec![16]),
        ]
    }

    #[test]
    fn a_small_lost_position_is_proved_lost_with_its_count_and_checksum() {
        let out = exhaust(&small_lost(), &[], 6, true, 64, &mut Budget::new(None, None)).unwrap();
        assert_eq!((out.outcome, out.positions, out.checksum), (Outcome::Lost, 18, 5_774_298_681_177_068_447));
        // Too little memory for the whole space: no proof.
        let cut = exhaust(&small_lost(), &[], 6, true, 64, &mut Budget::new(Some(5), None)).unwrap();
        assert_eq!(cut.outcome, Outcome::Unknown);
    }

    #[test]
    fn a_won_position_is_not_lost() {
        // The same cards with the hearts in order on one column, the spades on another:
        // the runs leave at once.
        let mut columns: Vec<(Vec<u8>, Vec<u8>)> = vec![(vec![], vec![]); COLUMNS];
        columns[0].1 = (0..12).rev().collect();
        columns[1].1 = (13..26).rev().collect();
        columns[2].1 = vec![12];
        let out = exhaust(&columns, &[], 6, true, 64, &mut Budget::new(None, None)).unwrap();
        assert_eq!(out.outcome, Outcome::Won);
    }

    #[test]
    fn the_digest_of_a_position_without_stock_ignores_the_columns_order() {
        let columns: [u64; COLUMNS] = std::array::from_fn(|i| i as u64 * 77);
        let mut turned = columns;
        turned.reverse();
        assert_eq!(digest(&columns, 5, 2, false), digest(&turned, 5, 2, false));
        assert_ne!(digest(&columns, 4, 2, true), digest(&turned, 4, 2, true));
    }
}
