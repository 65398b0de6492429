//! The free-cell family (Penguin and its variants, FreeCell, Eight Off, Baker's Game):
//! one solver for every preset of the rules.
//!
//! - `rules`: a preset's rules (`FreeCellRules` on the Python side) and their tables.
//! - `position`: compact positions searched in place, with a 128-bit key that ignores
//!   the order of columns and of cells; atomic moves, the safe moves home.
//! - `meta`: meta-moves (a goal reached by a few atomic moves, fc-solve's idea).
//! - `soft`: soft threads, depth-first scans over meta-moves with their own move
//!   orders, run in turn over small quotas: they find most wins in a few hundred
//!   positions.
//! - `exact`: best-first and depth-first searches over every atomic move, which prove
//!   a loss by exhausting the positions.
//! - `presets`: the portfolios of passes, as data.
//!
//! A solve runs its preset's passes in turn, each with its share of the caller's
//! budget (`search::Budget::pass`); the first win or proved loss ends it. The line
//! returned names real columns and cells, in the Python move notation (`3a`, `a5`,
//! `2o`, `48x3`); Python replays it before anyone trusts it.

pub mod exact;
pub mod meta;
pub mod position;
pub mod presets;
pub mod rules;
pub mod shorten;
pub mod soft;

use std::borrow::Cow;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

pub use position::{mv, Game, Move, Position, ANY_CELL, FOUNDATION};
pub use presets::{Kind as PassKind, Preset};
pub use rules::{Build, EmptyColumn, Rules, Runs, Wrap, NO_CARD};

use crate::search::{Budget, Outcome, Solution};
use meta::Generator;
use soft::{Scan, Turn};

/// A preset's rules and one search preset: solves positions.
pub struct Solver {
    pub game: Game,
    pub preset: Cow<'static, Preset>,
}

impl Solver {
    pub fn new(rules: Rules, preset: Cow<'static, Preset>) -> Solver {
        Solver { game: Game::new(rules), preset }
    }

    /// Run the preset's passes in turn, each with its share of `budget`.
    pub fn solve(&self, root: &Position, budget: &mut Budget) -> Solution<Move> {
        let passes = &self.preset.passes;
        let mut searched = 0u64;
        let mut result = Solution::unknown(0);
        for (k, pass) in passes.iter().enumerate() {
            let weight_left: u64 = passes[k..].iter().map(|p| p.weight).sum();
            let mut share = budget.pass(searched, pass.weight, weight_left, pass.cap);
            result = match &pass.kind {
                PassKind::Soft(spec) => soft_threads(&self.game, root, &mut share, searched, spec),
                PassKind::Quick { weights } => exact::best_first(&self.game, root, &mut share, searched, weights, true),
                PassKind::Best { weights } => exact::best_first(&self.game, root, &mut share, searched, weights, false),
                PassKind::Depth { weights } => exact::depth_first(&self.game, root, &mut share, searched, weights),
            };
            searched = result.positions;
            if result.outcome != Outcome::Unknown || budget.exhausted(searched) {
                return result;
            }
        }
        result
    }
}

/// One member of a soft-thread portfolio, made at its first turn (most deals are won
/// before the later scans start).
enum Member<'a> {
    Meta(Option<Box<Scan<'a>>>),
    Exact(Option<Box<exact::BestFirst>>),
}

impl Member<'_> {
    fn searching(&self) -> bool {
        !matches!(self, Member::Meta(Some(scan)) if scan.exhausted)
    }
}

/// Soft threads over meta-moves: scans in turn, first the prelude's quotas, then
/// `step` positions each (the exact search, if any, `share` times that), until a win,
/// a loss the exact search proves, every scan out of meta-moves (with no exact search:
/// unknown), or the end of the budget.
pub fn soft_threads(game: &Game, root: &Position, budget: &mut Budget, already: u64, spec: &presets::SoftSpec) -> Solution<Move> {
    let mut start = root.clone();
    let mut opening = Vec::new();
    game.auto_play(&mut start, &mut opening);
    let mut positions = already + 1;
    if start.is_won() {
        return Solution::won(opening, positions);
    }
    let mut members: Vec<Member> = spec.scans.iter().map(|_| Member::Meta(None)).collect();
    let (share, weights) = spec.exact.unwrap_or((0, [0; 6]));
    if spec.exact.is_some() {
        members.push(Member::Exact(None));
    }
    let mut generator = Generator::new(game);
    let turns = spec.prelude.iter().copied().chain(std::iter::repeat((usize::MAX, spec.step)));
    let mut next_round = 0usize;
    for (wanted, quota) in turns {
        let (index, quota) = if wanted == usize::MAX {
            // Round robin over the members still searching.
            let live = (0..members.len()).map(|k| (next_round + k) % members.len()).find(|&i| members[i].searching());
            let Some(i) = live else { return Solution::unknown(positions) };
            next_round = i + 1;
            (i, if matches!(members[i], Member::Exact(_)) { quota * share } else { quota })
        } else {
            (wanted, quota)
        };
        let until = positions.saturating_add(quota);
        match &mut members[index] {
            Member::Meta(scan) => {
                let scan = scan.get_or_insert_with(|| Box::new(Scan::new(&spec.scans[index], &start, &opening)));
                if scan.run(game, &mut generator, &mut positions, until, budget) == Turn::Won {
                    return Solution::won(scan.line(), positions);
                }
            }
            Member::Exact(search) => {
                let search = search.get_or_insert_with(|| Box::new(exact::BestFirst::new(game, root, &weights, false, &mut positions)));
                let result = search.run(game, &mut positions, until, budget);
                if result.outcome != Outcome::Unknown {
                    return result;
                }
            }
        }
        if budget.exhausted(positions) {
            return Solution::unknown(positions);
        }
    }
    Solution::unknown(positions)
}

fn parse_enum<T: Copy>(what: &str, value: &str, options: &[(&str, T)]) -> PyResult<T> {
    options.iter().find(|(name, _)| *name == value).map(|(_, v)| *v).ok_or_else(|| {
        let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
        PyValueError::new_err(format!("{what} is one of {}, not {value:?}", names.join(", ")))
    })
}

/// The rules of a free-cell game as the engine reads them (one object per game class).
///
/// >>> FreeCellRules(columns=8, cells=4, build="alternate", wrap="none",
/// ...               empty_column="any", runs="supermove", auto_beak=False)
#[pyclass(frozen, name = "FreeCellRules", module = "winnable._engine")]
#[derive(Clone)]
pub struct PyRules {
    #[pyo3(get)]
    columns: usize,
    #[pyo3(get)]
    cells: usize,
    build: Build,
    wrap: Wrap,
    empty_column: EmptyColumn,
    runs: Runs,
    #[pyo3(get)]
    auto_beak: bool,
    tables: [std::sync::OnceLock<Rules>; 13],
}

const BUILDS: &[(&str, Build)] = &[("suit", Build::Suit), ("alternate", Build::Alternate)];
const WRAPS: &[(&str, Wrap)] = &[("none", Wrap::None), ("restricted", Wrap::Restricted), ("full", Wrap::Full)];
const EMPTY_COLUMNS: &[(&str, EmptyColumn)] = &[("any", EmptyColumn::Any), ("below-base", EmptyColumn::BelowBase)];
const RUNS: &[(&str, Runs)] = &[("supermove", Runs::Supermove), ("cells", Runs::Cells), ("unlimited", Runs::Unlimited)];

fn name_of<T: PartialEq + Copy>(options: &[(&'static str, T)], value: T) -> &'static str {
    options.iter().find(|(_, v)| *v == value).map(|(n, _)| *n).unwrap_or("?")
}

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (*, columns, cells, build, wrap, empty_column, runs, auto_beak))]
    fn py_new(columns: usize, cells: usize, build: &str, wrap: &str, empty_column: &str, runs: &str, auto_beak: bool) -> PyResult<Self> {
        let rules = PyRules {
            columns,
            cells,
            build: parse_enum("build", build, BUILDS)?,
            wrap: parse_enum("wrap", wrap, WRAPS)?,
            empty_column: parse_enum("empty_column", empty_column, EMPTY_COLUMNS)?,
            runs: parse_enum("runs", runs, RUNS)?,
            auto_beak,
            tables: Default::default(),
        };
        rules.with_base(1).map_err(PyValueError::new_err)?;
        Ok(rules)
    }

    #[getter]
    fn build(&self) -> &'static str {
        name_of(BUILDS, self.build)
    }

    #[getter]
    fn wrap(&self) -> &'static str {
        name_of(WRAPS, self.wrap)
    }

    #[getter]
    fn empty_column(&self) -> &'static str {
        name_of(EMPTY_COLUMNS, self.empty_column)
    }

    #[getter]
    fn runs(&self) -> &'static str {
        name_of(RUNS, self.runs)
    }

    fn __repr__(&self) -> String {
        format!(
            "FreeCellRules(columns={}, cells={}, build={:?}, wrap={:?}, empty_column={:?}, runs={:?}, auto_beak={})",
            self.columns,
            self.cells,
            self.build(),
            self.wrap(),
            self.empty_column(),
            self.runs(),
            if self.auto_beak { "True" } else { "False" }
        )
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.columns == other.columns
            && self.cells == other.cells
            && self.build == other.build
            && self.wrap == other.wrap
            && self.empty_column == other.empty_column
            && self.runs == other.runs
            && self.auto_beak == other.auto_beak
    }
}

impl PyRules {
    /// The rules with their tables for one base rank (made once per base).
    fn with_base(&self, base: u8) -> Result<Rules, String> {
        if let Some(Some(rules)) = (1..=13).contains(&base).then(|| self.tables[base as usize - 1].get()) {
            return Ok(rules.clone());
        }
        let rules = Rules::new(self.columns, self.cells, self.build, self.wrap, self.empty_column, self.runs, self.auto_beak, base)?;
        let _ = self.tables[base as usize - 1].set(rules.clone());
        Ok(rules)
    }
}

fn setup(rules: &PyRules, base: u8, preset: &str, columns: &[Vec<u8>], cells: &[u8], foundations: &[u8]) -> PyResult<(Solver, Position)> {
    let rules = rules.with_base(base).map_err(PyValueError::new_err)?;
    let preset = presets::named(preset).map_err(PyValueError::new_err)?;
    let solver = Solver::new(rules, Cow::Borrowed(preset));
    let root = solver.game.position(columns, cells, foundations).map_err(PyValueError::new_err)?;
    Ok((solver, root))
}

/// Solve a free-cell-family position: `(verdict, line, positions)`, the line a list of
/// move notations.
///
/// A winning line is shortened (`shorten::shorten`: no position twice, shortcuts)
/// within what the time budget leaves, `shorten_tries` positions at most; `shorten=False`
/// returns the search's own line.
#[pyfunction]
#[pyo3(signature = (rules, columns, cells, foundations, base, max_nodes=None, max_seconds=None, preset="default", shorten=true, shorten_depth=2, shorten_tries=None))]
#[allow(clippy::too_many_arguments)]
fn freecell_solve<'py>(
    py: Python<'py>,
    rules: PyRef<'_, PyRules>,
    columns: Vec<Vec<u8>>,
    cells: Vec<u8>,
    foundations: Vec<u8>,
    base: u8,
    max_nodes: Option<u64>,
    max_seconds: Option<f64>,
    preset: &str,
    shorten: bool,
    shorten_depth: u8,
    shorten_tries: Option<u64>,
) -> PyResult<(String, Bound<'py, PyList>, u64)> {
    let (solver, root) = setup(&rules, base, preset, &columns, &cells, &foundations)?;
    let shortening = shorten.then_some((shorten_depth, shorten_tries));
    let (answer, solver) = py.allow_threads(move || (Answer::find(&solver, &root, max_nodes, max_seconds, shortening, false), solver));
    let line = notation_list(py, &solver.game, answer.short.as_ref().unwrap_or(&answer.solution.line))?;
    Ok((answer.solution.outcome.as_str().to_string(), line, answer.solution.positions))
}

/// Every move's notation as a Python string, made once (a line goes to Python as a
/// list of them: making and splitting a hundred strings a call cost more than the
/// search of an easy deal's last moves). By [`notation_index`]; `None` where no move
/// is: no cards, or more than one from or to a cell (made on the spot if ever asked).
static NOTATIONS: pyo3::sync::GILOnceCell<Vec<Option<Py<PyString>>>> = pyo3::sync::GILOnceCell::new();

/// A move's place in [`NOTATIONS`]: source (columns, cells), destination (columns,
/// cells, the foundation), cards moved (0-13).
fn notation_index(m: &Move) -> Option<usize> {
    (m.src < 16 && m.dst <= FOUNDATION && m.count <= 13).then(|| (m.src as usize * 17 + m.dst as usize) * 14 + m.count as usize)
}

/// A line of moves as played, as [`Game::notation`] names them, as a Python list.
fn notation_list<'py>(py: Python<'py>, game: &Game, line: &[Move]) -> PyResult<Bound<'py, PyList>> {
    let table = NOTATIONS.get_or_init(py, || {
        (0..16 * 17 * 14)
            .map(|k| {
                let (src, dst, count) = ((k / 14 / 17) as u8, (k / 14 % 17) as u8, (k % 14) as u8);
                let run = src < 8 && dst < 8; // only a run goes from a column to a column
                (count == 1 || (run && count > 1)).then(|| PyString::new(py, &mv(src, dst, count).notation()).unbind())
            })
            .collect()
    });
    let words: Vec<Bound<'py, PyString>> = line
        .iter()
        .filter(|m| !game.automatic(m))
        .map(|m| match notation_index(m).and_then(|k| table[k].as_ref()) {
            Some(word) => word.clone_ref(py).into_bound(py),
            None => PyString::new(py, &m.notation()),
        })
        .collect();
    PyList::new(py, words)
}

/// A search's answer, its line shortened if it won (and asked), and (when timed) the
/// CPU time of each.
struct Answer {
    solution: crate::search::Solution<Move>,
    short: Option<Vec<Move>>,
    search_cpu: f64,
    shorten_cpu: f64,
}

impl Answer {
    /// Search `root` within the budget, then shorten a winning line with `shortening`
    /// (depth, positions), within what the time budget leaves. Run without the GIL (the
    /// position moves in: it is not Sync). With `timed`, the CPU time of each step is
    /// read (a system call each time, a few microseconds a call on a virtual machine:
    /// only the benchmarks ask).
    fn find(
        solver: &Solver,
        root: &Position,
        max_nodes: Option<u64>,
        max_seconds: Option<f64>,
        shortening: Option<(u8, Option<u64>)>,
        timed: bool,
    ) -> Answer {
        let clock = || if timed { crate::search::thread_cpu() } else { 0.0 };
        // The budget is the thread's CPU time; the shortening gets what the search left
        // of it, from when the search ends (on a busy machine the search's wall time is
        // longer than its CPU time, and a wall deadline set before it would leave nothing).
        let cpu_before = max_seconds.map(|_| crate::search::thread_cpu());
        let started = clock();
        let solution = solver.solve(root, &mut Budget::new(max_nodes, max_seconds));
        let searched = clock();
        let deadline = max_seconds.zip(cpu_before).map(|(s, before)| {
            let left = (s - (crate::search::thread_cpu() - before)).max(0.0);
            std::time::Instant::now() + std::time::Duration::from_secs_f64(left)
        });
        let short = match shortening {
            Some((depth, tries)) if solution.outcome == Outcome::Won => {
                Some(shorten::shorten_own(&solver.game, root, &solution.line, &shorten::limits(deadline, depth, tries)).0)
            }
            _ => None,
        };
        let shorten_cpu = if short.is_some() { clock() - searched } else { 0.0 };
        Answer { solution, short, search_cpu: searched - started, shorten_cpu }
    }
}

/// A search and the shortening of its line in one call, for benchmarks: `(verdict, the
/// search's own line, the shortened line, positions, search CPU seconds, shortening CPU
/// seconds)`, each timed apart on this thread (the rules and the position are made
/// before either clock starts; `freecell_solve` does the same work).
#[pyfunction]
#[pyo3(signature = (rules, columns, cells, foundations, base, max_nodes=None, max_seconds=None, preset="default", depth=2, tries=None))]
#[allow(clippy::too_many_arguments)]
fn freecell_lines(
    py: Python<'_>,
    rules: PyRef<'_, PyRules>,
    columns: Vec<Vec<u8>>,
    cells: Vec<u8>,
    foundations: Vec<u8>,
    base: u8,
    max_nodes: Option<u64>,
    max_seconds: Option<f64>,
    preset: &str,
    depth: u8,
    tries: Option<u64>,
) -> PyResult<(String, String, String, u64, f64, f64)> {
    let (solver, root) = setup(&rules, base, preset, &columns, &cells, &foundations)?;
    let (answer, solver) =
        py.allow_threads(move || (Answer::find(&solver, &root, max_nodes, max_seconds, Some((depth, tries)), true), solver));
    let line = solver.game.notation(&answer.solution.line);
    let short = answer.short.map(|s| solver.game.notation(&s)).unwrap_or_default();
    Ok((answer.solution.outcome.as_str().to_string(), line, short, answer.solution.positions, answer.search_cpu, answer.shorten_cpu))
}

/// Shorten a winning line (the notation `freecell_solve` returns) from a position:
/// `(line, positions tried)`. For benchmarks: `freecell_solve` does this itself.
#[pyfunction]
#[pyo3(signature = (rules, columns, cells, foundations, base, line, max_seconds=None, depth=2, tries=None))]
#[allow(clippy::too_many_arguments)]
fn freecell_shorten(
    py: Python<'_>,
    rules: PyRef<'_, PyRules>,
    columns: Vec<Vec<u8>>,
    cells: Vec<u8>,
    foundations: Vec<u8>,
    base: u8,
    line: &str,
    max_seconds: Option<f64>,
    depth: u8,
    tries: Option<u64>,
) -> PyResult<(String, u64)> {
    let (solver, root) = setup(&rules, base, "default", &columns, &cells, &foundations)?;
    let moves = shorten::parse_line(line).ok_or_else(|| PyValueError::new_err("not a line of moves"))?;
    let deadline = max_seconds.map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s.max(0.0)));
    let (out, stats) = py.allow_threads(move || {
        let limits = shorten::limits(deadline, depth, tries);
        let result = shorten::shorten(&solver.game, &root, &moves, &limits);
        (solver.game.notation(&result.0), result.1)
    });
    Ok((out, stats.tries))
}

/// The search presets: `(name, description)` for each.
#[pyfunction]
fn freecell_presets() -> Vec<(&'static str, &'static str)> {
    presets::PRESETS.iter().map(|(name, about, _)| (*name, *about)).collect()
}

/// A move (its text) with the columns and cells after it.
type Successor = (String, Vec<Vec<u8>>, Vec<u8>);

/// The engine's move generation, for tests: each move with the columns and cells after
/// it (and after the beak's automatic move, where the rules make it).
#[pyfunction]
fn freecell_successors(
    rules: PyRef<'_, PyRules>,
    columns: Vec<Vec<u8>>,
    cells: Vec<u8>,
    foundations: Vec<u8>,
    base: u8,
) -> PyResult<Vec<Successor>> {
    let (solver, root) = setup(&rules, base, "default", &columns, &cells, &foundations)?;
    let game = &solver.game;
    let mut moves = Vec::new();
    game.moves(&root, &mut moves);
    let mut out = Vec::new();
    for m in moves {
        let mut s = root.clone();
        let played = game.play(&mut s, m);
        if game.rules.auto_beak {
            // The rules' own automatic move: an exposed beak goes to its empty foundation.
            for i in 0..game.rules.columns {
                let top = s.top(i);
                if top != NO_CARD && game.rules.shifted[top as usize] == 0 && s.found[(top / 13) as usize] == 0 {
                    game.play(&mut s, mv(i as u8, FOUNDATION, 1));
                }
            }
        }
        let (cols, cells) = game.layout(&s);
        out.push((played.notation(), cols, cells));
    }
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()?;
    m.add_function(wrap_pyfunction!(freecell_solve, m)?)?;
    m.add_function(wrap_pyfunction!(freecell_successors, m)?)?;
    m.add_function(wrap_pyfunction!(freecell_shorten, m)?)?;
    m.add_function(wrap_pyfunction!(freecell_lines, m)?)?;
    m.add_function(wrap_pyfunction!(freecell_presets, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests;
