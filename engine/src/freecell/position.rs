//! A position searched in place: columns of card bytes, cells, foundation counts, where
//! every card is, and a 128-bit key that is the same for positions that differ only by
//! the order of their columns or of their cells.
//!
//! The key is a sum over columns of a nonlinear mix of each column's Zobrist hash, plus
//! one Zobrist value per card in a cell; it is brought up to date in O(1) per card
//! moved. The foundations follow from the cards still on the table.

use std::cell::Cell;

use super::rules::{Build, Rules, Wrap, MAX_CELLS, MAX_COLUMNS, NO_CARD};

/// Room for the cards of a column: what a deal puts there (19 at most) and the run that
/// can grow on it ([`Rules::longest_run`]). Half a column is a cache line: a position is
/// copied whole wherever a line's positions are kept, so its size is the shortener's cost.
pub const MAX_HEIGHT: usize = 32;
/// `Move::dst` for the foundations.
pub const FOUNDATION: u8 = 16;
/// `Move::dst` in generation: the first empty cell.
pub const ANY_CELL: u8 = 8;
/// Where a card is when it is in a cell (`Position::place`), on top of the cell index.
pub const IN_CELL: u8 = 8;
/// Where a card is when it is on its foundation.
pub const HOME: u8 = 255;

/// An atomic move: `src` is a column (0..8) or a cell (8..16); `dst` a column, a cell
/// (8..16; `ANY_CELL` before it is played) or the foundation (`FOUNDATION`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub src: u8,
    pub dst: u8,
    pub count: u8,
    /// The card moved (the deepest one of a run), filled in when the move is played.
    pub card: u8,
}

#[inline]
pub fn mv(src: u8, dst: u8, count: u8) -> Move {
    Move { src, dst, count, card: NO_CARD }
}

impl Move {
    /// The Python notation: `3a`, `a5`, `2o`, `48x3`.
    pub fn notation(&self) -> String {
        let mut text = String::with_capacity(5);
        self.write_notation(&mut text);
        text
    }

    /// Append the notation to `text`.
    pub fn write_notation(&self, text: &mut String) {
        let token = |place: u8| -> char {
            if place == FOUNDATION {
                'o'
            } else if place < 8 {
                (b'1' + place) as char
            } else {
                (b'a' + place - 8) as char
            }
        };
        text.push(token(self.src));
        text.push(token(self.dst));
        if self.count > 1 {
            text.push('x');
            if self.count >= 10 {
                text.push((b'0' + self.count / 10) as char);
            }
            text.push((b'0' + self.count % 10) as char);
        }
    }
}

/// The random values behind the keys (fixed seed: keys are the same in every run).
pub struct Zobrist {
    at: Vec<u128>, // [height * 52 + card]
    cell: [u128; 52],
}

pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    pub fn new() -> Zobrist {
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

impl Default for Zobrist {
    fn default() -> Self {
        Zobrist::new()
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

/// A position, searched in place (`Game::play` and `Game::undo`).
#[derive(Debug)]
pub struct Position {
    pub cols: [[u8; MAX_HEIGHT]; MAX_COLUMNS],
    pub len: [u8; MAX_COLUMNS],
    pub cells: [u8; MAX_CELLS],
    pub found: [u8; 4],
    /// Where each card is: its column, `IN_CELL + cell`, or `HOME`.
    pub place: [u8; 52],
    /// Each card's height in its column (meaningful only for column cards).
    pub height: [u8; 52],
    col_hash: [u128; MAX_COLUMNS],
    /// Per column, bit `h` set when the card at height `h` starts a run (it is not on
    /// the card below it, or it is the bottom card): the runs read by bit scans instead
    /// of card by card. Bits at or above the column's height mean nothing.
    pub starts: [u32; MAX_COLUMNS],
    pub key: u128,
    /// Per column, for `Game::evaluate`: cards above a lower card, and breaks (cards not
    /// on their parent); recomputed only for the columns marked in `changed`.
    stats: Cell<[[u8; 2]; MAX_COLUMNS]>,
    changed: Cell<u8>,
    /// Empty cells and empty columns, kept up to date by every move (`Game::recount`
    /// sets them once a position is laid out).
    free: u8,
    empty: u8,
}

impl Clone for Position {
    /// One copy of the whole position (the shortener keeps one per move of a line).
    fn clone(&self) -> Self {
        // SAFETY: every field is plain data (integers, arrays of them, `Cell`s of
        // `Copy` values) with no `Drop`: a bitwise copy is a clone.
        unsafe { std::ptr::read(self) }
    }
}

impl Position {
    pub(super) fn empty() -> Position {
        Position {
            cols: [[NO_CARD; MAX_HEIGHT]; MAX_COLUMNS],
            len: [0; MAX_COLUMNS],
            cells: [NO_CARD; MAX_CELLS],
            found: [0; 4],
            place: [HOME; 52],
            height: [0; 52],
            col_hash: [0; MAX_COLUMNS],
            starts: [0; MAX_COLUMNS],
            key: 0,
            stats: Cell::new([[0; 2]; MAX_COLUMNS]),
            changed: Cell::new(u8::MAX),
            free: 0,
            empty: 0,
        }
    }

    /// Where the run ending below height `end` starts (`end` > 0), from a column's
    /// [`Position::starts`]: the highest start below `end` (the bottom card starts one).
    #[inline]
    pub fn run_start(starts: u32, end: usize) -> usize {
        let below = starts & ((1u64 << end) - 1) as u32;
        31 - (below | 1).leading_zeros() as usize
    }

    #[inline]
    pub fn top(&self, col: usize) -> u8 {
        let n = self.len[col] as usize;
        if n == 0 {
            NO_CARD
        } else {
            self.cols[col][n - 1]
        }
    }

    /// Put a card on a column (`on`: the rules' table of which card builds on which,
    /// [`Rules::on`]); the key is brought up to date by `rekey`.
    #[inline]
    pub(super) fn push(&mut self, col: usize, card: u8, z: &Zobrist, on: &[u64; 52]) {
        let n = self.len[col] as usize;
        let starts = n == 0 || (on[card as usize] >> self.cols[col][n - 1]) & 1 == 0;
        self.starts[col] = (self.starts[col] & !(1 << n)) | (starts as u32) << n;
        self.empty = self.empty.wrapping_sub((n == 0) as u8); // wraps only while laid out
        self.cols[col][n] = card;
        self.len[col] += 1;
        self.changed.set(self.changed.get() | 1 << col);
        self.place[card as usize] = col as u8;
        self.height[card as usize] = n as u8;
        self.col_hash[col] ^= z.at[n * 52 + card as usize];
    }

    #[inline]
    fn pop(&mut self, col: usize, z: &Zobrist) -> u8 {
        let n = self.len[col] as usize - 1;
        let card = self.cols[col][n];
        self.len[col] -= 1;
        self.empty = self.empty.wrapping_add((n == 0) as u8);
        self.changed.set(self.changed.get() | 1 << col);
        self.col_hash[col] ^= z.at[n * 52 + card as usize];
        card
    }

    /// The key after column `col` changed from the hash `old`.
    #[inline]
    pub(super) fn rekey(&mut self, col: usize, old: u128) {
        self.key = self.key.wrapping_sub(mix(old)).wrapping_add(mix(self.col_hash[col]));
    }

    #[inline]
    pub(super) fn set_cell(&mut self, cell: usize, card: u8, z: &Zobrist) {
        self.cells[cell] = card;
        self.free = self.free.wrapping_sub(1);
        self.place[card as usize] = IN_CELL + cell as u8;
        self.key = self.key.wrapping_add(z.cell[card as usize]);
    }

    #[inline]
    fn take_cell(&mut self, cell: usize, z: &Zobrist) -> u8 {
        let card = self.cells[cell];
        self.cells[cell] = NO_CARD;
        self.free = self.free.wrapping_add(1);
        self.key = self.key.wrapping_sub(z.cell[card as usize]);
        card
    }

    pub fn on_foundations(&self) -> u32 {
        self.found.iter().map(|&c| c as u32).sum()
    }

    #[inline]
    pub fn is_won(&self) -> bool {
        self.found == [13; 4]
    }
}

/// A preset's rules with the key tables: plays, takes back and generates moves.
pub struct Game {
    pub rules: Rules,
    pub(super) z: &'static Zobrist,
}

impl Game {
    pub fn new(rules: Rules) -> Game {
        static ZOBRIST: std::sync::OnceLock<Zobrist> = std::sync::OnceLock::new();
        Game { rules, z: ZOBRIST.get_or_init(Zobrist::new) }
    }

    /// A position from its columns (deepest card first), cells and foundation counts,
    /// checked to hold the 52 cards once each.
    pub fn position(&self, columns: &[Vec<u8>], cells: &[u8], found: &[u8]) -> Result<Position, String> {
        let r = &self.rules;
        if columns.len() != r.columns || cells.len() != r.cells || found.len() != 4 {
            return Err(format!("expected {} columns, {} cells and 4 foundations", r.columns, r.cells));
        }
        let mut s = Position::empty();
        let mut seen = [false; 52];
        let mut count = 0u32;
        let mut see = |card: u8| -> Result<(), String> {
            if card >= 52 || seen[card as usize] {
                return Err(format!("bad or repeated card {card}"));
            }
            seen[card as usize] = true;
            count += 1;
            Ok(())
        };
        for (i, column) in columns.iter().enumerate() {
            if column.len() + self.rules.longest_run() > MAX_HEIGHT {
                return Err(format!("column {} is too tall", i + 1));
            }
            for &card in column {
                see(card)?;
                s.push(i, card, self.z, &self.rules.on);
            }
            s.rekey(i, 0);
        }
        for (i, &card) in cells.iter().enumerate() {
            if card != NO_CARD {
                see(card)?;
                s.set_cell(i, card, self.z);
            }
        }
        for (suit, &n) in found.iter().enumerate() {
            if n > 13 {
                return Err("a foundation holds at most 13 cards".into());
            }
            s.found[suit] = n;
            for step in 0..n {
                let rank0 = (r.base - 1 + step) % 13;
                see(suit as u8 * 13 + rank0)?;
            }
        }
        if count != 52 {
            return Err("the position does not hold 52 cards".into());
        }
        self.recount(&mut s);
        Ok(s)
    }

    #[inline]
    pub fn accepts(&self, s: &Position, card: u8) -> bool {
        let suit = (card / 13) as usize;
        s.found[suit] < 13 && self.rules.shifted[card as usize] == s.found[suit]
    }

    /// May `card` (which the foundation accepts) go there without losing any win?
    ///
    /// In suit, nothing can be built on a card whose foundation wants it next (its own
    /// child is home already), except a base card under the full wrap (the last card
    /// of its suit goes on it). In alternate colours, Horne's rule: the opposite
    /// colour's foundations hold at least rank - 2 and the other suit of its colour
    /// at least rank - 3; then every card that could go on it can go home instead
    /// when it is uncovered, so any win keeps a win with the card home.
    #[inline]
    pub fn safe(&self, s: &Position, card: u8) -> bool {
        let sh = self.rules.shifted[card as usize];
        if sh == 0 {
            return self.rules.wrap != Wrap::Full;
        }
        if self.rules.build == Build::Suit {
            return true;
        }
        let suit = card / 13;
        let red = matches!(suit, 1 | 2);
        let (a, b) = if red { (0, 3) } else { (1, 2) };
        let same = match suit {
            0 => 3,
            3 => 0,
            1 => 2,
            _ => 1,
        };
        // Foundation counts hold the cards below: `found >= sh - 1` is rank - 2 home.
        let need = sh.saturating_sub(1);
        s.found[a] >= need && s.found[b] >= need && s.found[same as usize] >= sh.saturating_sub(2)
    }

    /// Is `card` a beak the rules will move home by themselves as soon as it is the
    /// top card of its column (so no move may take it anywhere else)?
    #[inline]
    pub fn pending_beak(&self, s: &Position, card: u8) -> bool {
        self.rules.auto_beak && self.rules.shifted[card as usize] == 0 && s.found[(card / 13) as usize] == 0
    }

    #[inline]
    pub fn free_cells(&self, s: &Position) -> usize {
        s.free as usize
    }

    #[inline]
    pub fn empty_columns(&self, s: &Position) -> usize {
        s.empty as usize
    }

    /// Count the empty cells and columns of a position laid out card by card (the
    /// moves keep the counts up to date after that).
    pub(super) fn recount(&self, s: &mut Position) {
        s.free = s.cells[..self.rules.cells].iter().filter(|&&c| c == NO_CARD).count() as u8;
        s.empty = s.len[..self.rules.columns].iter().filter(|&&l| l == 0).count() as u8;
    }

    /// How many cards at the top of column `col` form a run (1 for a lone top card).
    pub fn run_length(&self, s: &Position, col: usize) -> usize {
        let n = s.len[col] as usize;
        if n == 0 {
            return 0;
        }
        n - Position::run_start(s.starts[col], n)
    }

    /// Every legal move, up to equivalence of empty columns and of empty cells (a card
    /// for a cell goes to the first empty one; moves from a cell to another are left
    /// out, since the key does not see the order of the cells).
    pub fn moves(&self, s: &Position, out: &mut Vec<Move>) {
        out.clear();
        let r = &self.rules;
        let free = self.free_cells(s);
        let empty = self.empty_columns(s);
        let has_cell = free > 0;
        let first_empty = (0..r.columns).find(|&i| s.len[i] == 0);
        let limit = r.run_limit(free, empty, false);
        let limit_empty = if empty > 0 { r.run_limit(free, empty, true) } else { 0 };
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
            if has_cell {
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

    /// Play `m` (a card for `ANY_CELL` goes to the first empty cell); returns the move
    /// as played (its cell and card filled in), which `undo` takes back.
    #[inline]
    pub fn play(&self, s: &mut Position, m: Move) -> Move {
        let (z, on) = (self.z, &self.rules.on);
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
                    s.push(dst, card, z, on);
                }
                for _ in 0..count {
                    s.pop(src, z);
                }
                s.rekey(src, old_src);
            } else {
                let card = s.take_cell((m.src - 8) as usize, z);
                played.card = card;
                s.push(dst, card, z, on);
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
            s.place[card as usize] = HOME;
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
    pub fn undo(&self, s: &mut Position, m: Move) {
        self.take_back::<true>(s, m)
    }

    /// `undo`, bringing the key up to date only if `REKEY` (the caller who knows the key
    /// to come back to restores it itself: `undo_to_key`).
    #[inline]
    fn take_back<const REKEY: bool>(&self, s: &mut Position, m: Move) {
        let (z, on) = (self.z, &self.rules.on);
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
                    s.push(src, card, z, on);
                }
                for _ in 0..count {
                    s.pop(dst, z);
                }
                if REKEY {
                    s.rekey(src, old_src);
                }
            } else {
                let card = s.pop(dst, z);
                s.set_cell((m.src - 8) as usize, card, z);
            }
            if REKEY {
                s.rekey(dst, old_dst);
            }
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
            s.push(src, m.card, z, on);
            if REKEY {
                s.rekey(src, old);
            }
        } else {
            s.set_cell((m.src - 8) as usize, m.card, z);
        }
    }

    /// Take back every move of `done`, last first, and drop them, back to the position
    /// whose key was `key` (the key is not recomputed move by move).
    #[inline]
    pub fn undo_to_key(&self, s: &mut Position, done: &mut Vec<Move>, key: u128) {
        while let Some(m) = done.pop() {
            self.take_back::<false>(s, m);
        }
        s.key = key;
    }

    /// Play the automatic moves: the safe moves to the foundations (`safe`), which
    /// include the beak where the rules move it. Each is appended to `done`.
    pub fn auto_play(&self, s: &mut Position, done: &mut Vec<Move>) {
        self.auto_play_with(s, done, false)
    }

    /// As `auto_play`; when `eager`, every card the foundations accept goes there (a
    /// search that does this can miss wins, so it never answers *lost*).
    pub fn auto_play_with(&self, s: &mut Position, done: &mut Vec<Move>, eager: bool) {
        let r = &self.rules;
        loop {
            let mut moved = false;
            // Only the next card of each foundation can go home: look where it is.
            for suit in 0..4u8 {
                let count = s.found[suit as usize];
                if count == 13 {
                    continue;
                }
                let card = suit * 13 + (count + r.base - 1) % 13;
                let place = s.place[card as usize];
                let src = if place < IN_CELL {
                    if s.height[card as usize] + 1 != s.len[place as usize] {
                        continue; // covered
                    }
                    place
                } else if place != HOME {
                    place // a cell: 8 + its index
                } else {
                    continue;
                };
                if eager || self.safe(s, card) {
                    done.push(self.play(s, mv(src, FOUNDATION, 1)));
                    moved = true;
                }
            }
            if !moved {
                return;
            }
        }
    }

    /// Higher is better: cards home, free cells and empty columns, few cards covering
    /// the next card each foundation wants, few cards above a lower card, few breaks.
    /// `w`: those six weights.
    pub fn evaluate(&self, s: &Position, w: &[i32; 6]) -> i32 {
        let r = &self.rules;
        let free = self.free_cells(s) as i32;
        let empty = self.empty_columns(s) as i32;
        let mut score = w[0] * s.on_foundations() as i32 + w[1] * free + w[2] * empty;
        for suit in 0..4u8 {
            let count = s.found[suit as usize];
            if count < 13 {
                let next = suit * 13 + (count + r.base - 1) % 13;
                let col = s.place[next as usize];
                if col < IN_CELL {
                    let above = s.len[col as usize] - 1 - s.height[next as usize];
                    score -= w[3] * above as i32;
                }
            }
        }
        let mut stats = s.stats.get();
        let mut changed = s.changed.get();
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let c = &s.cols[i];
            let (mut above_lower, mut breaks, mut lowest) = (0u8, 0u8, 13u8);
            for d in 0..s.len[i] as usize {
                let sh = r.shifted[c[d] as usize];
                above_lower += (sh > lowest) as u8; // must move before a deeper card can go home
                lowest = lowest.min(sh);
                breaks += (d > 0 && !r.builds_on(c[d], c[d - 1])) as u8;
            }
            stats[i] = [above_lower, breaks];
        }
        s.stats.set(stats);
        s.changed.set(0);
        for column in &stats[..r.columns] {
            score -= w[4] * column[0] as i32 + w[5] * column[1] as i32;
        }
        score
    }

    /// The columns and cells of a position, as the Python side lists them.
    pub fn layout(&self, s: &Position) -> (Vec<Vec<u8>>, Vec<u8>) {
        let cols = (0..self.rules.columns).map(|i| s.cols[i][..s.len[i] as usize].to_vec()).collect();
        (cols, s.cells[..self.rules.cells].to_vec())
    }

    /// Is `m` (as played: it tells its card) one of the moves the Python rules make by
    /// themselves, the beak going home where the rules move it? (Left out of lines.)
    #[inline]
    pub fn automatic(&self, m: &Move) -> bool {
        let r = &self.rules;
        r.auto_beak && m.dst == FOUNDATION && m.src < 8 && m.card != NO_CARD && r.shifted[m.card as usize] == 0
    }

    /// The notation of a line of moves as played (each with its card), separated by
    /// spaces, leaving out the moves the Python rules make by themselves (the beak going
    /// home, where the rules move it).
    pub fn notation(&self, line: &[Move]) -> String {
        let mut out = String::with_capacity(line.len() * 4);
        for m in line {
            if !self.automatic(m) {
                if !out.is_empty() {
                    out.push(' ');
                }
                m.write_notation(&mut out);
            }
        }
        out
    }
}
