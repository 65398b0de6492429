//! The free-cell family (Penguin and its variants, FreeCell, Eight Off, Baker's Game):
//! one exact solver for every preset.
//!
//! - A position is up to 8 columns of bytes (card = suit * 13 + rank - 1), up to 8
//!   cells and 4 foundation counts; moves are made and searched in place.
//! - Positions that differ only by the order of their columns or of their cells are one:
//!   the visited key is a sum over columns of a mixed Zobrist hash of the column, plus a
//!   Zobrist value per cell card (128 bits, updated in O(1) per move). Foundations follow
//!   from the cards still on the table.
//! - Safe moves to the foundations are played for the player (a card nothing can be
//!   built on any more); so is the beak in the presets where the rules move it.
//! - Every move the rules allow is generated (single cards and every run length the
//!   supermove limit allows, or any run), so an exhausted search proves the deal lost.
//! - The search is a portfolio, as fc-solve runs several scans: a quick greedy
//!   best-first pass that also plays unsafe foundation moves (finds most wins, never
//!   claims a loss); then exact best-first searches with four evaluations in turn and
//!   growing quotas (each wins, or proves the loss by exhausting the space), one more
//!   with a quota of two million positions; last an
//!   exhaustive depth-first search, children best first, that needs only the set of
//!   positions seen. Best-first children are kept as (parent, move) and laid out only
//!   when expanded; moves are made and taken back in place.
//!
//! The line returned names real columns and cells, in the Python move notation
//! (`3a`, `a5`, `2o`, `48x3`); Python replays it before anyone trusts it.

use pyo3::prelude::*;

use crate::search::Budget;

pub const MAX_COLUMNS: usize = 8;
pub const MAX_CELLS: usize = 8;
pub const MAX_HEIGHT: usize = 64;
pub const NO_CARD: u8 = 255;
const FOUNDATION: u8 = 16;
const ANY_CELL: u8 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    None,
    Restricted,
    Full,
}

/// The rules of one preset, with the tables the search reads.
#[derive(Clone)]
pub struct Rules {
    pub columns: usize,
    pub cells: usize,
    pub in_suit: bool,
    pub wrap: Wrap,
    pub empty_below_base: bool,
    pub unlimited_runs: bool,
    pub auto_beak: bool,
    pub base: u8, // 1..13
    /// `on[card * 52 + target]`: may `card` go onto `target` in the tableau?
    on: Vec<bool>,
    /// May the card fill an empty column (alone or as the deepest card of a run)?
    fills: [bool; 52],
    /// The card's rank counted from the base (0 for the base rank).
    shifted: [u8; 52],
}

impl Rules {
    #[allow(clippy::too_many_arguments)]
    pub fn new(columns: usize, cells: usize, in_suit: bool, wrap: Wrap, empty_below_base: bool, unlimited_runs: bool, auto_beak: bool, base: u8) -> Result<Rules, String> {
        if !(1..=MAX_COLUMNS).contains(&columns) || cells > MAX_CELLS || !(1..=13).contains(&base) {
            return Err(format!("unsupported rules: {columns} columns, {cells} cells, base {base}"));
        }
        let mut shifted = [0u8; 52];
        for card in 0..52 {
            let rank = (card % 13) as u8 + 1;
            shifted[card] = (rank + 13 - base) % 13;
        }
        let mut on = vec![false; 52 * 52];
        for card in 0..52usize {
            for target in 0..52usize {
                let (cs, ts) = (card / 13, target / 13);
                let colour_ok = if in_suit { cs == ts } else { (cs == 1 || cs == 2) != (ts == 1 || ts == 2) };
                let rank_ok = match wrap {
                    Wrap::Full => (card % 13 + 1) % 13 == target % 13,
                    Wrap::Restricted => shifted[card] != 0 && shifted[card] + 1 == shifted[target],
                    Wrap::None => shifted[card] + 1 == shifted[target],
                };
                on[card * 52 + target] = colour_ok && rank_ok;
            }
        }
        let mut fills = [true; 52];
        for card in 0..52 {
            if wrap == Wrap::Restricted && shifted[card] == 0 {
                fills[card] = false;
            }
            if empty_below_base && shifted[card] != 12 {
                fills[card] = false;
            }
        }
        Ok(Rules { columns, cells, in_suit, wrap, empty_below_base, unlimited_runs, auto_beak, base, on, fills, shifted })
    }

    #[inline]
    fn builds_on(&self, card: u8, target: u8) -> bool {
        self.on[card as usize * 52 + target as usize]
    }
}

/// A move: `src` is a column (0..8) or a cell (8..16); `dst` a column, a cell
/// (8..16; `ANY_CELL` in generation means the first empty one) or the foundation (16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub src: u8,
    pub dst: u8,
    pub count: u8,
    /// The card moved (the deepest one of a run), filled in when the move is played.
    pub card: u8,
}

#[inline]
fn mv(src: u8, dst: u8, count: u8) -> Move {
    Move { src, dst, count, card: NO_CARD }
}

impl Move {
    pub fn notation(&self) -> String {
        let token = |place: u8| -> char {
            if place == FOUNDATION {
                'o'
            } else if place < 8 {
                (b'1' + place) as char
            } else {
                (b'a' + place - 8) as char
            }
        };
        let mut text = format!("{}{}", token(self.src), token(self.dst));
        if self.count > 1 {
            text.push_str(&format!("x{}", self.count));
        }
        text
    }
}

pub struct Zobrist {
    at: Vec<u128>, // [height * 52 + card]
    cell: [u128; 52],
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    fn new() -> Zobrist {
        let mut seed = 0x5EED_F00D_CAFE_u64;
        let mut next = || ((splitmix(&mut seed) as u128) << 64) | splitmix(&mut seed) as u128;
        let at = (0..MAX_HEIGHT * 52).map(|_| next()).collect();
        let mut cell = [0u128; 52];
        for value in cell.iter_mut() {
            *value = next();
        }
        Zobrist { at, cell }
    }
}

/// A nonlinear mix, so that a sum over columns does not mix cards across columns.
#[inline]
fn mix(h: u128) -> u128 {
    if h == 0 {
        return 0;
    }
    const M1: u128 = 0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835;
    const M2: u128 = 0xD6E8_FEB8_6659_FD93_C2B2_AE3D_27D4_EB4F;
    let mut x = h.wrapping_mul(M1);
    x ^= x >> 67;
    x = x.wrapping_mul(M2);
    x ^= x >> 59;
    x
}

/// A position, searched in place.
#[derive(Clone)]
pub struct State {
    pub cols: [[u8; MAX_HEIGHT]; MAX_COLUMNS],
    pub len: [u8; MAX_COLUMNS],
    pub cells: [u8; MAX_CELLS],
    pub found: [u8; 4],
    col_hash: [u128; MAX_COLUMNS],
    pub key: u128,
}

impl State {
    pub fn new(columns: &[Vec<u8>], cells: &[u8], found: &[u8], z: &Zobrist) -> Result<State, String> {
        let mut state = State { cols: [[NO_CARD; MAX_HEIGHT]; MAX_COLUMNS], len: [0; MAX_COLUMNS], cells: [NO_CARD; MAX_CELLS], found: [0; 4], col_hash: [0; MAX_COLUMNS], key: 0 };
        if columns.len() > MAX_COLUMNS || cells.len() > MAX_CELLS || found.len() != 4 {
            return Err("too many columns or cells".into());
        }
        let mut seen = [false; 52];
        for (i, column) in columns.iter().enumerate() {
            if column.len() + 13 > MAX_HEIGHT {
                return Err(format!("column {} is too tall", i + 1));
            }
            for &card in column {
                if card >= 52 || seen[card as usize] {
                    return Err(format!("bad or repeated card {card}"));
                }
                seen[card as usize] = true;
                state.push(i, card, z);
            }
            state.rekey(i, 0);
        }
        for (i, &card) in cells.iter().enumerate() {
            if card != NO_CARD {
                if card >= 52 || seen[card as usize] {
                    return Err(format!("bad or repeated card {card}"));
                }
                seen[card as usize] = true;
                state.set_cell(i, card, z);
            }
        }
        for (s, &count) in found.iter().enumerate() {
            if count > 13 {
                return Err("a foundation holds at most 13 cards".into());
            }
            state.found[s] = count;
        }
        Ok(state)
    }

    #[inline]
    fn top(&self, col: usize) -> u8 {
        let n = self.len[col] as usize;
        if n == 0 {
            NO_CARD
        } else {
            self.cols[col][n - 1]
        }
    }

    /// Put a card on a column; the key is brought up to date by `rekey`.
    #[inline]
    fn push(&mut self, col: usize, card: u8, z: &Zobrist) {
        let n = self.len[col] as usize;
        self.cols[col][n] = card;
        self.len[col] += 1;
        self.col_hash[col] ^= z.at[n * 52 + card as usize];
    }

    #[inline]
    fn pop(&mut self, col: usize, z: &Zobrist) -> u8 {
        let n = self.len[col] as usize - 1;
        let card = self.cols[col][n];
        self.len[col] -= 1;
        self.col_hash[col] ^= z.at[n * 52 + card as usize];
        card
    }

    /// The key after column `col` changed from the hash `old`.
    #[inline]
    fn rekey(&mut self, col: usize, old: u128) {
        self.key = self.key.wrapping_sub(mix(old)).wrapping_add(mix(self.col_hash[col]));
    }

    #[inline]
    fn set_cell(&mut self, cell: usize, card: u8, z: &Zobrist) {
        self.cells[cell] = card;
        self.key = self.key.wrapping_add(z.cell[card as usize]);
    }

    #[inline]
    fn take_cell(&mut self, cell: usize, z: &Zobrist) -> u8 {
        let card = self.cells[cell];
        self.cells[cell] = NO_CARD;
        self.key = self.key.wrapping_sub(z.cell[card as usize]);
        card
    }

    pub fn on_foundations(&self) -> u32 {
        self.found.iter().map(|&c| c as u32).sum()
    }
}

/// A position stored compactly for the best-first search: column heights, the cards
/// of the columns one after the other, the cells, the foundations.
#[derive(Clone, Copy)]
struct Packed {
    bytes: [u8; 72],
}

/// An open-addressing set of 128-bit keys (0 marks an empty slot).
struct Seen {
    slots: Vec<u128>,
    mask: usize,
    len: usize,
}

impl Seen {
    fn new() -> Seen {
        Seen { slots: vec![0; 1 << 12], mask: (1 << 12) - 1, len: 0 }
    }

    #[inline]
    fn insert(&mut self, key: u128) -> bool {
        let key = key | 1;
        let mut index = (key >> 64) as usize & self.mask;
        loop {
            let slot = self.slots[index];
            if slot == key {
                return false;
            }
            if slot == 0 {
                self.slots[index] = key;
                self.len += 1;
                if self.len * 10 >= self.slots.len() * 7 {
                    self.grow();
                }
                return true;
            }
            index = (index + 1) & self.mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let size = old.len() * 2;
        self.slots = vec![0; size];
        self.mask = size - 1;
        for key in old {
            if key != 0 {
                let mut index = (key >> 64) as usize & self.mask;
                while self.slots[index] != 0 {
                    index = (index + 1) & self.mask;
                }
                self.slots[index] = key;
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Won,
    Lost,
    Unknown,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Won => "won",
            Verdict::Lost => "lost",
            Verdict::Unknown => "unknown",
        }
    }
}

pub struct Solution {
    pub verdict: Verdict,
    pub line: Vec<Move>,
    pub positions: u64,
}

pub struct Solver {
    pub rules: Rules,
    z: Zobrist,
    /// Evaluation weights: foundations, free cells, empty columns, cards covering the
    /// next card of a suit, cards above a lower card, breaks in a column.
    weights: [i32; 6],
}

impl Solver {
    pub fn new(rules: Rules) -> Solver {
        // The quick pass's evaluation (and the depth-first search's child order).
        let weights = [40, 6, 12, 4, 3, 1];
        Solver { rules, z: Zobrist::new(), weights }
    }

    pub fn state(&self, columns: &[Vec<u8>], cells: &[u8], found: &[u8]) -> Result<State, String> {
        if columns.len() != self.rules.columns || cells.len() != self.rules.cells {
            return Err(format!("expected {} columns and {} cells", self.rules.columns, self.rules.cells));
        }
        let state = State::new(columns, cells, found, &self.z)?;
        let on_table = state.len.iter().map(|&l| l as u32).sum::<u32>() + state.cells.iter().filter(|&&c| c != NO_CARD).count() as u32;
        if on_table + state.on_foundations() != 52 {
            return Err("the position does not hold 52 cards".into());
        }
        Ok(state)
    }

    #[inline]
    fn accepts(&self, s: &State, card: u8) -> bool {
        let suit = (card / 13) as usize;
        s.found[suit] < 13 && self.rules.shifted[card as usize] == s.found[suit]
    }

    /// May `card` (which the foundation accepts) go there without losing anything?
    #[inline]
    fn safe(&self, s: &State, card: u8) -> bool {
        let sh = self.rules.shifted[card as usize];
        if sh == 0 {
            // A base card: nothing is ever built on it unless the wrap is full (K on A).
            return self.rules.wrap != Wrap::Full;
        }
        if self.rules.in_suit {
            return true; // the only card that goes on it is already home
        }
        let red = matches!(card / 13, 1 | 2);
        let (a, b) = if red { (0, 3) } else { (1, 2) };
        s.found[a] >= sh && s.found[b] >= sh
    }

    fn free_cells(&self, s: &State) -> usize {
        s.cells[..self.rules.cells].iter().filter(|&&c| c == NO_CARD).count()
    }

    fn empty_columns(&self, s: &State) -> usize {
        s.len[..self.rules.columns].iter().filter(|&&l| l == 0).count()
    }

    fn run_length(&self, s: &State, col: usize) -> usize {
        let n = s.len[col] as usize;
        if n == 0 {
            return 0;
        }
        let c = &s.cols[col];
        let mut k = 1;
        while k < n && self.rules.builds_on(c[n - k], c[n - k - 1]) {
            k += 1;
        }
        k
    }

    /// Every legal move (up to equivalence of empty columns and of empty cells).
    pub fn moves(&self, s: &State, out: &mut Vec<Move>) {
        out.clear();
        let r = &self.rules;
        let free = self.free_cells(s);
        let empty = self.empty_columns(s);
        let first_cell = (0..r.cells).find(|&i| s.cells[i] == NO_CARD);
        let first_empty = (0..r.columns).find(|&i| s.len[i] == 0);
        let (limit, limit_empty) = if r.unlimited_runs {
            (64usize, 64usize)
        } else {
            ((free + 1) << empty, if empty > 0 { (free + 1) << (empty - 1) } else { 0 })
        };
        for i in 0..r.columns {
            let n = s.len[i] as usize;
            if n == 0 {
                continue;
            }
            let top = s.cols[i][n - 1];
            if self.accepts(s, top) {
                out.push(mv(i as u8, FOUNDATION, 1));
            }
            let run = self.run_length(s, i);
            let reach = run.min(limit);
            let top_rank = r.shifted[top as usize] as usize;
            for j in 0..r.columns {
                if j == i || s.len[j] == 0 {
                    continue;
                }
                let target = s.top(j);
                // The run's cards climb one rank a card from the top, so only the card
                // `k` deep can have the rank that goes on the target.
                let k = (r.shifted[target as usize] as usize + 13 - top_rank) % 13;
                if k >= 1 && k <= reach && r.builds_on(s.cols[i][n - k], target) {
                    out.push(mv(i as u8, j as u8, k as u8));
                }
            }
            if let Some(j) = first_empty {
                // Moving a whole column into an empty one changes nothing.
                for k in 1..=run.min(limit_empty).min(n - 1) {
                    if r.fills[s.cols[i][n - k] as usize] {
                        out.push(mv(i as u8, j as u8, k as u8));
                    }
                }
            }
            if first_cell.is_some() {
                out.push(mv(i as u8, ANY_CELL, 1));
            }
        }
        for c in 0..r.cells {
            let card = s.cells[c];
            if card == NO_CARD {
                continue;
            }
            let src = (8 + c) as u8;
            if self.accepts(s, card) {
                out.push(mv(src, FOUNDATION, 1));
            }
            for j in 0..r.columns {
                if s.len[j] != 0 && r.builds_on(card, s.top(j)) {
                    out.push(mv(src, j as u8, 1));
                }
            }
            if let Some(j) = first_empty {
                if r.fills[card as usize] {
                    out.push(mv(src, j as u8, 1));
                }
            }
        }
    }

    /// The quick pass's shortcuts (it never claims a loss, so it may skip moves): no
    /// part of a run moves sideways onto another column, a column moves into an empty
    /// column only with its longest movable run, and a card leaves a cell for an empty
    /// column only if it is one rank below the base (a King in FreeCell).
    fn prune_quick(&self, s: &State, moves: &mut Vec<Move>) {
        let mut longest = [0u8; MAX_COLUMNS];
        for m in moves.iter() {
            if m.src < 8 && m.dst < 8 && s.len[m.dst as usize] == 0 {
                longest[m.src as usize] = longest[m.src as usize].max(m.count);
            }
        }
        moves.retain(|m| {
            if m.dst >= 8 {
                return true;
            }
            if s.len[m.dst as usize] != 0 {
                // A part of a run moves to another column only if it leaves a card the
                // part does not build on (splitting a run sideways is skipped).
                if m.src >= 8 {
                    return true;
                }
                let c = &s.cols[m.src as usize];
                let n = s.len[m.src as usize] as usize;
                let k = m.count as usize;
                return k == n || !self.rules.builds_on(c[n - k], c[n - k - 1]);
            }
            if m.src < 8 {
                return m.count == longest[m.src as usize];
            }
            self.rules.shifted[s.cells[(m.src - 8) as usize] as usize] == 12
        });
    }

    /// Play `m` (a card for a cell goes to the first empty one); returns the move as
    /// played (its cell and card filled in), which `undo` takes back.
    #[inline]
    pub fn play(&self, s: &mut State, m: Move) -> Move {
        let z = &self.z;
        let mut played = m;
        let count = m.count as usize;
        if m.dst < 8 {
            // Onto a column: from a column (a run) or from a cell.
            let dst = m.dst as usize;
            let old_dst = s.col_hash[dst];
            if m.src < 8 {
                let src = m.src as usize;
                let old_src = s.col_hash[src];
                let n = s.len[src] as usize;
                played.card = s.cols[src][n - count];
                for k in n - count..n {
                    let card = s.cols[src][k];
                    s.push(dst, card, z);
                }
                for _ in 0..count {
                    s.pop(src, z);
                }
                s.rekey(src, old_src);
            } else {
                let card = s.take_cell((m.src - 8) as usize, z);
                played.card = card;
                s.push(dst, card, z);
            }
            s.rekey(dst, old_dst);
            return played;
        }
        let card = if m.src < 8 {
            let src = m.src as usize;
            let old = s.col_hash[src];
            let card = s.pop(src, z);
            s.rekey(src, old);
            card
        } else {
            s.take_cell((m.src - 8) as usize, z)
        };
        played.card = card;
        if m.dst == FOUNDATION {
            s.found[(card / 13) as usize] += 1;
        } else {
            // Cells are interchangeable: a card always goes to the first empty one.
            let cell = (0..self.rules.cells).find(|&i| s.cells[i] == NO_CARD).expect("an empty cell");
            played.dst = (8 + cell) as u8;
            s.set_cell(cell, card, z);
        }
        played
    }

    /// Take back a move returned by `play`.
    #[inline]
    pub fn undo(&self, s: &mut State, m: Move) {
        let z = &self.z;
        let count = m.count as usize;
        if m.dst < 8 {
            let dst = m.dst as usize;
            let old_dst = s.col_hash[dst];
            if m.src < 8 {
                let src = m.src as usize;
                let old_src = s.col_hash[src];
                let n = s.len[dst] as usize;
                for k in n - count..n {
                    let card = s.cols[dst][k];
                    s.push(src, card, z);
                }
                for _ in 0..count {
                    s.pop(dst, z);
                }
                s.rekey(src, old_src);
            } else {
                let card = s.pop(dst, z);
                s.set_cell((m.src - 8) as usize, card, z);
            }
            s.rekey(dst, old_dst);
            return;
        }
        if m.dst == FOUNDATION {
            s.found[(m.card / 13) as usize] -= 1;
        } else {
            s.take_cell((m.dst - 8) as usize, z);
        }
        if m.src < 8 {
            let src = m.src as usize;
            let old = s.col_hash[src];
            s.push(src, m.card, z);
            s.rekey(src, old);
        } else {
            s.set_cell((m.src - 8) as usize, m.card, z);
        }
    }

    /// Play the automatic moves: the beak (where the rules move it) and safe moves to
    /// the foundations. Each is appended to `done`.
    pub fn auto_play(&self, s: &mut State, done: &mut Vec<Move>) {
        self.auto_play_with(s, done, false)
    }

    /// As `auto_play`; when `eager`, every card the foundations accept goes there (a
    /// fast search that can miss wins, so it never answers *lost*).
    pub fn auto_play_with(&self, s: &mut State, done: &mut Vec<Move>, eager: bool) {
        let r = &self.rules;
        loop {
            let mut moved = false;
            for i in 0..r.columns {
                let top = s.top(i);
                if top != NO_CARD && self.accepts(s, top) && (eager || self.safe(s, top)) {
                    done.push(self.play(s, mv(i as u8, FOUNDATION, 1)));
                    moved = true;
                }
            }
            for c in 0..r.cells {
                let card = s.cells[c];
                if card != NO_CARD && self.accepts(s, card) && (eager || self.safe(s, card)) {
                    done.push(self.play(s, mv((8 + c) as u8, FOUNDATION, 1)));
                    moved = true;
                }
            }
            if !moved {
                return;
            }
        }
    }

    /// Higher is better: cards home, free cells and empty columns, few cards covering
    /// the next card each foundation wants, few breaks in the columns.
    fn evaluate(&self, s: &State, w: &[i32; 6]) -> i32 {
        let r = &self.rules;
        let free = self.free_cells(s) as i32;
        let empty = self.empty_columns(s) as i32;
        let mut score = w[0] * s.on_foundations() as i32 + w[1] * free + w[2] * empty;
        let mut next = [NO_CARD; 4];
        for suit in 0..4 {
            if s.found[suit] < 13 {
                let rank0 = (s.found[suit] + r.base - 1) % 13;
                next[suit] = suit as u8 * 13 + rank0;
            }
        }
        for i in 0..r.columns {
            let n = s.len[i] as usize;
            let c = &s.cols[i];
            let mut lowest = 13u8;
            for d in 0..n {
                let card = c[d];
                let sh = r.shifted[card as usize];
                if next[(card / 13) as usize] == card {
                    score -= w[3] * (n - 1 - d) as i32;
                }
                if sh > lowest {
                    score -= w[4]; // must move before a deeper card can go home
                }
                lowest = lowest.min(sh);
                if d > 0 && !r.builds_on(card, c[d - 1]) {
                    score -= w[5];
                }
            }
        }
        score
    }

    /// A portfolio, as fc-solve runs its scans: best-first searches with four
    /// evaluations in turn, each with a small quota, then again with a larger one (each
    /// either wins, or proves the deal lost by exhausting it); last, an exhaustive
    /// depth-first search that decides whatever is left with little memory.
    pub fn solve(&self, root: &State, budget: &mut Budget) -> Solution {
        const SETS: [[i32; 6]; 4] = [[40, 10, 20, 4, 3, 1], [40, 10, 20, 6, 3, 1], [40, 10, 20, 4, 6, 2], [40, 14, 30, 4, 3, 1]];
        let mut searched;
        // A quick search that sends every card it can to the foundations finds most wins.
        let quick = self.best_first(root, budget, 0, 3_000, &self.weights, true);
        if quick.verdict == Verdict::Won || budget.exhausted(quick.positions) {
            return quick;
        }
        searched = quick.positions;
        for quota in [20_000u64, 200_000] {
            for weights in SETS.iter() {
                let result = self.best_first(root, budget, searched, quota, weights, false);
                searched = result.positions;
                if result.verdict != Verdict::Unknown || budget.exhausted(searched) {
                    return result;
                }
            }
        }
        // A last, longer best-first search before the depth-first one.
        let result = self.best_first(root, budget, searched, 2_000_000, &SETS[0], false);
        if result.verdict != Verdict::Unknown || budget.exhausted(result.positions) {
            return result;
        }
        self.depth_first(root, budget, result.positions)
    }

    fn pack(&self, s: &State) -> Packed {
        let mut p = Packed { bytes: [NO_CARD; 72] };
        let mut at = 8;
        for i in 0..self.rules.columns {
            let n = s.len[i] as usize;
            p.bytes[i] = n as u8;
            p.bytes[at..at + n].copy_from_slice(&s.cols[i][..n]);
            at += n;
        }
        p.bytes[60..68].copy_from_slice(&s.cells);
        p.bytes[68..72].copy_from_slice(&s.found);
        p
    }

    fn unpack(&self, p: &Packed) -> State {
        let mut s = State { cols: [[NO_CARD; MAX_HEIGHT]; MAX_COLUMNS], len: [0; MAX_COLUMNS], cells: [NO_CARD; MAX_CELLS], found: [0; 4], col_hash: [0; MAX_COLUMNS], key: 0 };
        let mut at = 8;
        for i in 0..self.rules.columns {
            let n = p.bytes[i] as usize;
            for &card in &p.bytes[at..at + n] {
                s.push(i, card, &self.z);
            }
            s.rekey(i, 0);
            at += n;
        }
        for c in 0..self.rules.cells {
            if p.bytes[60 + c] != NO_CARD {
                s.set_cell(c, p.bytes[60 + c], &self.z);
            }
        }
        s.found.copy_from_slice(&p.bytes[68..72]);
        s
    }

    /// Greedy best-first search: always expand the best position found so far.
    /// Children are kept as (parent, move) and laid out only when expanded.
    pub fn best_first(&self, root: &State, budget: &mut Budget, already: u64, quota: u64, weights: &[i32; 6], eager: bool) -> Solution {
        use std::collections::BinaryHeap;
        struct Record {
            parent: u32,
            via: Move,
            packed: u32,
        }
        let mut seen = Seen::new();
        let mut start = root.clone();
        let mut opening = Vec::new();
        self.auto_play_with(&mut start, &mut opening, eager);
        let mut positions: u64 = already + 1;
        let limit = already + quota;
        seen.insert(start.key);
        if start.on_foundations() == 52 {
            return Solution { verdict: Verdict::Won, line: opening, positions };
        }
        let mut records = vec![Record { parent: u32::MAX, via: mv(0, 0, 0), packed: 0 }];
        let mut packs = vec![self.pack(&start)];
        let mut heap: BinaryHeap<(i32, u32)> = BinaryHeap::new();
        heap.push((0, 0));
        let mut moves = Vec::with_capacity(64);
        let mut done = Vec::with_capacity(64);
        while let Some((_, index)) = heap.pop() {
            if positions >= limit || budget.exhausted(positions) {
                return Solution { verdict: Verdict::Unknown, line: Vec::new(), positions };
            }
            let mut state;
            if index == 0 {
                state = start.clone();
            } else {
                let record = &records[index as usize];
                state = self.unpack(&packs[records[record.parent as usize].packed as usize]);
                done.clear();
                self.play(&mut state, record.via);
                self.auto_play_with(&mut state, &mut done, eager);
                records[index as usize].packed = packs.len() as u32;
                packs.push(self.pack(&state));
            }
            self.moves(&state, &mut moves);
            if eager {
                self.prune_quick(&state, &mut moves);
            }
            for &m in moves.iter() {
                done.clear();
                let played = self.play(&mut state, m);
                done.push(played);
                self.auto_play_with(&mut state, &mut done, eager);
                if seen.insert(state.key) {
                    positions += 1;
                    if state.on_foundations() == 52 {
                        let mut path = vec![played];
                        let mut at = index;
                        while at != 0 {
                            path.push(records[at as usize].via);
                            at = records[at as usize].parent;
                        }
                        path.reverse();
                        let mut line = opening.clone();
                        let mut s = start.clone();
                        for m in path {
                            line.push(self.play(&mut s, m));
                            self.auto_play_with(&mut s, &mut line, eager);
                        }
                        return Solution { verdict: Verdict::Won, line, positions };
                    }
                    let score = self.evaluate(&state, weights);
                    records.push(Record { parent: index, via: played, packed: u32::MAX });
                    heap.push((score, (records.len() - 1) as u32));
                }
                for &m in done.iter().rev() {
                    self.undo(&mut state, m);
                }
            }
        }
        let verdict = if eager { Verdict::Unknown } else { Verdict::Lost };
        Solution { verdict, line: Vec::new(), positions }
    }

    /// Exhaustive depth-first search, children best first.
    pub fn depth_first(&self, root: &State, budget: &mut Budget, already: u64) -> Solution {
        struct Frame {
            state: State,
            children: Vec<(i32, Move)>,
            next: usize,
            via: Vec<Move>, // the move that led here, then its automatic moves
        }
        let mut seen = Seen::new();
        let mut start = root.clone();
        let mut via = Vec::new();
        self.auto_play(&mut start, &mut via);
        let mut positions: u64 = already + 1;
        seen.insert(start.key);
        if start.on_foundations() == 52 {
            return Solution { verdict: Verdict::Won, line: via, positions };
        }
        let mut stack: Vec<Frame> = Vec::new();
        let mut moves = Vec::with_capacity(64);
        let mut expand = |state: &State, seen: &mut Seen, positions: &mut u64| -> Vec<(i32, Move)> {
            self.moves(state, &mut moves);
            let mut children = Vec::with_capacity(moves.len());
            let mut scratch = Vec::new();
            let mut child = state.clone();
            for &m in moves.iter() {
                scratch.clear();
                scratch.push(self.play(&mut child, m));
                self.auto_play(&mut child, &mut scratch);
                if seen.insert(child.key) {
                    *positions += 1;
                    let score = if child.on_foundations() == 52 { i32::MAX } else { self.evaluate(&child, &self.weights) };
                    children.push((score, m));
                }
                for &m in scratch.iter().rev() {
                    self.undo(&mut child, m);
                }
            }
            children.sort_by(|a, b| b.0.cmp(&a.0));
            children
        };
        let children = expand(&start, &mut seen, &mut positions);
        stack.push(Frame { state: start, children, next: 0, via });
        while let Some(frame) = stack.last_mut() {
            if frame.next >= frame.children.len() {
                stack.pop();
                continue;
            }
            if budget.exhausted(positions) {
                return Solution { verdict: Verdict::Unknown, line: Vec::new(), positions };
            }
            let (_, m) = frame.children[frame.next];
            frame.next += 1;
            let mut child = frame.state.clone();
            let played = self.play(&mut child, m);
            let mut via = vec![played];
            self.auto_play(&mut child, &mut via);
            if child.on_foundations() == 52 {
                let mut line: Vec<Move> = Vec::new();
                for f in stack.iter() {
                    line.extend_from_slice(&f.via);
                }
                line.extend_from_slice(&via);
                return Solution { verdict: Verdict::Won, line, positions };
            }
            let children = expand(&child, &mut seen, &mut positions);
            stack.push(Frame { state: child, children, next: 0, via });
        }
        Solution { verdict: Verdict::Lost, line: Vec::new(), positions }
    }

    /// The notation of a line, leaving out the moves the Python rules make by themselves.
    pub fn notation(&self, root: &State, line: &[Move]) -> Vec<String> {
        let mut s = root.clone();
        let mut out = Vec::with_capacity(line.len());
        for &m in line {
            let card = if m.src < 8 { s.top(m.src as usize) } else { s.cells[(m.src - 8) as usize] };
            let automatic = self.rules.auto_beak && m.dst == FOUNDATION && m.src < 8 && self.rules.shifted[card as usize] == 0;
            self.play(&mut s, m);
            if !automatic {
                out.push(m.notation());
            }
        }
        out
    }
}

fn parse_rules(rules: (usize, usize, u8, u8, u8, u8, u8), base: u8) -> Result<Rules, String> {
    let (columns, cells, suit, wrap, empty, unlimited, beak) = rules;
    let wrap = match wrap {
        0 => Wrap::None,
        1 => Wrap::Restricted,
        2 => Wrap::Full,
        _ => return Err(format!("unknown wrap rule {wrap}")),
    };
    Rules::new(columns, cells, suit != 0, wrap, empty != 0, unlimited != 0, beak != 0, base)
}

/// Solve a free-cell-family position: `(verdict, line, positions)`.
#[pyfunction]
#[pyo3(signature = (rules, columns, cells, foundations, base, max_nodes=None, max_seconds=None))]
#[allow(clippy::too_many_arguments)]
fn freecell_solve(
    py: Python<'_>,
    rules: (usize, usize, u8, u8, u8, u8, u8),
    columns: Vec<Vec<u8>>,
    cells: Vec<u8>,
    foundations: Vec<u8>,
    base: u8,
    max_nodes: Option<u64>,
    max_seconds: Option<f64>,
) -> PyResult<(String, Vec<String>, u64)> {
    let rules = parse_rules(rules, base).map_err(pyo3::exceptions::PyValueError::new_err)?;
    let solver = Solver::new(rules);
    let root = solver.state(&columns, &cells, &foundations).map_err(pyo3::exceptions::PyValueError::new_err)?;
    let solution = py.allow_threads(|| solver.solve(&root, &mut Budget::new(max_nodes, max_seconds)));
    let line = solver.notation(&root, &solution.line);
    Ok((solution.verdict.as_str().to_string(), line, solution.positions))
}

/// The engine's move generation, for tests: each move with the columns and cells after
/// it (and after the beak's automatic move, where the rules make it).
#[pyfunction]
#[pyo3(signature = (rules, columns, cells, foundations, base))]
fn freecell_successors(
    rules: (usize, usize, u8, u8, u8, u8, u8),
    columns: Vec<Vec<u8>>,
    cells: Vec<u8>,
    foundations: Vec<u8>,
    base: u8,
) -> PyResult<Vec<(String, Vec<Vec<u8>>, Vec<u8>)>> {
    let rules = parse_rules(rules, base).map_err(pyo3::exceptions::PyValueError::new_err)?;
    let solver = Solver::new(rules);
    let root = solver.state(&columns, &cells, &foundations).map_err(pyo3::exceptions::PyValueError::new_err)?;
    let mut moves = Vec::new();
    solver.moves(&root, &mut moves);
    let mut out = Vec::new();
    for m in moves {
        let mut s = root.clone();
        let played = solver.play(&mut s, m);
        if solver.rules.auto_beak {
            // The rules' own automatic move: an exposed beak goes to its empty foundation.
            for i in 0..solver.rules.columns {
                let top = s.top(i);
                if top != NO_CARD && solver.rules.shifted[top as usize] == 0 && s.found[(top / 13) as usize] == 0 {
                    solver.play(&mut s, mv(i as u8, FOUNDATION, 1));
                }
            }
        }
        let cols = (0..solver.rules.columns).map(|i| s.cols[i][..s.len[i] as usize].to_vec()).collect();
        let cells = s.cells[..solver.rules.cells].to_vec();
        out.push((played.notation(), cols, cells));
    }
    Ok(out)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(freecell_solve, m)?)?;
    m.add_function(wrap_pyfunction!(freecell_successors, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_of(solver: &Solver, cols: &[Vec<u8>], cells: &[u8], found: &[u8]) -> u128 {
        solver.state(cols, cells, found).unwrap().key
    }

    #[test]
    fn key_ignores_column_and_cell_order_but_not_contents() {
        let rules = Rules::new(3, 2, true, Wrap::None, false, false, false, 1).unwrap();
        let solver = Solver::new(rules);
        let mut rest: Vec<u8> = (0..52).collect();
        rest.retain(|c| ![0, 1, 2, 3, 14, 15].contains(c));
        let a = key_of(&solver, &[vec![0, 1], vec![2, 3], rest.clone()], &[14, 15], &[0, 0, 0, 0]);
        let b = key_of(&solver, &[vec![2, 3], rest.clone(), vec![0, 1]], &[15, 14], &[0, 0, 0, 0]);
        let c = key_of(&solver, &[vec![0, 3], vec![2, 1], rest.clone()], &[14, 15], &[0, 0, 0, 0]);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn play_and_undo_keep_the_key_incremental() {
        let rules = Rules::new(2, 1, true, Wrap::None, false, false, false, 1).unwrap();
        let solver = Solver::new(rules);
        let mut rest: Vec<u8> = (2..52).collect();
        rest.reverse();
        let mut s = solver.state(&[vec![0, 1], rest.clone()], &[NO_CARD], &[0, 0, 0, 0]).unwrap();
        solver.play(&mut s, mv(0, ANY_CELL, 1));
        let fresh = solver.state(&[vec![0], rest], &[1], &[0, 0, 0, 0]).unwrap();
        assert_eq!(s.key, fresh.key);
    }

    #[test]
    fn undo_restores_every_position_of_a_random_walk() {
        let rules = Rules::new(8, 4, false, Wrap::None, false, false, false, 1).unwrap();
        let solver = Solver::new(rules);
        let mut deck: Vec<u8> = (0..52).collect();
        let mut seed = 99u64;
        for i in (1..52).rev() {
            let j = (splitmix(&mut seed) % (i as u64 + 1)) as usize;
            deck.swap(i, j);
        }
        let columns: Vec<Vec<u8>> = (0..8).map(|c| deck.iter().skip(c).step_by(8).copied().collect()).collect();
        let mut s = solver.state(&columns, &[NO_CARD; 4], &[0; 4]).unwrap();
        let mut moves = Vec::new();
        for _ in 0..400 {
            solver.moves(&s, &mut moves);
            if moves.is_empty() {
                break;
            }
            let before = s.clone();
            for &m in moves.iter() {
                let played = solver.play(&mut s, m);
                solver.undo(&mut s, played);
                assert_eq!(s.key, before.key);
                assert_eq!(s.len, before.len);
                assert_eq!(s.cells, before.cells);
                assert_eq!(s.found, before.found);
            }
            let pick = moves[(splitmix(&mut seed) % moves.len() as u64) as usize];
            solver.play(&mut s, pick);
            let cols: Vec<Vec<u8>> = (0..8).map(|i| s.cols[i][..s.len[i] as usize].to_vec()).collect();
            let fresh = solver.state(&cols, &s.cells[..4], &s.found).unwrap();
            assert_eq!(fresh.key, s.key);
        }
    }
}
