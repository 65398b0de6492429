use super::meta::{Children, Generator, Kind};
use super::position::splitmix;
use super::*;
use std::borrow::Cow;

fn freecell() -> Rules {
    Rules::new(8, 4, Build::Alternate, Wrap::None, EmptyColumn::Any, Runs::Supermove, false, 1).unwrap()
}

fn shuffled_columns(seed: u64, columns: usize) -> Vec<Vec<u8>> {
    let mut deck: Vec<u8> = (0..52).collect();
    let mut seed = seed;
    for i in (1..52).rev() {
        let j = (splitmix(&mut seed) % (i as u64 + 1)) as usize;
        deck.swap(i, j);
    }
    (0..columns).map(|c| deck.iter().skip(c).step_by(columns).copied().collect()).collect()
}

#[test]
fn key_ignores_column_and_cell_order_but_not_contents() {
    let rules = Rules::new(8, 2, Build::Suit, Wrap::None, EmptyColumn::Any, Runs::Supermove, false, 1).unwrap();
    let game = Game::new(rules);
    let mut rest: Vec<u8> = (0..52).collect();
    rest.retain(|c| ![0, 1, 2, 3, 14, 15].contains(c));
    let rest: Vec<Vec<u8>> = rest.chunks(8).map(|c| c.to_vec()).collect(); // six columns
    let layout = |first: Vec<u8>, second: Vec<u8>, turned: bool| {
        let mut columns = vec![first, second];
        columns.extend(rest.iter().cloned());
        if turned {
            columns.reverse();
        }
        columns
    };
    let a = game.position(&layout(vec![0, 1], vec![2, 3], false), &[14, 15], &[0, 0, 0, 0]).unwrap().key;
    let b = game.position(&layout(vec![2, 3], vec![0, 1], true), &[15, 14], &[0, 0, 0, 0]).unwrap().key;
    let c = game.position(&layout(vec![0, 3], vec![2, 1], false), &[14, 15], &[0, 0, 0, 0]).unwrap().key;
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn a_column_has_room_for_its_cards_and_the_run_on_them() {
    // 19 cards and a run of 13 fit; a 20th card does not (an error, not a panic later).
    let game = Game::new(freecell());
    let mut deck: Vec<u8> = (0..52).collect();
    let tall: Vec<u8> = deck.drain(..19).collect();
    let mut columns = vec![tall];
    columns.extend(deck.chunks(5).map(|c| c.to_vec()));
    assert!(game.position(&columns, &[NO_CARD; 4], &[0; 4]).is_ok());
    let card = columns[1].remove(0);
    columns[0].push(card);
    assert!(game.position(&columns, &[NO_CARD; 4], &[0; 4]).unwrap_err().contains("too tall"));
    // Alternate colours wrapping round: runs as long as the deck, no column has room.
    let wrapping = Game::new(Rules::new(8, 4, Build::Alternate, Wrap::Full, EmptyColumn::Any, Runs::Supermove, false, 1).unwrap());
    let short: Vec<Vec<u8>> = (0..52u8).collect::<Vec<_>>().chunks(7).map(|c| c.to_vec()).collect();
    assert!(wrapping.position(&short, &[NO_CARD; 4], &[0; 4]).unwrap_err().contains("too tall"));
}

#[test]
fn positions_must_hold_every_card_once() {
    let game = Game::new(freecell());
    let mut columns = shuffled_columns(3, 8);
    assert!(game.position(&columns, &[NO_CARD; 4], &[0; 4]).is_ok());
    columns[0].pop();
    assert!(game.position(&columns, &[NO_CARD; 4], &[0; 4]).unwrap_err().contains("52"));
    let twice = columns[1][0];
    columns[0].push(twice);
    assert!(game.position(&columns, &[NO_CARD; 4], &[0; 4]).unwrap_err().contains("repeated"));
}

#[test]
fn undo_restores_every_position_of_a_random_walk() {
    let game = Game::new(freecell());
    let mut seed = 99u64;
    let mut s = game.position(&shuffled_columns(99, 8), &[NO_CARD; 4], &[0; 4]).unwrap();
    let mut moves = Vec::new();
    for _ in 0..400 {
        game.moves(&s, &mut moves);
        if moves.is_empty() {
            break;
        }
        let before = s.clone();
        for &m in moves.iter() {
            let played = game.play(&mut s, m);
            game.undo(&mut s, played);
            assert_eq!(s.key, before.key);
            assert_eq!(s.len, before.len);
            assert_eq!(s.cells, before.cells);
            assert_eq!(s.found, before.found);
            assert_run_starts(&game, &s);
        }
        let pick = moves[(splitmix(&mut seed) % moves.len() as u64) as usize];
        game.play(&mut s, pick);
        let (cols, cells) = game.layout(&s);
        let fresh = game.position(&cols, &cells, &s.found).unwrap();
        assert_eq!(fresh.key, s.key);
        assert_run_starts(&game, &s);
        assert_eq!((game.free_cells(&s), game.empty_columns(&s)), (game.free_cells(&fresh), game.empty_columns(&fresh)));
        for card in 0..52u8 {
            let at = s.place[card as usize];
            if (at as usize) < 8 {
                assert_eq!(s.cols[at as usize][s.height[card as usize] as usize], card);
            }
        }
    }
}

/// Each column's run starts, kept by every move, are those its cards make.
fn assert_run_starts(game: &Game, s: &Position) {
    for i in 0..game.rules.columns {
        let c = &s.cols[i];
        for h in 0..s.len[i] as usize {
            let starts = h == 0 || !game.rules.builds_on(c[h], c[h - 1]);
            assert_eq!((s.starts[i] >> h) & 1 == 1, starts, "column {i} height {h}");
        }
    }
}

/// Whether `m` (as played) is one of the atomic moves the rules allow in `s`.
fn is_legal(game: &Game, s: &Position, m: Move) -> bool {
    let mut moves = Vec::new();
    game.moves(s, &mut moves);
    let wanted_dst = if (8..16).contains(&m.dst) { ANY_CELL } else { m.dst };
    let empty = |d: u8| d < 8 && s.len[d as usize] == 0;
    moves.iter().any(|o| o.src == m.src && o.count == m.count && (o.dst == wanted_dst || (empty(o.dst) && empty(m.dst))))
}

fn every_meta_move_is_made_of_legal_moves(rules: Rules, seeds: std::ops::Range<u64>) {
    let game = Game::new(rules);
    let kinds = "012346789jc".chars().map(|c| Kind::from_char(c).unwrap()).collect::<Vec<_>>();
    let mut generator = Generator::new(&game);
    let mut children = Children::default();
    let mut all = Vec::new();
    for seed in seeds {
        let mut rng = seed;
        let columns = shuffled_columns(seed, game.rules.columns);
        let mut s = game.position(&columns, &vec![NO_CARD; game.rules.cells], &[0; 4]).unwrap();
        game.auto_play(&mut s, &mut Vec::new()); // as every search starts
        for _ in 0..150 {
            children.clear();
            for &kind in &kinds {
                generator.generate(&mut s, kind, &mut children, &mut |_| true, None, 0, usize::MAX, false);
            }
            if children.list.is_empty() {
                break;
            }
            for child in children.list.iter() {
                // Replay as the Python rules do: an uncovered beak goes home at once
                // (where the rules move it), and the engine's own move of it is a no-op.
                let mut t = s.clone();
                for &m in children.line(child) {
                    let beak_home = m.dst == FOUNDATION && m.src < 8 && game.rules.auto_beak && game.rules.shifted[m.card as usize] == 0;
                    if beak_home && t.place[m.card as usize] == position::HOME {
                        continue;
                    }
                    assert!(
                        is_legal(&game, &t, m),
                        "illegal {} in a meta-move {:?} from {:?} (now {:?})",
                        m.notation(),
                        children.line(child).iter().map(|m| m.notation()).collect::<Vec<_>>(),
                        game.layout(&s),
                        game.layout(&t)
                    );
                    game.play(&mut t, m);
                    for i in 0..game.rules.columns {
                        let top = t.top(i);
                        if top != NO_CARD && game.pending_beak(&t, top) {
                            game.play(&mut t, mv(i as u8, FOUNDATION, 1));
                        }
                    }
                }
                assert_eq!(t.key, child.key);
            }
            let pick = children.list[(splitmix(&mut rng) % children.list.len() as u64) as usize];
            all.clear();
            all.extend_from_slice(children.line(&pick));
            for &m in &all {
                game.play(&mut s, m);
            }
        }
    }
}

#[test]
fn meta_moves_are_legal_in_freecell() {
    every_meta_move_is_made_of_legal_moves(freecell(), 0..40);
}

#[test]
fn meta_moves_are_legal_in_eight_off_and_penguin() {
    every_meta_move_is_made_of_legal_moves(
        Rules::new(8, 8, Build::Suit, Wrap::None, EmptyColumn::BelowBase, Runs::Cells, false, 1).unwrap(),
        0..20,
    );
    every_meta_move_is_made_of_legal_moves(
        Rules::new(7, 7, Build::Suit, Wrap::Restricted, EmptyColumn::BelowBase, Runs::Supermove, true, 5).unwrap(),
        0..20,
    );
    every_meta_move_is_made_of_legal_moves(
        Rules::new(7, 7, Build::Suit, Wrap::Full, EmptyColumn::BelowBase, Runs::Unlimited, false, 9).unwrap(),
        0..20,
    );
    every_meta_move_is_made_of_legal_moves(
        Rules::new(7, 3, Build::Suit, Wrap::Restricted, EmptyColumn::Any, Runs::Supermove, true, 1).unwrap(),
        0..20,
    );
}

#[test]
fn eight_off_runs_are_limited_by_cells_alone() {
    let rules = Rules::new(8, 8, Build::Suit, Wrap::None, EmptyColumn::BelowBase, Runs::Cells, false, 1).unwrap();
    assert_eq!(rules.run_limit(2, 3, false), 3);
    let freecell = freecell();
    assert_eq!(freecell.run_limit(2, 3, false), 24);
    assert_eq!(freecell.run_limit(2, 3, true), 12);
}

#[test]
fn horne_safe_moves_need_the_cards_that_could_go_on_them_home_or_playable() {
    let game = Game::new(freecell());
    let mut s = game.position(&shuffled_columns(5, 8), &[NO_CARD; 4], &[0; 4]).unwrap();
    // The 5 of hearts (card 2 * 13 + 4): black 3s home, the other red suit's 2 home.
    s.found = [3, 2, 4, 3];
    assert!(game.safe(&s, 2 * 13 + 4));
    s.found = [2, 2, 4, 3]; // the 3 of clubs is not home: the 4 of clubs may want the 5
    assert!(!game.safe(&s, 2 * 13 + 4));
    s.found = [3, 1, 4, 3]; // the 2 of diamonds is not home
    assert!(!game.safe(&s, 2 * 13 + 4));
}

fn solve_freecell_deal(columns: Vec<Vec<u8>>, preset: &str) -> Solution<Move> {
    let solver = Solver::new(freecell(), Cow::Borrowed(presets::named(preset).unwrap()));
    let root = solver.game.position(&columns, &[NO_CARD; 4], &[0; 4]).unwrap();
    let solution = solver.solve(&root, &mut Budget::unlimited());
    if solution.outcome == Outcome::Won {
        let mut s = root.clone();
        for &m in &solution.line {
            assert!(is_legal(&solver.game, &s, m));
            solver.game.play(&mut s, m);
        }
        assert!(s.is_won());
    }
    solution
}

#[test]
fn soft_threads_win_shuffled_deals_with_legal_lines() {
    for seed in 0..20 {
        let solution = solve_freecell_deal(shuffled_columns(seed, 8), "default");
        assert_eq!(solution.outcome, Outcome::Won, "seed {seed}");
    }
}

#[test]
fn a_budget_too_small_gives_unknown() {
    let solver = Solver::new(freecell(), Cow::Borrowed(presets::named("default").unwrap()));
    let root = solver.game.position(&shuffled_columns(7, 8), &[NO_CARD; 4], &[0; 4]).unwrap();
    let solution = solver.solve(&root, &mut Budget::new(Some(5), None));
    assert_eq!(solution.outcome, Outcome::Unknown);
    assert!(solution.positions < 200);
}

#[test]
fn a_stuck_position_is_proved_lost() {
    // Penguin without cells, base Ace, every column blocked.
    let rules = Rules::new(7, 0, Build::Suit, Wrap::Restricted, EmptyColumn::BelowBase, Runs::Supermove, true, 1).unwrap();
    let solver = Solver::new(rules, Cow::Borrowed(presets::named("default").unwrap()));
    let c = |rank: u8| rank - 1; // clubs
    let d = |rank: u8| 13 + rank - 1;
    let columns = vec![
        vec![c(1), c(2)],
        vec![c(13), c(3), c(4)],
        vec![c(5), c(6)],
        vec![c(7), c(8)],
        vec![c(9), c(10)],
        vec![c(11), c(12)],
        vec![d(12), d(13)],
    ];
    let found = [0, 11, 13, 13];
    let root = solver.game.position(&columns, &[], &found).unwrap();
    assert_eq!(solver.solve(&root, &mut Budget::unlimited()).outcome, Outcome::Lost);
}

#[test]
fn resumed_generation_makes_the_same_children_as_one_go() {
    let game = Game::new(freecell());
    let mut generator = Generator::new(&game);
    let mut s = game.position(&shuffled_columns(11, 8), &[NO_CARD; 4], &[0; 4]).unwrap();
    game.auto_play(&mut s, &mut Vec::new());
    let mut moves = Vec::new();
    let mut rng = 5u64;
    for _ in 0..60 {
        for c in "012346789jc".chars() {
            let kind = Kind::from_char(c).unwrap();
            let mut all = Children::default();
            generator.generate(&mut s, kind, &mut all, &mut |_| true, None, 0, usize::MAX, false);
            let mut keys = Vec::new();
            let mut skip = 0;
            loop {
                let mut one = Children::default();
                let (_, resume) = generator.generate(&mut s, kind, &mut one, &mut |_| true, None, skip, 1, false);
                keys.extend(one.list.iter().map(|c| c.key));
                match resume {
                    Some(next) => skip = next,
                    None => break,
                }
            }
            assert_eq!(keys, all.list.iter().map(|c| c.key).collect::<Vec<_>>());
        }
        game.moves(&s, &mut moves);
        if moves.is_empty() {
            break;
        }
        let pick = moves[(splitmix(&mut rng) % moves.len() as u64) as usize];
        game.play(&mut s, pick);
        game.auto_play(&mut s, &mut Vec::new());
    }
}
