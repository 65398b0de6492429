//! Black Hole: an exact depth-first search over (pile heights, foundation rank).
//!
//! A position is 17 pile heights of two bits and the foundation's rank in four bits:
//! 38 bits in a `u64`, kept in an open-addressing set. Three exact prunes keep every
//! verdict right while cutting most of the space:
//!
//! * **rank walk**: the cards left must be playable as one walk of +-1 steps around the
//!   13-rank circle from the foundation's rank, using each remaining rank exactly as
//!   often as it is on the table. That is an Euler-trail condition on the rank cycle
//!   (edge multiplicities solved in closed form on the odd cycle, then connectivity);
//! * **last card**: the walk must end on the rank of some pile's bottom card, since the
//!   last card played empties its pile;
//! * **interchangeable piles**: piles whose remaining cards have the same ranks in the
//!   same order are the same for the rest of the game, so each such set of positions is
//!   searched once (heights put in a canonical order);
//! * **the piles' order**: edges of the rank circle that the walk crosses once cut the
//!   game into segments played in turn (edges crossed twice, into excursions), so a pile
//!   holding a card of a later segment above one of an earlier segment, or a segment
//!   that cannot open and close on free cards, ends the search
//!   ([`Layout::segments_fit`]).
//!
//! Dominated moves are not tried: a pile whose cards, top down, have the ranks of the
//! top of another playable pile is played after that pile (swap the two in any winning
//! line). Moves are tried tallest pile first; restarts (see [`Preset`]) change the ties.
//!
//! The parts: `position.rs` (the layout, packed positions and their moves), `prunes.rs`
//! (the rank walk, the last card and the piles' order), `search.rs` (the depth-first
//! pass and its restarts), `tests.rs`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod position;
mod prunes;
mod search;
#[cfg(test)]
mod tests;

use crate::search::Budget;
use position::with_height;

pub use position::Layout;
pub use prunes::{walk_possible, Walk};

pub const PILES: usize = 17;
const RANKS: usize = 13;
const FULL: u32 = (1 << RANKS) - 1;
const RANK_SHIFT: u32 = 34;
/// The low bit of every pile's two-bit height.
const SPREAD: u64 = 0x1_5555_5555;
/// The search's schedule: one exact depth-first pass over a shared table of positions,
/// restarted with another move order after `first_run` positions, the limit growing by
/// `growth.0 / growth.1` at each restart (only the current path is searched again, so
/// the pass stays complete and a `lost` verdict is a proof). With no node limit from
/// the caller the pass stops after `cap` positions (verdict `unknown`).
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub name: &'static str,
    pub first_run: u64,
    pub growth: (u64, u64),
    pub cap: u64,
}

/// The exact search, restarted often with fresh tie-breaks (the first run 150 positions,
/// each next one 9/8 of the last), which finds wins sooner than one long run. The cap
/// keeps a pass finite, far above any deal's search; at the cap the table holds about
/// 1 GB. How these were fitted, with the figures: `docs/tuning.md`.
pub const EXACT: Preset = Preset { name: "exact", first_run: 150, growth: (9, 8), cap: 60_000_000 };

/// Solve a Black Hole position. `piles`: card indices bottom first; `foundation_rank`:
/// 1 (Ace) to 13 (King). Returns `(verdict, pile indices of the winning line, positions)`.
#[pyfunction]
#[pyo3(signature = (piles, foundation_rank, max_nodes=None, max_seconds=None))]
fn black_hole_solve(
    py: Python<'_>,
    piles: Vec<Vec<u8>>,
    foundation_rank: u8,
    max_nodes: Option<u64>,
    max_seconds: Option<f64>,
) -> PyResult<(&'static str, Vec<u8>, u64)> {
    let layout = Layout::new(&piles, foundation_rank).map_err(PyValueError::new_err)?;
    let solution = py.allow_threads(|| layout.solve(&mut Budget::new(max_nodes, max_seconds)));
    Ok((solution.outcome.as_str(), solution.line, solution.positions))
}

/// The piles (0-based) whose top card can go on the foundation, in the engine's order
/// (tallest pile first, then the last pile first): for tests against the Python rules.
#[pyfunction]
fn black_hole_moves(piles: Vec<Vec<u8>>, foundation_rank: u8) -> PyResult<Vec<u8>> {
    let layout = Layout::new(&piles, foundation_rank).map_err(PyValueError::new_err)?;
    let mut state = (layout.foundation as u64) << RANK_SHIFT;
    for p in 0..PILES {
        state = with_height(state, p, layout.heights[p] as usize);
    }
    let mut out = [0u8; PILES];
    let n = layout.moves_with(state, 0, false, &mut out);
    Ok(out[..n].to_vec())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(black_hole_solve, m)?)?;
    m.add_function(wrap_pyfunction!(black_hole_moves, m)?)?;
    Ok(())
}
