//! Black Hole tests: the prunes against plain searches on small layouts.

use super::position::adjacent;
use super::*;
use crate::search::{Budget, Outcome};

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

/// Plain depth-first search with no prune: can every card be played?
fn brute_solve(ranks: &[Vec<u8>], foundation: usize) -> bool {
    fn go(ranks: &[Vec<u8>], heights: &mut Vec<usize>, f: usize, seen: &mut std::collections::HashSet<(Vec<usize>, usize)>) -> bool {
        if heights.iter().all(|&h| h == 0) {
            return true;
        }
        if !seen.insert((heights.clone(), f)) {
            return false;
        }
        for p in 0..heights.len() {
            let h = heights[p];
            if h > 0 && adjacent(ranks[p][h - 1] as usize, f) {
                let r = ranks[p][h - 1] as usize;
                heights[p] -= 1;
                let won = go(ranks, heights, r, seen);
                heights[p] += 1;
                if won {
                    return true;
                }
            }
        }
        false
    }
    let mut heights: Vec<usize> = ranks.iter().map(|p| p.len()).collect();
    go(ranks, &mut heights, foundation, &mut std::collections::HashSet::new())
}

/// Small random layouts (few cards, few ranks, so that wins and losses both occur
/// and the piles' order matters): the pruned search agrees with a plain one.
#[test]
fn verdicts_match_a_search_without_prunes() {
    let mut seed = 987654321u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut won, mut lost) = (0, 0);
    for _ in 0..100_000 {
        // A winning walk dealt into piles (played cards on top), then perhaps a few
        // cards swapped: wins and near misses.
        let cards = 2 + (next() % 30) as usize;
        let piles_used = 1 + (next() % PILES as u64) as usize;
        let foundation = (next() % RANKS as u64) as usize;
        let mut walk = Vec::with_capacity(cards);
        let mut at = foundation;
        let mut suits = [0u8; RANKS];
        for _ in 0..cards {
            at = if next() % 2 == 0 { (at + 1) % RANKS } else { (at + RANKS - 1) % RANKS };
            if suits[at] == 4 {
                break;
            }
            walk.push(at as u8 + 13 * suits[at]);
            suits[at] += 1;
        }
        let mut piles: Vec<Vec<u8>> = vec![Vec::new(); PILES];
        let mut placed = 0;
        for &card in walk.iter().rev() {
            let free: Vec<usize> = (0..piles_used).filter(|&p| piles[p].len() < 3).collect();
            if free.is_empty() {
                break;
            }
            piles[free[(next() % free.len() as u64) as usize]].push(card);
            placed += 1;
        }
        let _ = placed;
        for _ in 0..(next() % 5) {
            let (p, q) = ((next() % PILES as u64) as usize, (next() % PILES as u64) as usize);
            if !piles[p].is_empty() && !piles[q].is_empty() {
                let (i, j) = ((next() % piles[p].len() as u64) as usize, (next() % piles[q].len() as u64) as usize);
                let card = piles[p][i];
                piles[p][i] = piles[q][j];
                piles[q][j] = card;
            }
        }
        let layout = Layout::new(&piles, foundation as u8 + 1).unwrap();
        let ranks: Vec<Vec<u8>> = piles.iter().map(|p| p.iter().map(|c| c % 13).collect()).collect();
        let expected = brute_solve(&ranks, foundation);
        let solution = layout.solve_with(&Budget::unlimited(), &EXACT);
        assert_eq!(solution.outcome == Outcome::Won, expected, "{piles:?} on {}", foundation + 1);
        if expected {
            won += 1;
        } else {
            lost += 1;
        }
    }
    eprintln!("{won} won, {lost} lost");
    assert!(won > 10000 && lost > 10000, "{won} won, {lost} lost");
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
