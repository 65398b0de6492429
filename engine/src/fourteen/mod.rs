//! Fourteen Out: an exact depth-first search over the twelve pile heights.
//!
//! Every card is face up, so a position is only how many cards each pile still holds:
//! twelve heights of three bits, 36 bits in a `u64`, kept in an open-addressing set of
//! the positions already searched (all of them lost, or the search would have
//! stopped). The search is exact, so `lost` is a proof; see [`position`] for the
//! two exact prunes (a pairing must exist for every value; pairs whose cards are all
//! available are played at once) and [`search`] for the search itself.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::search::Budget;

pub mod position;
pub mod search;
#[cfg(test)]
mod tests;

pub use position::{Layout, PILES};
pub use search::{Preset, EXACT};

/// Solve a Fourteen Out position. `piles`: card indices (suit * 13 + rank - 1), bottom
/// first, twelve piles. Returns `(verdict, the winning line as pile indices two by two,
/// positions)`.
#[pyfunction]
#[pyo3(signature = (piles, max_nodes=None, max_seconds=None))]
fn fourteen_solve(
    py: Python<'_>,
    piles: Vec<Vec<u8>>,
    max_nodes: Option<u64>,
    max_seconds: Option<f64>,
) -> PyResult<(&'static str, Vec<u8>, u64)> {
    let layout = Layout::new(&piles).map_err(PyValueError::new_err)?;
    let solution = py.allow_threads(|| layout.solve(&Budget::new(max_nodes, max_seconds), &EXACT));
    let line = solution.line.iter().flat_map(|&(p, q)| [p, q]).collect();
    Ok((solution.outcome.as_str(), line, solution.positions))
}

/// The pairs of piles (0-based, lower first) whose top cards make 14, in the engine's
/// order, as the search generates them before its prunes: for tests against the rules.
#[pyfunction]
fn fourteen_moves(piles: Vec<Vec<u8>>) -> PyResult<Vec<(u8, u8)>> {
    let layout = Layout::new(&piles).map_err(PyValueError::new_err)?;
    Ok(layout.moves(layout.root()).into_iter().map(|(p, q)| (p.min(q), p.max(q))).collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(fourteen_solve, m)?)?;
    m.add_function(wrap_pyfunction!(fourteen_moves, m)?)?;
    Ok(())
}
