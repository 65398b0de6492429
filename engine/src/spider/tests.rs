//! Spider tests: columns, keys, budgets and the presets.

use super::*;
use crate::search::{Budget, Outcome, Solution};

/// Card index of rank 0..12 (Ace..King) and suit 0..3 (C D H S).
fn card(rank: u8, suit: u8) -> u8 {
    suit * 13 + rank
}

#[test]
fn a_completed_run_leaves_and_the_card_under_it_turns() {
    let mut cards = vec![card(4, 0), card(7, 2)];
    cards.extend((0..13).rev().map(|r| card(r, 3)));
    let (down, removed) = settle(&mut cards, 1);
    assert!(removed);
    assert_eq!(cards, vec![card(4, 0), card(7, 2)]);
    assert_eq!(down, 1);
    // Nothing face up left: the top face-down card turns.
    let mut cards = vec![card(4, 0)];
    assert_eq!(settle(&mut cards, 1), (0, false));
    // A run of two suits stays.
    let mut cards: Vec<u8> = (0..13).rev().map(|r| card(r, if r == 5 { 2 } else { 3 })).collect();
    assert_eq!(settle(&mut cards, 0), (0, false));
    assert_eq!(cards.len(), 13);
}

#[test]
fn columns_are_stored_once_and_know_their_runs() {
    let mut store = Store::new(true);
    let cards = [card(9, 0), card(8, 3), card(7, 3), card(6, 2)];
    let a = store.intern(1, &cards);
    let b = store.intern(1, &cards);
    let c = store.intern(0, &cards);
    assert_eq!(a, b);
    assert_ne!(a, c);
    let info = store.info(a);
    assert_eq!((info.movable, info.hard, info.soft, info.top), (1, 0, 1, card(6, 2)));
    let mut widow = Store::new(false);
    let w = widow.intern(1, &cards);
    assert_eq!(widow.info(w).movable, 3);
}

#[test]
fn the_key_ignores_column_order_only_once_the_stock_is_gone() {
    let columns: Vec<(Vec<u8>, Vec<u8>)> = (0..10u8).map(|i| if i < 8 { (vec![], vec![card(i, 0)]) } else { (vec![], vec![]) }).collect();
    // Not a whole deck, so the game is put together by hand.
    let mut store = Store::new(false);
    let ids: Vec<u32> = columns.iter().map(|(d, u)| store.intern(d.len() as u8, u)).collect();
    let game = Game {
        store,
        stock: vec![0; 10],
        deals: 1,
        scratch_a: vec![],
        scratch_b: vec![],
        moves_made: Memo::new(),
        deals_made: Memo::new(),
        lateral_prune: true,
        grow_runs: false,
    };
    let mut cols = [0u32; COLUMNS];
    cols.copy_from_slice(&ids);
    let mut swapped = cols;
    swapped.swap(0, 1);
    let with_stock = Pos { cols, dealt: 0, removed: 0 };
    let with_stock_swapped = Pos { cols: swapped, dealt: 0, removed: 0 };
    assert_ne!(game.key(&with_stock), game.key(&with_stock_swapped));
    let dealt = Pos { cols, dealt: 1, removed: 0 };
    let dealt_swapped = Pos { cols: swapped, dealt: 1, removed: 0 };
    assert_eq!(game.key(&dealt), game.key(&dealt_swapped));
}

/// A shuffled two-deck deal (not PySolFC's: any deal will do), dealt as the rules say.
pub(super) fn shuffled_deal(seed: u64) -> (PyColumns, Vec<u8>) {
    let mut cards: Vec<u8> = (0..104).map(|i| (i % 52) as u8).collect();
    let mut x = seed | 1;
    for i in (1..cards.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        cards.swap(i, (x % (i as u64 + 1)) as usize);
    }
    let mut columns: PyColumns = (0..COLUMNS).map(|_| (Vec::new(), vec![])).collect();
    let mut at = 0;
    for (c, column) in columns.iter_mut().enumerate() {
        let down = if c < 4 { 5 } else { 4 };
        column.0 = cards[at..at + down].to_vec();
        at += down;
        column.1 = vec![cards[at]];
        at += 1;
    }
    (columns, cards[at..].to_vec())
}

/// A portfolio that wanders (pure noise): it does not win a four-suit deal quickly.
const WANDER: Weights = Weights {
    down: 0,
    hard: 0,
    soft: 0,
    stock: 0,
    empty: 0,
    rooted: 0,
    removed: 0,
    depth: 0,
    cap: 0,
    quota: 1000,
    deeper: 0,
    noise: 1000,
    seed: 0,
    suited: false,
    lateral: false,
    grow: false,
    shorter_parents: true,
    endgame_by_runs: false,
};
const WANDERING: [Pass; 3] = [Pass { weights: WANDER, share: 1 }, Pass { weights: WANDER, share: 2 }, Pass { weights: WANDER, share: 1 }];

fn run(budget: &mut Budget, cap: u64) -> (Solution<Move>, Vec<u64>) {
    let (columns, stock) = shuffled_deal(7);
    let preset = Preset { name: "wander", passes: &WANDERING, cap, restarts: &[] };
    let mut spent = vec![];
    let solution = solve_reporting(&columns, &stock, 0, true, budget, &preset, &mut |index, _, positions| {
        assert_eq!(index, spent.len());
        spent.push(positions);
    })
    .unwrap();
    (solution, spent)
}

#[test]
fn a_node_budget_is_shared_by_weight() {
    let (solution, spent) = run(&mut Budget::new(Some(40_000), None), u64::MAX);
    assert_eq!(solution.outcome, Outcome::Unknown);
    assert_eq!(spent, vec![10_000, 20_000, 10_000]);
    assert_eq!(solution.positions, 40_000);
}

#[test]
fn a_time_budget_gives_every_pass_its_turn_then_restarts_until_it_is_spent() {
    let started = crate::search::thread_cpu();
    let (columns, stock) = shuffled_deal(7);
    let preset = Preset { name: "wander", passes: &WANDERING, cap: 1000, restarts: &[] };
    let mut spent: Vec<(usize, u64)> = vec![];
    // 2 MB: each pass stops at its memory long before its share of the time.
    let bound = positions_within(2);
    let solution = solve_bounded(&columns, &stock, 0, true, &mut Budget::new(None, Some(0.5)), &preset, 2, &mut |index, _, positions| {
        spent.push((index, positions))
    })
    .unwrap();
    assert_eq!(solution.outcome, Outcome::Unknown);
    let passes: Vec<usize> = spent.iter().map(|&(index, _)| index).collect();
    // The preset's passes in turn, past its cap (a time budget knows no cap), then restarts.
    assert_eq!(passes[..3], [0, 1, 2], "{spent:?}");
    assert!(passes[3..].iter().all(|&index| index == 3) && passes.len() > 10, "{spent:?}");
    assert!(spent.iter().all(|&(_, count)| count <= bound), "{spent:?}");
    // Every pass and restart ran its course but the last, which the end of the time may
    // cut at any point.
    assert!(spent[..spent.len() - 1].iter().all(|&(_, count)| count > 1000), "{spent:?}");
    let cpu = crate::search::thread_cpu() - started;
    assert!(cpu >= 0.5, "the whole budget was spent: {cpu}");
    assert_eq!(solution.positions, spent.iter().map(|&(_, count)| count).sum::<u64>());
}

#[test]
fn a_time_budget_is_spent_by_the_passes_when_they_fit_in_memory() {
    let (solution, spent) = run(&mut Budget::new(None, Some(0.5)), 1000);
    assert_eq!(solution.outcome, Outcome::Unknown);
    assert_eq!(spent.len(), 3, "every pass ran, the last to the end: {spent:?}");
    assert!(spent.iter().all(|&count| count > 1000), "the preset's cap does not stop a time budget: {spent:?}");
}

#[test]
fn a_pass_holds_no_more_than_its_memory() {
    let (columns, stock) = shuffled_deal(7);
    let preset = Preset { name: "wander", passes: &WANDERING, cap: u64::MAX, restarts: &[] };
    let bound = positions_within(1);
    let mut spent = vec![];
    let solution = solve_bounded(&columns, &stock, 0, true, &mut Budget::new(Some(40_000), None), &preset, 1, &mut |_, _, positions| {
        spent.push(positions)
    })
    .unwrap();
    assert_eq!(solution.outcome, Outcome::Unknown);
    assert!(bound < 10_000);
    assert_eq!(spent, vec![bound, bound, bound]);
}

#[test]
fn with_no_budget_the_passes_share_the_cap() {
    let (solution, spent) = run(&mut Budget::unlimited(), 8_000);
    assert_eq!(solution.outcome, Outcome::Unknown);
    assert_eq!(spent, vec![2_000, 4_000, 2_000]);
}

#[test]
fn the_presets_are_sound() {
    for preset in PRESETS {
        assert!(!preset.passes.is_empty() && preset.cap > 0, "{}", preset.name);
        assert!(preset.passes.iter().all(|pass| pass.share > 0 && pass.weights.quota > 0), "{}", preset.name);
        assert!(preset.restarts.iter().all(|w| w.quota > 0 && w.cap == 0 && !w.suited), "{}", preset.name);
        // Each restart a search of its own: no two flavours alike.
        for (i, a) in preset.restarts.iter().enumerate() {
            assert!(preset.restarts[i + 1..].iter().all(|b| a != b), "{}: restart {i} twice", preset.name);
        }
    }
    // Hints and verdicts restart alike, but for the hints' end game by runs removed.
    let plain = |w: &Weights| Weights { endgame_by_runs: false, ..*w };
    assert_eq!(SPIDER.restarts.iter().map(plain).collect::<Vec<_>>(), SPIDER_VERDICTS.restarts);
    for preset in [&SPIDER, &BLACK_WIDOW] {
        let flavours = preset.passes.iter().map(|pass| &pass.weights).chain(preset.restarts.iter());
        assert!(flavours.into_iter().all(|w| w.endgame_by_runs), "{}: the end game by runs removed", preset.name);
    }
    for preset in [&SPIDER_VERDICTS, &BLACK_WIDOW_VERDICTS] {
        let flavours = preset.passes.iter().map(|pass| &pass.weights).chain(preset.restarts.iter());
        assert!(flavours.into_iter().all(|w| !w.endgame_by_runs), "{}: the surveys' search", preset.name);
    }
    assert!(SPIDER.passes.iter().all(|pass| !pass.weights.suited), "Spider's moves are already suited");
    for (short, long, verdicts) in [(&SPIDER, &SPIDER_LONG, &SPIDER_VERDICTS), (&BLACK_WIDOW, &BLACK_WIDOW_LONG, &BLACK_WIDOW_VERDICTS)] {
        let without = |pass: &Pass| Pass { weights: Weights { shorter_parents: false, ..pass.weights }, ..*pass };
        // The surveys' search stays the one they ran: the hints' passes before theirs.
        assert_eq!(long.iter().map(without).collect::<Vec<_>>(), verdicts.passes, "{}", verdicts.name);
        assert_eq!(plain(&short.passes[1].weights), long[0].weights, "{} keeps its first long pass", short.name);
        assert_eq!(short.passes[0].weights.cap, SHORT_CAP, "{} starts with the short pass", short.name);
        assert!(short.passes.iter().all(|pass| pass.weights.shorter_parents), "{}", short.name);
        // Each pass a search of its own.
        for (i, a) in short.passes.iter().enumerate() {
            assert!(short.passes[i + 1..].iter().all(|b| a.weights != b.weights), "{}: pass {i} twice", short.name);
        }
    }
    let (columns, stock) = shuffled_deal(3);
    for preset in [&BLACK_WIDOW, &BLACK_WIDOW_VERDICTS] {
        let solution = solve(&columns, &stock, 0, false, &mut Budget::new(Some(2_000_000), None), preset).unwrap();
        assert_eq!(solution.outcome, Outcome::Won, "{}", preset.name);
        assert_wins_cleanly(&columns, &stock, false, &solution.line);
    }
}

#[test]
fn a_pass_stops_at_its_cap() {
    let (columns, stock) = shuffled_deal(7);
    let passes = [Pass { weights: Weights { cap: 3_000, ..WANDER }, share: 1 }, Pass { weights: WANDER, share: 1 }];
    let preset = Preset { name: "capped", passes: &passes, cap: u64::MAX, restarts: &[] };
    let mut spent = vec![];
    let solution = solve_reporting(&columns, &stock, 0, true, &mut Budget::new(Some(40_000), None), &preset, &mut |_, _, positions| {
        spent.push(positions)
    })
    .unwrap();
    assert_eq!(solution.outcome, Outcome::Unknown);
    // The capped pass stops at 3,000 of its 20,000; the last pass takes what is left.
    assert_eq!(spent, vec![3_000, 37_000]);
}

#[test]
fn a_pass_searches_the_same_whatever_ran_before_it() {
    // Each pass on a game of its own (its own columns, so its own noise): a pass after
    // others makes exactly the positions it makes alone, so a portfolio can be tuned
    // from each pass's count of positions to a win (`examples/spider_tune.rs`).
    let (columns, stock) = shuffled_deal(7);
    let noisy = Weights { noise: 8, ..SPIDER_BASE };
    let spent_by = |passes: &[Pass]| {
        let preset = Preset { name: "portfolio", passes, cap: u64::MAX, restarts: &[] };
        let mut spent = vec![];
        let solution =
            solve_reporting(&columns, &stock, 0, true, &mut Budget::new(Some(3_000_000), None), &preset, &mut |_, outcome, n| {
                spent.push((outcome, n))
            })
            .unwrap();
        (solution.outcome, spent)
    };
    let (outcome, alone) = spent_by(&[Pass { weights: noisy, share: 1 }]);
    assert_eq!(outcome, Outcome::Won);
    let first = Pass { weights: Weights { cap: 20_000, ..WANDER }, share: 1 };
    let (outcome, after) = spent_by(&[first, Pass { weights: noisy, share: 100 }]);
    assert_eq!(outcome, Outcome::Won);
    assert_eq!(after, vec![(Outcome::Unknown, 20_000), alone[0]]);
}

#[test]
fn a_pass_in_an_arena_used_before_searches_as_in_a_new_one() {
    // Passes of both kinds of seen set, large then small then large, one after another
    // in one arena: each makes the same positions and line as alone in a new arena.
    let (columns, stock) = shuffled_deal(11);
    let passes = [
        Weights { noise: 8, shorter_parents: false, cap: 150_000, ..SPIDER_BASE },
        Weights { depth: 2, cap: 5_000, ..SPIDER_BASE },
        Weights { noise: 16, cap: 120_000, ..SPIDER_BASE },
        Weights { noise: 3, shorter_parents: false, cap: 1_000, ..SPIDER_BASE },
        Weights { noise: 8, shorter_parents: false, cap: 150_000, ..SPIDER_BASE },
    ];
    let run = |arena: &mut Arena, w: &Weights| {
        let (mut game, root) = Game::new(&columns, &stock, 0, true).unwrap();
        let mut positions = 0;
        let (outcome, line) = pass_in(arena, &mut game, root, w, &mut positions, &mut Budget::new(None, None));
        (outcome, line, positions)
    };
    let mut shared = Arena::default();
    for w in passes.iter() {
        assert_eq!(run(&mut shared, w), run(&mut Arena::default(), w));
    }
}

#[test]
fn a_pass_starts_its_seen_set_at_the_size_the_pass_before_ended_with() {
    // Passes of one search make about as many positions: a set grown from small by
    // doubling would write and rehash its slots twice over.
    let (columns, stock) = shuffled_deal(20);
    let mut arena = Arena::default();
    assert_eq!(arena.seen_log2(), 16);
    let mut run = |arena: &mut Arena, cap: u32| {
        let (mut game, root) = Game::new(&columns, &stock, 0, true).unwrap();
        let mut positions = 0;
        let w = Weights { noise: 8, cap, ..SPIDER_BASE };
        let (outcome, _) = pass_in(arena, &mut game, root, &w, &mut positions, &mut Budget::new(None, None));
        (outcome, positions)
    };
    // 100,000 positions fill 2^17 slots past 70 %: the set ends at 2^18.
    assert_eq!(run(&mut arena, 100_000), (Outcome::Unknown, 100_000));
    assert_eq!(arena.seen_log2(), 18);
    // A small pass after it starts there too, and searches as in a new arena.
    assert_eq!(run(&mut arena, 1_000), run(&mut Arena::default(), 1_000));
    assert_eq!(arena.seen_log2(), 18);
}

/// Plays `line` from the deal with the engine's own rules: every move legal, no position
/// twice (in any column order once the stock is gone), a win at the end.
fn assert_wins_cleanly(columns: &[(Vec<u8>, Vec<u8>)], stock: &[u8], by_suit: bool, line: &[Move]) {
    let (mut game, mut pos) = Game::new(columns, stock, 0, by_suit).unwrap();
    let mut seen = std::collections::HashSet::new();
    seen.insert(game.key(&pos));
    for (index, &mv) in line.iter().enumerate() {
        assert!(game.legal_moves(&pos).contains(&mv), "move {index} {mv:?} is not legal");
        pos = game.apply(&pos, mv);
        assert!(seen.insert(game.key(&pos)), "move {index} comes back to a position");
    }
    assert_eq!(pos.removed, RUNS);
}

#[test]
fn lines_through_shorter_parents_are_played_in_the_right_columns() {
    // Reparenting makes the search's lines take paths it found later, some of them with
    // the columns in another order once the stock is gone: every line must still play.
    for seed in 1..=6 {
        let (columns, stock) = shuffled_deal(seed);
        for (by_suit, preset) in [(true, &SPIDER), (false, &BLACK_WIDOW)] {
            let solution = solve(&columns, &stock, 0, by_suit, &mut Budget::new(Some(1_500_000), None), preset).unwrap();
            if solution.outcome == Outcome::Won {
                assert_wins_cleanly(&columns, &stock, by_suit, &solution.line);
            }
        }
    }
}

#[test]
fn the_short_pass_makes_shorter_lines() {
    // Where the short pass wins, its line is much shorter than the other passes' would be.
    let without = Preset { name: "without the short pass", passes: &SPIDER_LONG, cap: DEFAULT_CAP, restarts: &[] };
    let mut won = 0;
    for seed in (1..=11).step_by(2) {
        let (columns, stock) = shuffled_deal(seed);
        let mut winner = None;
        let a = solve_reporting(&columns, &stock, 0, true, &mut Budget::new(Some(1_500_000), None), &SPIDER, &mut |index, outcome, _| {
            if outcome == Outcome::Won {
                winner = Some(index)
            }
        })
        .unwrap();
        let b = solve(&columns, &stock, 0, true, &mut Budget::new(Some(1_500_000), None), &without).unwrap();
        if winner == Some(0) && b.outcome == Outcome::Won {
            won += 1;
            assert!(
                a.line.len() * 10 < b.line.len() * 9,
                "deal {seed}: {} moves with the short pass, {} without",
                a.line.len(),
                b.line.len()
            );
        }
    }
    assert!(won >= 3, "the short pass won {won} deals");
}

/// `search_moves` as it read the cards, before the column infos held the run's links.
fn search_moves_from_cards(game: &Game, pos: &Pos) -> Vec<Move> {
    let mut out = vec![];
    let mut by_top_rank = [0u16; 14];
    let mut top_suit = [0u8; COLUMNS];
    let mut suited = [0u8; COLUMNS];
    let mut first_empty = None;
    for (index, &id) in pos.cols.iter().enumerate() {
        let t = game.store.info(id);
        if t.is_empty() {
            first_empty = first_empty.or(Some(index));
        } else {
            by_top_rank[rank(t.top) as usize] |= 1 << index;
            top_suit[index] = suit(t.top);
            suited[index] = t.suited;
        }
    }
    for src in 0..COLUMNS {
        let s = *game.store.info(pos.cols[src]);
        if s.is_empty() {
            continue;
        }
        let cards = game.store.cards(pos.cols[src]);
        let up = (s.len - s.down) as usize;
        for count in 1..=s.movable as usize {
            let card = cards[cards.len() - count];
            let rank_link = count < up && follows(cards[cards.len() - count - 1], card, false);
            let suited_link = rank_link && follows(cards[cards.len() - count - 1], card, true);
            let same_suit_only = suited_link || (game.lateral_prune && rank_link);
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
                if suited_link && game.grow_runs && suited[dst] as usize + count <= s.suited as usize {
                    continue;
                }
                out.push(Move { src: src as u8, dst: dst as u8, count: count as u8 });
            }
        }
    }
    if game.deals_left(pos) > 0 && first_empty.is_none() {
        out.push(Move::DEAL);
    }
    out
}

#[test]
fn the_moves_searched_are_those_the_cards_give() {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (mut positions, mut long_runs) = (0, 0);
    for seed in 0..60 {
        for by_suit in [true, false] {
            let (columns, stock) = shuffled_deal(seed);
            let (mut game, mut pos) = Game::new(&columns, &stock, 0, by_suit).unwrap();
            let mut moves = vec![];
            for _ in 0..300 {
                for (lateral, grow) in [(false, false), (false, true), (true, false), (true, true)] {
                    game.lateral_prune = lateral;
                    game.grow_runs = grow;
                    game.search_moves(&pos, &mut moves);
                    assert_eq!(moves, search_moves_from_cards(&game, &pos));
                }
                positions += 1;
                long_runs += pos.cols.iter().filter(|&&id| game.store.info(id).movable >= 3).count();
                // Mostly the searched moves (they build runs), sometimes any legal one.
                let legal = game.legal_moves(&pos);
                let choice = if next() % 4 == 0 || moves.is_empty() { legal } else { moves.clone() };
                if choice.is_empty() || pos.removed == RUNS {
                    break;
                }
                pos = game.apply(&pos, choice[(next() % choice.len() as u64) as usize]);
            }
        }
    }
    assert!(positions > 10_000 && long_runs > 1000, "{positions} positions, {long_runs} columns with runs of 3 or more");
}

#[test]
fn the_end_game_is_searched_a_level_for_each_number_of_runs_removed() {
    let (columns, stock) = shuffled_deal(4);
    let (game, root) = Game::new(&columns, &stock, 0, true).unwrap();
    let levels = game.deals_left(&root) as usize + 1 + RUNS as usize;
    let by_runs = Weights { endgame_by_runs: true, ..SPIDER_BASE };
    let end_game = Pos { dealt: 5, removed: 2, ..root };
    let before = Pos { dealt: 3, removed: 2, ..root };
    assert_eq!(level_of(&game, &by_runs, &end_game, levels), 7);
    assert_eq!(level_of(&game, &by_runs, &before, levels), 3, "by deals alone while there is stock");
    assert_eq!(level_of(&game, &SPIDER_BASE, &end_game, 6), 5, "one level for the end game without");
}

#[test]
fn a_hint_from_the_end_game_with_runs_removed_wins() {
    // Play a winning line to its last run but two: the stock is gone and runs have left.
    let (columns, stock) = shuffled_deal(1);
    let solution = solve(&columns, &stock, 0, true, &mut Budget::new(Some(2_000_000), None), &SPIDER).unwrap();
    assert_eq!(solution.outcome, Outcome::Won);
    let (mut game, mut pos) = Game::new(&columns, &stock, 0, true).unwrap();
    for &mv in &solution.line {
        if pos.removed == RUNS - 2 && game.deals_left(&pos) == 0 {
            break;
        }
        pos = game.apply(&pos, mv);
    }
    assert!(pos.removed == RUNS - 2 && game.deals_left(&pos) == 0);
    let here: Vec<(Vec<u8>, Vec<u8>)> = pos
        .cols
        .iter()
        .map(|&id| {
            let (cards, down) = (game.store.cards(id), game.store.info(id).down as usize);
            (cards[..down].to_vec(), cards[down..].to_vec())
        })
        .collect();
    let rest = solve(&here, &[], pos.removed, true, &mut Budget::new(Some(1_000_000), None), &SPIDER).unwrap();
    assert_eq!(rest.outcome, Outcome::Won);
    let (mut game, mut at) = Game::new(&here, &[], pos.removed, true).unwrap();
    for &mv in &rest.line {
        assert!(game.legal_moves(&at).contains(&mv), "{mv:?} is not legal");
        at = game.apply(&at, mv);
    }
    assert_eq!(at.removed, RUNS);
}
