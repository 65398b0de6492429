//! Meta-moves: a goal (a card onto a parent, a card home, a run into an empty column)
//! reached by a few atomic moves in a row, the cards in the way parked one each in
//! free cells and empty columns first. A depth-first scan over meta-moves reaches a
//! win in far fewer positions than one over atomic moves, because the positions in
//! between are never stored; it does not see every position, so it never proves a
//! loss (the exact scans in `exact.rs` do that).
//!
//! Every meta-move is played as atomic moves through `Game::play`, each legal under
//! the preset's rules (run lengths are checked against the room left after parking),
//! so a line made of them replays through the Python rules.
//!
//! The kinds, each named by one character in a scan's move order (`soft.rs`):
//!
//! | char | meta-move |
//! |------|-----------|
//! | `0`  | a column's top card to its foundation |
//! | `1`  | a cell's card to its foundation |
//! | `2`  | a cell's card onto its parent in a column, parking the cards above the parent |
//! | `3`  | a buried card to its foundation, parking the cards above it |
//! | `4`  | a whole run onto a parent in another column, parking what covers both |
//! | `6`  | a run into an empty column (parking what covers it) |
//! | `7`  | a cell's card into an empty column |
//! | `8`  | the top part of a run, already on a parent, onto another parent |
//! | `9`  | a whole short column into the free cells (none empty) |
//! | `j`  | a cell's card into an empty column, then a card or run onto it |
//! | `c`  | a column's top card into a free cell |

use super::position::{mv, Game, Move, Position, ANY_CELL, FOUNDATION, IN_CELL};
use super::rules::{MAX_CELLS, MAX_COLUMNS, NO_CARD};

/// The most runs `Generator::runs` lists: each run listed but the deepest lies under
/// parked cards, and at most every cell and column takes one.
const MAX_RUNS: usize = MAX_CELLS + MAX_COLUMNS + 2;

/// One kind of meta-move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    TopHome,
    CellHome,
    CellToParent,
    BuriedHome,
    RunToParent,
    RunToEmpty,
    CellToEmpty,
    Reparent,
    ColumnToCells,
    CellToEmptyThenOnIt,
    TopToCell,
}

impl Kind {
    pub fn from_char(c: char) -> Option<Kind> {
        Some(match c {
            '0' => Kind::TopHome,
            '1' => Kind::CellHome,
            '2' => Kind::CellToParent,
            '3' => Kind::BuriedHome,
            '4' => Kind::RunToParent,
            '6' => Kind::RunToEmpty,
            '7' => Kind::CellToEmpty,
            '8' => Kind::Reparent,
            '9' => Kind::ColumnToCells,
            'j' => Kind::CellToEmptyThenOnIt,
            'c' => Kind::TopToCell,
            _ => return None,
        })
    }
}

/// The children of one position: each a run of atomic moves in `moves` (the meta-move
/// and the safe moves home after it) and a score for ordering.
#[derive(Default)]
pub struct Children {
    pub moves: Vec<Move>,
    pub list: Vec<Child>,
}

#[derive(Clone, Copy)]
pub struct Child {
    pub start: u32,
    pub len: u32,
    pub score: i32,
    pub key: u128,
}

impl Children {
    pub fn clear(&mut self) {
        self.moves.clear();
        self.list.clear();
    }

    pub fn line(&self, child: &Child) -> &[Move] {
        &self.moves[child.start as usize..(child.start + child.len) as usize]
    }
}

/// One call of [`Generator::generate`]: where its children go and when it stops.
struct Emit<'o> {
    out: &'o mut Children,
    keep: &'o mut dyn FnMut(u128) -> bool,
    score: Option<&'o dyn Fn(&Position) -> i32>,
    /// The key of the position generated from: every candidate is taken back to it.
    key: u128,
    skip: u32,
    limit: usize,
    stay: bool,
    /// The children kept so far.
    made: u64,
    /// The candidates counted so far.
    seq: u32,
}

impl Emit<'_> {
    /// Counts a candidate: false for those passed over.
    #[inline(always)]
    fn fresh(&mut self) -> bool {
        self.seq += 1;
        self.seq > self.skip
    }
}

/// Generation stopped early, holding the `skip` that resumes after the last candidate tried.
struct Stop(u32);

/// One kind's generation: `Err` when it stopped early.
type Step = Result<(), Stop>;

/// Generates meta-moves from one position, keeping the children that `keep` accepts
/// (by key: not yet visited by this scan).
pub struct Generator<'a> {
    pub game: &'a Game,
    /// The atomic moves of the meta-move being built (scratch).
    done: Vec<Move>,
}

impl<'a> Generator<'a> {
    pub fn new(game: &'a Game) -> Generator<'a> {
        Generator { game, done: Vec::with_capacity(64) }
    }

    /// Append to `out` the children of kind `kind`; `keep(key)` says whether a child is
    /// new, `score` rates a kept child (higher first) when the order needs it.
    ///
    /// The candidates come in a fixed order for a given position; the first `skip` are
    /// passed over without being played, and generation stops once `out` holds `limit`
    /// children. Returns the children made and, if it stopped early, the `skip` that
    /// resumes after the last candidate tried (so a scan plays only the children it
    /// enters). With `stay`, a generation that stops early leaves `s` in the last child
    /// made (a scan about to enter it need not play it again).
    #[allow(clippy::too_many_arguments)]
    pub fn generate(
        &mut self,
        s: &mut Position,
        kind: Kind,
        out: &mut Children,
        keep: &mut dyn FnMut(u128) -> bool,
        score: Option<&dyn Fn(&Position) -> i32>,
        skip: u32,
        limit: usize,
        stay: bool,
    ) -> (u64, Option<u32>) {
        let mut e = Emit { out, keep, score, key: s.key, skip, limit, stay, made: 0, seq: 0 };
        self.done.clear();
        let step = match kind {
            Kind::TopHome => self.top_home(s, &mut e),
            Kind::CellHome => self.cell_home(s, &mut e),
            Kind::TopToCell => self.top_to_cell(s, &mut e),
            Kind::CellToParent => self.cell_to_parent(s, &mut e),
            Kind::BuriedHome => self.buried_home(s, &mut e),
            Kind::RunToParent => self.run_to_parent(s, &mut e),
            Kind::RunToEmpty => self.run_to_empty(s, &mut e),
            Kind::CellToEmpty => self.cell_to_empty(s, &mut e),
            Kind::Reparent => self.reparent(s, &mut e),
            Kind::ColumnToCells => self.column_to_cells(s, &mut e),
            Kind::CellToEmptyThenOnIt => self.cell_to_empty_then_on_it(s, &mut e),
        };
        (e.made, step.err().map(|Stop(seq)| seq))
    }

    /// Plays one atomic move of the meta-move being built.
    #[inline(always)]
    fn play(&mut self, s: &mut Position, m: Move) {
        let played = self.game.play(s, m);
        self.done.push(played);
    }

    /// Takes `s` back to the position generated from (a candidate that did not fit).
    #[inline(always)]
    fn undo(&mut self, s: &mut Position, e: &Emit) {
        self.game.undo_to_key(s, &mut self.done, e.key);
    }

    /// The child is in `s` with its moves in `self.done`: keep it or not, then undo
    /// (unless generation stops there with `stay`).
    #[inline(always)]
    fn child(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let game = self.game;
        game.auto_play(s, &mut self.done);
        if (e.keep)(s.key) {
            e.made += 1;
            let start = e.out.moves.len() as u32;
            e.out.moves.extend_from_slice(&self.done);
            let rating = match e.score {
                Some(f) => f(s),
                None => 0,
            };
            e.out.list.push(Child { start, len: self.done.len() as u32, score: rating, key: s.key });
            if e.stay && e.out.list.len() >= e.limit {
                self.done.clear();
                return Err(Stop(e.seq));
            }
        }
        game.undo_to_key(s, &mut self.done, e.key);
        if e.out.list.len() >= e.limit {
            return Err(Stop(e.seq));
        }
        Ok(())
    }

    /// `0`: a column's top card to its foundation.
    #[inline(always)]
    fn top_home(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let game = self.game;
        for i in 0..game.rules.columns {
            let top = s.top(i);
            if top != NO_CARD && game.accepts(s, top) && e.fresh() {
                self.play(s, mv(i as u8, FOUNDATION, 1));
                self.child(s, e)?;
            }
        }
        Ok(())
    }

    /// `1`: a cell's card to its foundation.
    #[inline(always)]
    fn cell_home(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let game = self.game;
        for c in 0..game.rules.cells {
            let card = s.cells[c];
            if card != NO_CARD && game.accepts(s, card) && e.fresh() {
                self.play(s, mv((8 + c) as u8, FOUNDATION, 1));
                self.child(s, e)?;
            }
        }
        Ok(())
    }

    /// `c`: a column's top card into a free cell.
    #[inline(always)]
    fn top_to_cell(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let game = self.game;
        if game.free_cells(s) > 0 {
            for i in 0..game.rules.columns {
                if s.len[i] > 0 && e.fresh() {
                    self.play(s, mv(i as u8, ANY_CELL, 1));
                    self.child(s, e)?;
                }
            }
        }
        Ok(())
    }

    /// `2`: a cell's card onto its parent in a column, parking the cards above the parent.
    #[inline(always)]
    fn cell_to_parent(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let r = &self.game.rules;
        let room = self.room(s);
        for c in 0..r.cells {
            let card = s.cells[c];
            if card == NO_CARD {
                continue;
            }
            for &parent in r.parents[card as usize].iter() {
                let Some((j, above)) = self.open_parent(s, parent, usize::MAX) else { continue };
                if above > room || !e.fresh() {
                    continue;
                }
                if self.park(s, j, above, 0) {
                    self.play(s, mv((8 + c) as u8, j as u8, 1));
                    self.child(s, e)?;
                } else {
                    self.undo(s, e);
                }
            }
        }
        Ok(())
    }

    /// Per column, the height of the highest card the foundations accept under at most
    /// `room` cards (not the top card; `u8::MAX` for none), found from the four cards
    /// they want; `None` when no column has one.
    #[inline(always)]
    fn buried(&self, s: &Position, room: usize) -> Option<[u8; MAX_COLUMNS]> {
        let r = &self.game.rules;
        let mut buried = [u8::MAX; MAX_COLUMNS];
        let mut any = false;
        for suit in 0..4u8 {
            let count = s.found[suit as usize];
            if count == 13 {
                continue;
            }
            let card = suit * 13 + (count + r.base - 1) % 13;
            let place = s.place[card as usize];
            if place >= IN_CELL {
                continue;
            }
            let (col, h) = (place as usize, s.height[card as usize]);
            let n = s.len[col] as usize;
            if (h as usize) + 1 < n && n - 1 - h as usize <= room && (buried[col] == u8::MAX || h > buried[col]) {
                buried[col] = h;
                any = true;
            }
        }
        any.then_some(buried)
    }

    /// `3`: a buried card to its foundation, parking the cards above it.
    #[inline(always)]
    fn buried_home(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let room = self.room(s);
        let Some(buried) = self.buried(s, room) else { return Ok(()) };
        for i in 0..self.game.rules.columns {
            if buried[i] == u8::MAX || !e.fresh() {
                continue;
            }
            let n = s.len[i] as usize;
            if self.park(s, i, n - 1 - buried[i] as usize, 0) {
                self.play(s, mv(i as u8, FOUNDATION, 1));
                self.child(s, e)?;
            } else {
                self.undo(s, e);
            }
        }
        Ok(())
    }

    /// `4`: a whole run onto a parent in another column, parking what covers both.
    #[inline(always)]
    fn run_to_parent(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let r = &self.game.rules;
        let room = self.room(s);
        let mut runs = [(0u8, 0u8); MAX_RUNS];
        for i in 0..r.columns {
            let n = s.len[i] as usize;
            let count = self.runs(s, i, room, &mut runs);
            for &(c, end) in runs[..count].iter() {
                let (c, end) = (c as usize, end as usize);
                let card = s.cols[i][c];
                let src_above = n - 1 - end;
                for &parent in r.parents[card as usize].iter() {
                    let Some((j, above)) = self.open_parent(s, parent, i) else { continue };
                    if above + src_above > room || !e.fresh() {
                        continue;
                    }
                    let count = end + 1 - c;
                    if self.park(s, j, above, 0) && self.park(s, i, src_above, 0) && self.run_fits(s, count, false) {
                        self.play(s, mv(i as u8, j as u8, count as u8));
                        self.child(s, e)?;
                    } else {
                        self.undo(s, e);
                    }
                }
            }
        }
        Ok(())
    }

    /// `6`: a run into an empty column (parking what covers it).
    #[inline(always)]
    fn run_to_empty(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let game = self.game;
        let r = &game.rules;
        let columns = r.columns;
        if game.empty_columns(s) == 0 {
            return Ok(());
        }
        // The destination must stay empty: one column less to park in.
        let room = self.room(s).saturating_sub(if r.any_card_fills() { 1 } else { 0 });
        let mut runs = [(0u8, 0u8); MAX_RUNS];
        for i in 0..columns {
            let n = s.len[i] as usize;
            let count = self.runs(s, i, room, &mut runs);
            for &(c, end) in runs[..count].iter() {
                let (c, end) = (c as usize, end as usize);
                let src_above = n - 1 - end;
                if e.fresh() && self.park(s, i, src_above, 1) {
                    let free = game.free_cells(s);
                    let empty = game.empty_columns(s);
                    let limit = r.run_limit(free, empty, true);
                    let mut from = c.max((end + 1).saturating_sub(limit));
                    while from <= end && !r.fills[s.cols[i][from] as usize] {
                        from += 1;
                    }
                    if from > 0 && from <= end {
                        let j = (0..columns).find(|&j| s.len[j] == 0).unwrap();
                        self.play(s, mv(i as u8, j as u8, (end + 1 - from) as u8));
                        self.child(s, e)?;
                    } else {
                        self.undo(s, e);
                    }
                } else {
                    self.undo(s, e);
                }
            }
        }
        Ok(())
    }

    /// `7`: a cell's card into an empty column.
    #[inline(always)]
    fn cell_to_empty(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let r = &self.game.rules;
        if let Some(j) = (0..r.columns).find(|&j| s.len[j] == 0) {
            for c in 0..r.cells {
                let card = s.cells[c];
                if card != NO_CARD && r.fills[card as usize] && e.fresh() {
                    self.play(s, mv((8 + c) as u8, j as u8, 1));
                    self.child(s, e)?;
                }
            }
        }
        Ok(())
    }

    /// `8`: the top part of a run, already on a parent, onto another parent.
    #[inline(always)]
    fn reparent(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let r = &self.game.rules;
        let room = self.room(s);
        for i in 0..r.columns {
            let n = s.len[i] as usize;
            if n < 2 {
                continue;
            }
            let mut b = n - 1;
            while b > 0 && r.builds_on(s.cols[i][b], s.cols[i][b - 1]) {
                b -= 1;
            }
            for c in b + 1..n {
                let card = s.cols[i][c];
                for &parent in r.parents[card as usize].iter() {
                    let Some((j, above)) = self.open_parent(s, parent, i) else { continue };
                    if above > room || !e.fresh() {
                        continue;
                    }
                    if self.park(s, j, above, 0) && self.run_fits(s, n - c, false) {
                        self.play(s, mv(i as u8, j as u8, (n - c) as u8));
                        self.child(s, e)?;
                    } else {
                        self.undo(s, e);
                    }
                }
            }
        }
        Ok(())
    }

    /// `9`: a whole short column into the free cells (none empty).
    #[inline(always)]
    fn column_to_cells(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let game = self.game;
        let free = game.free_cells(s);
        if free == 0 || game.empty_columns(s) > 0 {
            return Ok(());
        }
        for i in 0..game.rules.columns {
            let n = s.len[i] as usize;
            if n > 0 && n <= free && !s.cols[i][..n].iter().any(|&card| game.pending_beak(s, card)) && e.fresh() {
                for _ in 0..n {
                    self.play(s, mv(i as u8, ANY_CELL, 1));
                }
                self.child(s, e)?;
            }
        }
        Ok(())
    }

    /// `j`: a cell's card into an empty column, then a card or run onto it.
    #[inline(always)]
    fn cell_to_empty_then_on_it(&mut self, s: &mut Position, e: &mut Emit) -> Step {
        let r = &self.game.rules;
        let Some(empty) = (0..r.columns).find(|&j| s.len[j] == 0) else { return Ok(()) };
        for c in 0..r.cells {
            let card = s.cells[c];
            if card == NO_CARD || !r.fills[card as usize] {
                continue;
            }
            for d in 0..r.cells {
                let other = s.cells[d];
                if d != c && other != NO_CARD && r.builds_on(other, card) && e.fresh() {
                    self.play(s, mv((8 + c) as u8, empty as u8, 1));
                    self.play(s, mv((8 + d) as u8, empty as u8, 1));
                    self.child(s, e)?;
                }
            }
            self.run_onto_filled(s, e, c, card, empty)?;
        }
        Ok(())
    }

    /// The runs half of `j`: the card of cell `c` into the empty column `empty`, then a
    /// run from a column onto it.
    #[inline(always)]
    fn run_onto_filled(&mut self, s: &mut Position, e: &mut Emit, c: usize, card: u8, empty: usize) -> Step {
        let r = &self.game.rules;
        let mut runs = [(0u8, 0u8); MAX_RUNS];
        // With the card in the empty column, its cell is free and that column is taken.
        let room = self.room(s) + 1 - if r.any_card_fills() { 1 } else { 0 };
        for i in 0..r.columns {
            let n = s.len[i] as usize;
            let count = self.runs(s, i, room, &mut runs);
            for &(c0, end) in runs[..count].iter() {
                let (c0, end) = (c0 as usize, end as usize);
                if r.builds_on(s.cols[i][c0], card) && e.fresh() {
                    self.play(s, mv((8 + c) as u8, empty as u8, 1));
                    let src_above = n - 1 - end;
                    if self.park(s, i, src_above, 0) && self.run_fits(s, end + 1 - c0, false) {
                        self.play(s, mv(i as u8, empty as u8, (end + 1 - c0) as u8));
                        self.child(s, e)?;
                    } else {
                        self.undo(s, e);
                    }
                }
            }
        }
        Ok(())
    }

    /// How many single cards can be parked: empty cells, and empty columns where the
    /// rules let any card fill one.
    fn room(&self, s: &Position) -> usize {
        let game = self.game;
        let mut room = game.free_cells(s);
        if game.rules.any_card_fills() {
            room += game.empty_columns(s);
        }
        room
    }

    /// The runs of column `i` (each `(start, end)`, a maximal run of the column cut at
    /// its breaks), bottom first, leaving out those covered by more than `max_above`
    /// cards. Read from the top down from the column's run starts.
    #[inline]
    fn runs(&self, s: &Position, i: usize, max_above: usize, out: &mut [(u8, u8); MAX_RUNS]) -> usize {
        let n = s.len[i] as usize;
        let mut count = 0;
        let mut end = n;
        while end > 0 && n - end <= max_above && count < MAX_RUNS {
            let start = Position::run_start(s.starts[i], end);
            out[count] = (start as u8, (end - 1) as u8);
            count += 1;
            end = start;
        }
        out[..count].reverse();
        count
    }

    /// Where `parent` is, if it is in a column other than `not` with no child of its own
    /// on it: the column and how many cards cover it.
    #[inline]
    fn open_parent(&self, s: &Position, parent: u8, not: usize) -> Option<(usize, usize)> {
        if parent == NO_CARD {
            return None;
        }
        let j = s.place[parent as usize];
        if j >= IN_CELL || j as usize == not {
            return None;
        }
        let j = j as usize;
        let h = s.height[parent as usize] as usize;
        let n = s.len[j] as usize;
        if h + 1 < n && (s.starts[j] >> (h + 1)) & 1 == 0 {
            return None; // already has a child on it
        }
        Some((j, n - 1 - h))
    }

    /// Move the top `count` cards of column `col` one at a time to the free cells, then
    /// to empty columns (where the card may fill one), leaving `keep_empty` empty
    /// columns untouched. False if they do not all fit (the moves made stay in `done`
    /// for the caller to undo).
    fn park(&mut self, s: &mut Position, col: usize, count: usize, keep_empty: usize) -> bool {
        let game = self.game;
        let r = &game.rules;
        for _ in 0..count {
            let card = s.top(col);
            if game.pending_beak(s, card) {
                return false; // the rules send it home the moment it is uncovered
            }
            if (0..r.cells).any(|c| s.cells[c] == NO_CARD) {
                let played = game.play(s, mv(col as u8, ANY_CELL, 1));
                self.done.push(played);
                continue;
            }
            if !r.fills[card as usize] || game.empty_columns(s) <= keep_empty {
                return false;
            }
            let j = (0..r.columns).find(|&j| s.len[j] == 0).unwrap();
            let played = game.play(s, mv(col as u8, j as u8, 1));
            self.done.push(played);
        }
        true
    }

    /// May a run of `count` cards move now (onto a card, or into an empty column)?
    #[inline]
    fn run_fits(&self, s: &Position, count: usize, to_empty: bool) -> bool {
        let game = self.game;
        count <= game.rules.run_limit(game.free_cells(s), game.empty_columns(s), to_empty)
    }
}
