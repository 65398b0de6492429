//! The pruned search against a plain one on small random layouts, and the prunes' facts.

use super::position::{class_of, Layout, PILES};
use super::search::EXACT;
use crate::search::{Budget, Outcome};
use std::collections::HashSet;

/// Plain depth-first search, no prune: can every card be removed?
fn brute(ranks: &[Vec<u8>]) -> bool {
    fn go(ranks: &[Vec<u8>], heights: &mut Vec<usize>, seen: &mut HashSet<Vec<usize>>) -> bool {
        if heights.iter().all(|&h| h == 0) {
            return true;
        }
        if !seen.insert(heights.clone()) {
            return false;
        }
        for p in 0..heights.len() {
            for q in p + 1..heights.len() {
                let (hp, hq) = (heights[p], heights[q]);
                if hp > 0 && hq > 0 && ranks[p][hp - 1] + ranks[q][hq - 1] == 14 {
                    heights[p] -= 1;
                    heights[q] -= 1;
                    let won = go(ranks, heights, seen);
                    heights[p] += 1;
                    heights[q] += 1;
                    if won {
                        return true;
                    }
                }
            }
        }
        false
    }
    let mut heights: Vec<usize> = ranks.iter().map(|p| p.len()).collect();
    go(ranks, &mut heights, &mut HashSet::new())
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A few pairs of a few classes dealt into the piles at random: small enough for the
/// plain search, with wins and losses both common.
fn random_piles(rng: &mut Rng) -> Vec<Vec<u8>> {
    let classes = 1 + rng.below(4);
    let mut deck: Vec<u8> = Vec::new();
    for k in 0..classes {
        let rank = 1 + rng.below(7) as u8;
        let _ = k;
        for suit in 0..4u8 {
            let card = suit * 13 + rank - 1;
            let partner = suit * 13 + (14 - rank) - 1;
            if !deck.contains(&card) && !deck.contains(&partner) && rng.below(3) > 0 {
                deck.push(card);
                if partner != card {
                    deck.push(partner);
                }
            }
        }
    }
    // Sevens come in pairs of two different suits.
    let sevens: Vec<u8> = deck.iter().copied().filter(|&c| c % 13 == 6).collect();
    if sevens.len() % 2 == 1 {
        deck.retain(|&c| c != sevens[0]);
    }
    let used = 2 + rng.below(PILES - 1);
    let mut piles = vec![Vec::new(); PILES];
    for i in (1..deck.len()).rev() {
        deck.swap(i, rng.below(i + 1));
    }
    for card in deck {
        let free: Vec<usize> = (0..used).filter(|&p| piles[p].len() < if p < 4 { 5 } else { 4 }).collect();
        if free.is_empty() {
            break;
        }
        piles[free[rng.below(free.len())]].push(card);
    }
    piles
}

#[test]
fn verdicts_match_a_search_without_prunes() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let (mut won, mut lost) = (0, 0);
    for _ in 0..50_000 {
        let piles = random_piles(&mut rng);
        let ranks: Vec<Vec<u8>> = piles.iter().map(|p| p.iter().map(|c| c % 13 + 1).collect()).collect();
        let total: usize = ranks.iter().map(Vec::len).sum();
        let layout = Layout::new(&piles).unwrap();
        let solution = layout.solve(&Budget::unlimited(), &EXACT);
        // An odd card out (a Seven alone, a card dealt without its partner) can never go.
        let expected = brute(&ranks);
        assert_eq!(solution.outcome == Outcome::Won, expected, "{piles:?}");
        if expected {
            won += 1;
            // The line is legal and removes every card.
            let mut heights: Vec<usize> = ranks.iter().map(Vec::len).collect();
            for &(p, q) in &solution.line {
                let (p, q) = (p as usize, q as usize);
                assert!(p != q && heights[p] > 0 && heights[q] > 0);
                assert_eq!(ranks[p][heights[p] - 1] + ranks[q][heights[q] - 1], 14);
                heights[p] -= 1;
                heights[q] -= 1;
            }
            assert!(heights.iter().all(|&h| h == 0));
            assert_eq!(solution.line.len() * 2, total);
        } else {
            lost += 1;
        }
    }
    eprintln!("{won} won, {lost} lost");
    assert!(won > 5_000 && lost > 5_000, "{won} won, {lost} lost");
}

#[test]
fn classes_pair_each_value_with_fourteen_minus_it() {
    for rank in 1..=13u8 {
        assert_eq!(class_of(rank), class_of(14 - rank));
    }
    let distinct: HashSet<usize> = (1..=7u8).map(class_of).collect();
    assert_eq!(distinct.len(), 7);
}

#[test]
fn a_pile_holding_more_than_half_its_class_is_lost_at_once() {
    // The last King lies on the last Ace, in one pile: they can never meet.
    let mut piles = vec![Vec::new(); PILES];
    piles[0] = vec![0, 12]; // AC under KC
    let layout = Layout::new(&piles).unwrap();
    assert!(!layout.pairable(layout.root()));
    let solution = layout.solve(&Budget::unlimited(), &EXACT);
    assert_eq!((solution.outcome, solution.positions), (Outcome::Lost, 1));
    // In two piles they pair.
    piles[1] = vec![piles[0].pop().unwrap()];
    let layout = Layout::new(&piles).unwrap();
    assert_eq!(layout.solve(&Budget::unlimited(), &EXACT).outcome, Outcome::Won);
}

#[test]
fn bad_layouts_are_refused() {
    assert!(Layout::new(&vec![Vec::new(); 11]).is_err());
    let mut piles = vec![Vec::new(); PILES];
    piles[0] = vec![1, 2, 3, 4, 5, 6];
    assert!(Layout::new(&piles).is_err());
    piles[0] = vec![1, 1];
    assert!(Layout::new(&piles).is_err());
    piles[0] = vec![52];
    assert!(Layout::new(&piles).is_err());
}

#[test]
fn budgets_give_unknown() {
    // Full deals: one position of budget is never enough.
    let piles: Vec<Vec<u8>> = (0..PILES).map(|p| (0..52u8).skip(p).step_by(PILES).collect()).collect();
    let layout = Layout::new(&piles).unwrap();
    let solution = layout.solve(&Budget::new(Some(1), None), &EXACT);
    assert_eq!(solution.outcome, Outcome::Unknown);
}
