//! The Spider family (Black Widow, Spider 1/2/4 suits): a best-first search with the
//! whole deal known.
//!
//! Positions are ten references to immutable columns plus the number of deals made and
//! of runs removed (the KPatience layout): each distinct column (face-down count and
//! cards, one byte a card) is stored once in a [`Store`] and shared by every position
//! that holds it, so a position is 48 bytes and a child differs from its parent in two
//! references (ten after a deal). Each column carries the figures the search needs
//! (movable run, top card, breaks in its face-up cards), computed once when it is first
//! seen.
//!
//! The search is best-first on a "chaos" score (face-down cards, rank breaks and suit
//! breaks between face-up cards, minus empty columns, King-based columns and removed
//! runs, plus a cost per move), newest position first among equals, with a set of
//! positions already seen (64-bit keys; the columns' order is ignored once the stock is
//! gone, since no deal can tell them apart). Each stock level (deals made) has its own
//! queue and the levels take turns, each for a quota of new positions: the search never
//! sinks its budget into one level, and a deal from any position of a level competes in
//! the next level's queue by the score of the cards it actually lays down. The hints'
//! passes also split the end game (no stock left) into a level for each number of runs
//! removed ([`Weights::endgame_by_runs`]), so that it is not all spent on the lines that
//! removed a run first.
//!
//! Moves are the rules' single moves less those that never pay: a run on a card of its
//! own suit one rank higher moves only onto such a card; a run on a card one rank higher
//! of another suit moves only onto a card of its own suit or into an empty column (a
//! "lateral" move to another suit changes nothing that counts); all empty columns are one
//! destination; a whole column never moves into an empty one. Completed runs leave and
//! exposed cards turn inside `apply`, as in the rules.
//!
//! A search is a portfolio of passes with different weights, run in turn from the root
//! (the presets [`SPIDER`] and [`BLACK_WIDOW`]): each proves deals the others miss, and
//! a fresh pass cuts the long tail of a single search. The first, short pass costs more
//! per move and stops early ([`SHORT_CAP`]): where it wins, the line is short from the
//! search itself. A position met again by a shorter path takes that path's parent (the
//! seen positions keep their nodes: `seen.rs`). Every pass gets its share of the
//! caller's positions *and* of the time left ([`Budget::pass`]), so a time-only budget
//! gives every pass its turn; with no node limit the passes share the preset's `cap`.
//! Each pass runs on a game of its own (its own column store, so its own noise): it
//! searches the same whatever ran before it, and a portfolio can be tuned from each
//! pass's count of positions to a win. A time budget left over goes to restarts, the
//! preset's own flavours of the search ([`SPIDER_RESTARTS`]) or its long passes again.
//! The pruning makes the search incomplete, so an exhausted search answers "unknown",
//! never "lost", except for a position with no legal move at all. Counted positions are
//! the distinct positions generated, over all passes.
//!
//! Presets are tuned with `examples/spider_tune.rs`, which reads passes from its command
//! line; nothing in the engine reads the environment.
//!
//! The parts: `position.rs` (cards, the shared column store, positions and their moves),
//! `prunes.rs` (the moves the search tries), `presets.rs` (weights and passes),
//! `search.rs` (the best-first passes), `shorten.rs` (the adaptor for [`crate::shorten`]),
//! `seen.rs` (the positions a pass has seen and their nodes), `tests.rs`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::search::Budget;

mod exhaust;
mod position;
mod presets;
mod prunes;
mod search;
mod seen;
pub mod shorten;
#[cfg(test)]
mod tests;

pub use exhaust::*;
pub use position::*;
pub use presets::*;
pub use search::*;

pub const COLUMNS: usize = 10;
const RUN: usize = 13;
const RUNS: u8 = 8;
/// `Move::src` of a deal from the stock.
pub const DEAL: u8 = 255;

type PyColumns = Vec<(Vec<u8>, Vec<u8>)>;
/// Moves as Python sees them: `(source, target, count)`.
type PyLine = Vec<(u8, u8, u8)>;

fn to_tuple(mv: Move) -> (u8, u8, u8) {
    (mv.src, mv.dst, mv.count)
}

// The pyo3 signature below states memory_mb's default as a number, so that Python sees
// it (tests/project/test_types.py compares it with the stub): it is DEFAULT_MEMORY_MB.
const _: () = assert!(DEFAULT_MEMORY_MB == 1024);

/// Solve a Spider-family position with the whole deal known. `max_seconds` is CPU time
/// of the searching thread (see [`Budget`]). `columns`: (face-down,
/// face-up) card indices deepest first; `stock`: cards in dealing order; `by_suit`:
/// Spider (true) or Black Widow (false). Returns `(verdict, moves, positions)` with moves
/// as `(source, target, count)`, 0-based, and `(255, 255, 0)` for a deal.
///
/// The search starts with the short pass (`short_pass`, see [`SHORT_CAP`]), whose wins
/// have short lines; `short_pass=False` searches as for a verdict alone (a survey:
/// [`SPIDER_VERDICTS`]). A winning line is shortened (`shorten`: no position twice,
/// shortcuts) within what the time budget leaves; `shorten=False` returns the search's
/// own line. `memory_mb` bounds what a pass holds ([`solve_bounded`]); with a time
/// budget and no node limit the search spends the whole time (restarts: [`solve_bounded`]).
#[pyfunction]
#[pyo3(signature = (columns, stock, removed, by_suit, max_nodes=None, max_seconds=None, shorten=true, shorten_depth=2, shorten_tries=None, short_pass=true, memory_mb=1024))]
#[allow(clippy::too_many_arguments)]
fn spider_solve(
    py: Python<'_>,
    columns: PyColumns,
    stock: Vec<u8>,
    removed: u8,
    by_suit: bool,
    max_nodes: Option<u64>,
    max_seconds: Option<f64>,
    shorten: bool,
    shorten_depth: u8,
    shorten_tries: Option<u64>,
    short_pass: bool,
    memory_mb: u64,
) -> PyResult<(&'static str, PyLine, u64)> {
    let solution = py
        .allow_threads(|| {
            let mut budget = Budget::new(max_nodes, max_seconds);
            let mut solution =
                solve_bounded(&columns, &stock, removed, by_suit, &mut budget, preset(by_suit, short_pass), memory_mb, &mut |_, _, _| {})?;
            // The shortening counts wall time (`crate::shorten`): it gets the CPU
            // seconds the search left, from now.
            let deadline = budget.seconds_left().map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s));
            if shorten {
                let limits = shorten::limits(deadline, shorten_depth, shorten_tries, by_suit, solution.positions);
                shorten::shorten_solution(&columns, &stock, removed, by_suit, &mut solution, &limits);
            }
            Ok::<_, String>(solution)
        })
        .map_err(PyValueError::new_err)?;
    Ok((solution.outcome.as_str(), solution.line.into_iter().map(to_tuple).collect(), solution.positions))
}

/// Shorten a winning line (moves as `spider_solve` returns them) from a position:
/// `(moves, positions tried)`. For benchmarks: `spider_solve` does this itself.
/// `searched`: the positions the search made (what the end-game research's budget is a
/// share of, as in `spider_solve`); `research` sets that budget instead.
#[pyfunction]
#[pyo3(signature = (columns, stock, removed, by_suit, line, max_seconds=None, depth=2, tries=None, research=None, research_weight=None, searched=0))]
#[allow(clippy::too_many_arguments)]
fn spider_shorten(
    py: Python<'_>,
    columns: PyColumns,
    stock: Vec<u8>,
    removed: u8,
    by_suit: bool,
    line: Vec<(u8, u8, u8)>,
    max_seconds: Option<f64>,
    depth: u8,
    tries: Option<u64>,
    research: Option<u64>,
    research_weight: Option<u8>,
    searched: u64,
) -> PyResult<(PyLine, u64)> {
    let deadline = max_seconds.map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s.max(0.0)));
    let moves: Vec<Move> = line.into_iter().map(|(src, dst, count)| Move { src, dst, count }).collect();
    let mut limits = shorten::limits(deadline, depth, tries, by_suit, searched);
    limits.research = research.unwrap_or(limits.research);
    limits.research_depth = research_weight.unwrap_or(limits.research_depth);
    let (out, stats) =
        py.allow_threads(|| shorten::shorten(&columns, &stock, removed, by_suit, &moves, &limits)).map_err(PyValueError::new_err)?;
    Ok((out.into_iter().map(to_tuple).collect(), stats.tries))
}

/// Proof of loss: walk every position reachable from this one by the rules' moves
/// ([`exhaust`]), holding at most about `memory_mb` megabytes; `max_seconds` (CPU) may
/// bound it. Returns `(verdict, positions, checksum, frontier)`: "lost" only when the
/// whole canonical space was walked without a win; `positions` distinct canonical
/// positions (the root included), `checksum` the wrapping sum of their digests (a
/// function of the cards alone: see [`digest`]), `frontier` the most waiting at once.
#[pyfunction]
#[pyo3(signature = (columns, stock, removed, by_suit, memory_mb=1024, max_seconds=None))]
fn spider_exhaust(
    py: Python<'_>,
    columns: PyColumns,
    stock: Vec<u8>,
    removed: u8,
    by_suit: bool,
    memory_mb: u64,
    max_seconds: Option<f64>,
) -> PyResult<(&'static str, u64, u64, u64)> {
    let out = py
        .allow_threads(|| exhaust(&columns, &stock, removed, by_suit, memory_mb, &mut Budget::new(None, max_seconds)))
        .map_err(PyValueError::new_err)?;
    Ok((out.outcome.as_str(), out.positions, out.checksum, out.frontier))
}

/// Every legal move of a position, by the engine's own move generator.
#[pyfunction]
fn spider_legal_moves(columns: PyColumns, stock: Vec<u8>, by_suit: bool) -> PyResult<Vec<(u8, u8, u8)>> {
    let removed = ((104 - stock.len() - columns.iter().map(|(d, u)| d.len() + u.len()).sum::<usize>()) / RUN) as u8;
    let (game, root) = Game::new(&columns, &stock, removed, by_suit).map_err(PyValueError::new_err)?;
    Ok(game.legal_moves(&root).into_iter().map(to_tuple).collect())
}

/// The engine's result of one move: `(columns, stock left, runs removed)`.
#[pyfunction]
fn spider_apply(columns: PyColumns, stock: Vec<u8>, by_suit: bool, mv: (u8, u8, u8)) -> PyResult<(PyColumns, Vec<u8>, u8)> {
    let removed = ((104 - stock.len() - columns.iter().map(|(d, u)| d.len() + u.len()).sum::<usize>()) / RUN) as u8;
    let (mut game, root) = Game::new(&columns, &stock, removed, by_suit).map_err(PyValueError::new_err)?;
    let mv = Move { src: mv.0, dst: mv.1, count: mv.2 };
    if !game.legal_moves(&root).contains(&mv) {
        return Err(PyValueError::new_err("illegal move"));
    }
    let next = game.apply(&root, mv);
    let out = next
        .cols
        .iter()
        .map(|&id| {
            let info = game.store.info(id);
            let cards = game.store.cards(id);
            (cards[..info.down as usize].to_vec(), cards[info.down as usize..].to_vec())
        })
        .collect();
    Ok((out, stock[next.dealt as usize * COLUMNS..].to_vec(), next.removed))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(spider_solve, m)?)?;
    m.add_function(wrap_pyfunction!(spider_shorten, m)?)?;
    m.add_function(wrap_pyfunction!(spider_exhaust, m)?)?;
    m.add_function(wrap_pyfunction!(spider_legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(spider_apply, m)?)?;
    Ok(())
}
