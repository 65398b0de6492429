//! Winnable's engine: compact positions, move generation and search for every game.
//!
//! Each game family lives in its own module and registers its Python-facing
//! functions in `_engine`. The Python package (`winnable`) is the judge of the rules:
//! every line the engine returns is replayed there before anyone sees it.

use pyo3::prelude::*;

pub mod blackhole;
pub mod fourteen;
pub mod freecell;
pub mod hashset;
pub mod search;
pub mod shorten;
pub mod spider;

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    blackhole::register(m)?;
    fourteen::register(m)?;
    freecell::register(m)?;
    spider::register(m)?;
    Ok(())
}
