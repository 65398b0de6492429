//! The free-cell family as [`crate::shorten`] sees it.
//!
//! Positions are the search's own, keyed as it keys them (the order of columns and of
//! cells does not count). A move made in one position is made in another of the same
//! key column for column (the columns matched by their cards) and card for card (a
//! card in a cell is found by the card, a card for a cell goes to the first empty one).
//! Where the rules move the beak home by themselves, `play` does it too, as the Python
//! rules do; the line holds the player's moves only.

use super::mv;
use super::position::{Game, Move, Position, ANY_CELL, FOUNDATION};
use super::rules::{MAX_COLUMNS, NO_CARD};
use crate::shorten::{self, Domain, Joined, Limits, Stats};

pub struct FreeCellLines<'a> {
    pub game: &'a Game,
    /// Cards a move can send home: one, two where the rules send the beak after it.
    per_move: u32,
}

impl<'a> FreeCellLines<'a> {
    pub fn new(game: &'a Game) -> Self {
        FreeCellLines { game, per_move: if game.rules.auto_beak { 2 } else { 1 } }
    }
}

impl FreeCellLines<'_> {
    /// The moves `home` cards going home take at least (a shift, not a division: this
    /// runs for every pair of positions the search for shortcuts compares).
    #[inline]
    fn home_moves(&self, home: u32) -> u32 {
        (home + self.per_move - 1) >> (self.per_move - 1)
    }

    /// The card a move takes (the deepest of a run), in `s`.
    fn card(&self, s: &Position, m: Move) -> u8 {
        if m.src < 8 {
            let n = s.len[m.src as usize] as usize;
            if n < m.count as usize || m.count == 0 {
                return NO_CARD;
            }
            s.cols[m.src as usize][n - m.count as usize]
        } else {
            s.cells[(m.src - 8) as usize]
        }
    }

    /// `m` with its source cell the one that holds its card in `s` (a move as played
    /// tells its card; along an edited line the cards in cells may sit in other cells).
    fn resolve(&self, s: &Position, m: Move) -> Move {
        if m.src >= 8 && m.src != FOUNDATION && m.card != NO_CARD && s.cells.get((m.src - 8) as usize) != Some(&m.card) {
            if let Some(c) = s.cells[..self.game.rules.cells].iter().position(|&c| c == m.card) {
                return Move { src: 8 + c as u8, ..m };
            }
        }
        m
    }

    /// The beak home where the rules put it there by themselves.
    fn settle(&self, s: &mut Position) {
        let r = &self.game.rules;
        if !r.auto_beak {
            return;
        }
        loop {
            let mut moved = false;
            for i in 0..r.columns {
                let top = s.top(i);
                if top != NO_CARD && self.game.pending_beak(s, top) {
                    self.game.play(s, mv(i as u8, FOUNDATION, 1));
                    moved = true;
                }
            }
            if !moved {
                return;
            }
        }
    }
}

/// A move made in place and the beak cards the rules then sent home (four at most).
#[derive(Clone, Copy)]
pub struct Undo {
    moves: [Move; 5],
    count: u8,
}

/// What `near` compares: each column's height, top and bottom card (in place: along a
/// line the columns keep their places), the cards in cells, the cards home.
#[derive(Clone)]
pub struct Sig {
    cols: [u32; MAX_COLUMNS],
    cells: u64,
    home: u32,
}

/// How many bits `x` has, three for three or more (all a lower bound needs: the
/// baseline x86-64 has no popcount instruction, and `count_ones` is a dozen without).
#[inline]
fn bits_upto3(x: u64) -> u32 {
    let y = x & x.wrapping_sub(1); // the lowest bit off
    let z = y & y.wrapping_sub(1);
    (x != 0) as u32 + (y != 0) as u32 + (z != 0) as u32
}

/// How many columns two summaries differ in (one pass the compiler makes vector
/// compares of).
#[inline]
fn changed_columns(a: &Sig, b: &Sig) -> u32 {
    let mut n = 0;
    for c in 0..MAX_COLUMNS {
        n += (a.cols[c] != b.cols[c]) as u32;
    }
    n
}

impl Domain for FreeCellLines<'_> {
    type State = Position;
    type Move = Move;
    type Perm = [u8; MAX_COLUMNS];
    type Sig = Sig;
    type Undo = Undo;

    fn sig(&self, s: &Position) -> Sig {
        let mut cols = [0u32; MAX_COLUMNS];
        for (i, c) in cols.iter_mut().enumerate() {
            let n = s.len[i] as usize;
            if n > 0 {
                *c = (n as u32) << 16 | (s.cols[i][n - 1] as u32) << 8 | s.cols[i][0] as u32;
            }
        }
        let mut cells = 0u64;
        for &card in &s.cells[..self.game.rules.cells] {
            if card != NO_CARD {
                cells |= 1 << card;
            }
        }
        Sig { cols, cells, home: s.on_foundations() }
    }

    fn near(&self, a: &Sig, b: &Sig) -> u32 {
        // A move sends one card home (and the beak, where the rules move it).
        let per_move = self.per_move;
        let home = b.home.saturating_sub(a.home);
        if home > 2 * per_move {
            return u32::MAX;
        }
        // A move changes two columns at most, and one cell (told first: when the cells
        // are far apart, so are the positions).
        let cells = bits_upto3(a.cells ^ b.cells);
        if cells > 2 {
            return cells;
        }
        let cols = changed_columns(a, b);
        self.home_moves(home).max(cols.div_ceil(2)).max(cells)
    }

    fn one_apart(&self, a: &Sig, b: &Sig) -> Option<bool> {
        // `far` and `near` for one move, each part told as soon as it decides.
        if b.home.saturating_sub(a.home) > self.per_move {
            return None;
        }
        let cells = a.cells ^ b.cells;
        Some(cells & cells.wrapping_sub(1) == 0 && changed_columns(a, b) <= 2)
    }

    fn far(&self, a: &Sig, b: &Sig, moves: u32) -> bool {
        // Cards only go home along a line, a move sends one (two with the beak).
        let per_move = self.per_move;
        b.home.saturating_sub(a.home) > moves * per_move
    }

    fn after(&self, s: &Position, a: &Sig, m: Move) -> Option<Sig> {
        let mut sig = Sig { cols: a.cols, cells: a.cells, home: a.home };
        let card = self.card(s, m);
        if m.src < 8 {
            let c = m.src as usize;
            let n = s.len[c] as usize - m.count as usize;
            sig.cols[c] = if n == 0 { 0 } else { (n as u32) << 16 | (s.cols[c][n - 1] as u32) << 8 | s.cols[c][0] as u32 };
            if self.game.rules.auto_beak && n > 0 && self.game.pending_beak(s, s.cols[c][n - 1]) {
                return None; // the rules move it home
            }
        } else {
            sig.cells &= !(1u64 << card);
        }
        if m.dst == FOUNDATION {
            sig.home += 1;
        } else if m.dst >= 8 {
            sig.cells |= 1 << card;
        } else {
            let c = m.dst as usize;
            let n = s.len[c] as usize;
            let bottom = if n == 0 { card } else { s.cols[c][0] };
            // The run's top card goes on top (the card itself from a cell).
            let top = if m.src < 8 { s.top(m.src as usize) } else { card };
            sig.cols[c] = ((n + m.count as usize) as u32) << 16 | (top as u32) << 8 | bottom as u32;
        }
        Some(sig)
    }

    const BRIDGES: bool = true;

    fn alone(&self, before: &Position, m: Move, after: &Position) -> bool {
        after.on_foundations() == before.on_foundations() + (m.dst == FOUNDATION) as u32
    }

    fn bridge(&self, s: &Position, a: &Sig, b: &Sig) -> Option<Move> {
        let gone = a.cells & !b.cells;
        let came = b.cells & !a.cells;
        if bits_upto3(gone) > 1 || bits_upto3(came) > 1 || b.home < a.home {
            return None;
        }
        let home = b.home > a.home;
        let height = |sig: &Sig, c: usize| sig.cols[c] >> 16;
        let mut changed = [0usize; 2];
        let mut count = 0;
        for c in 0..MAX_COLUMNS {
            if a.cols[c] != b.cols[c] {
                if count == 2 {
                    return None;
                }
                changed[count] = c;
                count += 1;
            }
        }
        let cell_of = |card: u32| (0..self.game.rules.cells).find(|&c| s.cells[c] as u32 == card).map(|c| 8 + c as u8);
        let (src, dst, n) = match count {
            2 => {
                let (x, y) = (changed[0], changed[1]);
                // The column that grew takes the run (the other may lose a beak card too).
                let (src, dst) = if height(b, y) > height(a, y) { (x, y) } else { (y, x) };
                let grown = height(b, dst).checked_sub(height(a, dst)).filter(|&g| g > 0)?;
                (src as u8, dst as u8, grown as u8)
            }
            1 => {
                let c = changed[0];
                if height(b, c) < height(a, c) {
                    let dst = if came != 0 {
                        ANY_CELL
                    } else if home {
                        FOUNDATION
                    } else {
                        return None;
                    };
                    (c as u8, dst, 1)
                } else {
                    (cell_of(gone.trailing_zeros())?, c as u8, 1)
                }
            }
            0 if gone != 0 && home => (cell_of(gone.trailing_zeros())?, FOUNDATION, 1),
            _ => return None,
        };
        Some(Move { src, dst, count: n, card: NO_CARD })
    }

    fn covers(&self, _s: &Position, a: &Sig, b: &Sig, m: Move, left: u32) -> bool {
        // Columns other than the move's, cells, cards home: what is still different
        // after the move needs moves of its own (beak cards the rules send home come
        // from the move's source column).
        let per_move = self.per_move;
        let mut home = b.home.saturating_sub(a.home);
        if m.dst == FOUNDATION {
            home = home.saturating_sub(per_move);
        }
        let own = |c: u8| (c < 8 && a.cols[c as usize] != b.cols[c as usize]) as u32;
        let cols = changed_columns(a, b) - own(m.src) - own(m.dst);
        let cell = (m.src >= 8 || (m.dst >= 8 && m.dst != FOUNDATION)) as u32;
        let cells = bits_upto3(a.cells ^ b.cells).saturating_sub(cell);
        self.home_moves(home).max(cols.div_ceil(2)).max(cells) <= left
    }

    fn key(&self, s: &Position) -> u128 {
        s.key
    }

    fn moves(&mut self, s: &Position, out: &mut Vec<Move>) {
        self.game.moves(s, out);
        if self.game.rules.auto_beak {
            // A beak is never moved by hand where the rules move it.
            out.retain(|m| {
                let card = self.card(s, *m);
                card == NO_CARD || !self.game.pending_beak(s, card) || m.dst == FOUNDATION
            });
        }
    }

    fn differ(&self, a: &Sig, b: &Sig) -> u32 {
        (0..MAX_COLUMNS).filter(|&c| a.cols[c] != b.cols[c]).fold(0, |mask, c| mask | 1 << c)
    }

    fn moves_toward(&mut self, s: &Position, mask: u32, out: &mut Vec<Move>) {
        // `Game::moves`, from and to the columns of `mask` only (and from the cells).
        out.clear();
        let g = self.game;
        let r = &g.rules;
        let inside = |c: usize| mask >> c & 1 != 0;
        let (free, empty) = (g.free_cells(s), g.empty_columns(s));
        let first_empty = (0..r.columns).find(|&i| s.len[i] == 0);
        let limit = r.run_limit(free, empty, false);
        let limit_empty = if empty > 0 { r.run_limit(free, empty, true) } else { 0 };
        let beak = |card: u8| r.auto_beak && g.pending_beak(s, card);
        for i in 0..r.columns {
            let n = s.len[i] as usize;
            if n == 0 {
                continue;
            }
            let top = s.cols[i][n - 1];
            let mine = inside(i);
            if !mine {
                continue;
            }
            if g.accepts(s, top) {
                out.push(mv(i as u8, FOUNDATION, 1));
            }
            if beak(top) {
                continue; // the rules move it home
            }
            let run = g.run_length(s, i);
            let reach = run.min(limit);
            let top_rank = r.shifted[top as usize] as usize;
            for j in 0..r.columns {
                if j == i || s.len[j] == 0 || !inside(j) {
                    continue;
                }
                let target = s.top(j);
                let k = (r.shifted[target as usize] as usize + 13 - top_rank) % 13;
                if k >= 1 && k <= reach && r.builds_on(s.cols[i][n - k], target) && !beak(s.cols[i][n - k]) {
                    out.push(mv(i as u8, j as u8, k as u8));
                }
            }
            if let Some(j) = first_empty.filter(|&j| inside(j)) {
                for k in 1..=run.min(limit_empty).min(n - 1) {
                    if r.fills[s.cols[i][n - k] as usize] && !beak(s.cols[i][n - k]) {
                        out.push(mv(i as u8, j as u8, k as u8));
                    }
                }
            }
            if free > 0 {
                out.push(mv(i as u8, ANY_CELL, 1));
            }
        }
        for c in 0..r.cells {
            let card = s.cells[c];
            if card == NO_CARD {
                continue;
            }
            let src = (8 + c) as u8;
            if g.accepts(s, card) {
                out.push(mv(src, FOUNDATION, 1));
            }
            if beak(card) {
                continue;
            }
            for j in 0..r.columns {
                if inside(j) && s.len[j] != 0 && r.builds_on(card, s.top(j)) {
                    out.push(mv(src, j as u8, 1));
                }
            }
            if let Some(j) = first_empty.filter(|&j| inside(j)) {
                if r.fills[card as usize] {
                    out.push(mv(src, j as u8, 1));
                }
            }
        }
    }

    fn legal(&mut self, s: &Position, m: Move) -> bool {
        let m = self.resolve(s, m);
        let g = self.game;
        let r = &g.rules;
        let card = self.card(s, m);
        if card == NO_CARD || m.count == 0 {
            return false;
        }
        if m.src >= 8 && ((m.src - 8) as usize >= r.cells || m.count != 1) {
            return false;
        }
        if m.src < 8 && (m.src as usize >= r.columns || g.run_length(s, m.src as usize) < m.count as usize) {
            return false;
        }
        if g.pending_beak(s, card) && m.dst != FOUNDATION {
            return false;
        }
        if m.dst == FOUNDATION {
            return m.count == 1 && g.accepts(s, card);
        }
        if m.dst >= 8 {
            // Cell to cell too (the rules allow it; the key does not see it).
            return m.count == 1 && g.free_cells(s) > 0;
        }
        let dst = m.dst as usize;
        if dst >= r.columns || dst == m.src as usize {
            return false;
        }
        let (free, empty) = (g.free_cells(s), g.empty_columns(s));
        if s.len[dst] == 0 {
            if !r.fills[card as usize] {
                return false;
            }
            // A whole column into an empty one changes nothing.
            if m.src < 8 && s.len[m.src as usize] == m.count {
                return false;
            }
            m.count as usize <= r.run_limit(free, empty, true)
        } else {
            r.builds_on(card, s.top(dst)) && m.count as usize <= r.run_limit(free, empty, false)
        }
    }

    fn play(&mut self, s: &Position, m: Move) -> (Position, Move) {
        let m = self.resolve(s, m);
        let mut next = s.clone();
        let m = if m.dst >= 8 && m.dst != FOUNDATION { Move { dst: ANY_CELL, ..m } } else { m };
        let played = self.game.play(&mut next, m);
        self.settle(&mut next);
        (next, played)
    }

    fn play_in(&mut self, s: &mut Position, m: Move) -> (Move, Undo) {
        let m = self.resolve(s, m);
        let m = if m.dst >= 8 && m.dst != FOUNDATION { Move { dst: ANY_CELL, ..m } } else { m };
        let played = self.game.play(s, m);
        let mut undo = Undo { moves: [played; 5], count: 1 };
        let r = &self.game.rules;
        if r.auto_beak && m.src < 8 {
            // `settle`, each move kept to be taken back: along a line, positions are
            // settled, so a beak can only be turned up in the column the cards left.
            let c = m.src as usize;
            loop {
                let top = s.top(c);
                if top == NO_CARD || !self.game.pending_beak(s, top) || undo.count as usize == undo.moves.len() {
                    break;
                }
                undo.moves[undo.count as usize] = self.game.play(s, mv(c as u8, FOUNDATION, 1));
                undo.count += 1;
            }
        }
        (played, undo)
    }

    fn undo_in(&mut self, s: &mut Position, undo: Undo) {
        for &m in undo.moves[..undo.count as usize].iter().rev() {
            self.game.undo(s, m);
        }
    }

    fn won(&self, s: &Position) -> bool {
        s.is_won()
    }

    fn same(&self, a: &Position, b: &Position) -> bool {
        // The cells as a set (the key counts them so): a move from a cell is made from
        // the cell that holds its card.
        a.key == b.key
            && a.len == b.len
            && (0..self.game.rules.columns).all(|i| a.cols[i][..a.len[i] as usize] == b.cols[i][..b.len[i] as usize])
    }

    fn perm(&self, from: &Position, to: &Position) -> [u8; MAX_COLUMNS] {
        let columns = self.game.rules.columns;
        let mut perm = [0u8; MAX_COLUMNS];
        let mut used = [false; MAX_COLUMNS];
        for i in 0..columns {
            let a = &from.cols[i][..from.len[i] as usize];
            let j = (0..columns).find(|&j| !used[j] && &to.cols[j][..to.len[j] as usize] == a).unwrap_or(i);
            used[j] = true;
            perm[i] = j as u8;
        }
        perm
    }

    fn identity(&self) -> [u8; MAX_COLUMNS] {
        std::array::from_fn(|i| i as u8)
    }

    fn translate(&self, perm: &[u8; MAX_COLUMNS], m: Move, from: &Position, to: &Position) -> Option<Move> {
        // A move as played tells its card.
        let card = if m.card != NO_CARD { m.card } else { self.card(from, m) };
        if card == NO_CARD {
            return None;
        }
        let src = if m.src < 8 {
            perm[m.src as usize]
        } else {
            let cell = (0..self.game.rules.cells).find(|&c| to.cells[c] == card)?;
            8 + cell as u8
        };
        let dst = if m.dst < 8 {
            perm[m.dst as usize]
        } else if m.dst == FOUNDATION {
            FOUNDATION
        } else {
            ANY_CELL
        };
        Some(Move { src, dst, count: m.count, card })
    }

    fn join(&self, a: Move, b: Move) -> Joined<Move> {
        // (A card in a cell is told by the card, not the cell.) Most moves that touch
        // move other cards: told first.
        if a.card != b.card || a.count != b.count {
            return Joined::Apart;
        }
        let from_there = if a.dst < 8 { b.src == a.dst } else { b.src >= 8 };
        if a.dst == FOUNDATION || !from_there || a.count != b.count || a.card != b.card || a.card == NO_CARD {
            return Joined::Apart;
        }
        let back = if a.src < 8 { b.dst == a.src } else { b.dst >= 8 && b.dst != FOUNDATION };
        if back {
            Joined::Back
        } else {
            Joined::Into(Move { src: a.src, dst: b.dst, count: a.count, card: a.card })
        }
    }

    fn places(&self, m: Move) -> [u8; 2] {
        // A cell is told apart by the card in it (an edited line may keep it in another
        // cell); the foundation is no place a move undoes.
        let cell = |place: u8| if m.card == NO_CARD { place } else { 8 + m.card };
        let src = if m.src < 8 { m.src } else { cell(m.src) };
        let dst = if m.dst < 8 {
            m.dst
        } else if m.dst == FOUNDATION {
            shorten::NOWHERE
        } else {
            cell(m.dst)
        };
        [src, dst]
    }
}

thread_local! {
    /// The positions of the last line shortened on this thread, their memory kept for
    /// the next (memory a new allocation would bring in cold: the positions are half a
    /// kilobyte each, a line makes a few hundred).
    static ARENA: std::cell::Cell<Vec<Position>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Shorten a winning line (moves as played, from `root`) within `limits`: each move
/// checked, a line that does not play or win returned as it is.
pub fn shorten(game: &Game, root: &Position, line: &[Move], limits: &Limits) -> (Vec<Move>, Stats) {
    shorten_line(game, root, line, limits, false)
}

/// [`shorten`] for a line this engine's search found (its moves are legal: checked in
/// debug builds only).
pub fn shorten_own(game: &Game, root: &Position, line: &[Move], limits: &Limits) -> (Vec<Move>, Stats) {
    shorten_line(game, root, line, limits, true)
}

fn shorten_line(game: &Game, root: &Position, line: &[Move], limits: &Limits, own: bool) -> (Vec<Move>, Stats) {
    let mut domain = FreeCellLines::new(game);
    let mut start = root.clone();
    domain.settle(&mut start);
    // The player's moves only (the rules make the automatic ones), each card in a cell
    // found by the card (moves from cell to cell change nothing the key sees: left out).
    let mut cells = [NO_CARD; 8];
    cells[..game.rules.cells].copy_from_slice(&start.cells[..game.rules.cells]);
    let mine: Vec<Move> = line.iter().copied().filter(|m| !game.automatic(m)).collect();
    let arena = ARENA.with(|arena| arena.take());
    let mut path = shorten::Path::start_in(&domain, &start, mine.len(), limits.depth >= 1, arena);
    let mut complete = true;
    for &m in mine.iter() {
        let at = path.last();
        let card = if m.src >= 8 && m.src != FOUNDATION { cells[(m.src - 8) as usize] } else { domain.card(at, m) };
        if card == NO_CARD || m.src == FOUNDATION {
            complete = false; // not a line of the rules: `shorten` refuses it as it is
            break;
        }
        if m.src >= 8 {
            cells[(m.src - 8) as usize] = NO_CARD;
        }
        if m.dst >= 8 && m.dst != FOUNDATION {
            cells[(m.dst - 8) as usize] = card;
            if m.src >= 8 {
                continue;
            }
        }
        let src = if m.src >= 8 { 8 + at.cells.iter().position(|&c| c == card).unwrap_or(0) as u8 } else { m.src };
        if own {
            path.push_own(&mut domain, Move { src, ..m });
        } else if !path.push(&mut domain, Move { src, ..m }) {
            complete = false;
            break;
        }
    }
    let (mut out, mut stats) = if !complete {
        shorten::shorten(&mut domain, &start, &mine, limits) // refused as it is
    } else if !path.last().is_won() {
        let n = path.moves.len();
        (std::mem::take(&mut path.moves), Stats { before: n, after: n, ..Stats::default() })
    } else {
        let stats = shorten::shorten_path(&mut domain, &mut path, limits);
        let mut out = std::mem::take(&mut path.moves);
        name_cells(&start.cells[..game.rules.cells], &mut out);
        (out, stats)
    };
    ARENA.with(|arena| arena.replace(path.into_arena()));
    out.retain(|m| !game.automatic(m));
    stats.after = out.len();
    (out, stats)
}

/// Each move from or to a cell named by the cell its card is in, or goes to, along
/// the line (a move as played tells its card; an edited line may have its cards in
/// other cells than the line it came from). Only the cells are followed: a card goes to
/// the first empty cell, as [`Game::play`] puts it.
fn name_cells(start: &[u8], line: &mut [Move]) {
    let mut cells = [NO_CARD; 8];
    cells[..start.len()].copy_from_slice(start);
    let cells = &mut cells[..start.len()];
    for m in line.iter_mut() {
        if m.src >= 8 && m.src != FOUNDATION {
            if let Some(c) = cells.iter().position(|&c| c == m.card) {
                cells[c] = NO_CARD;
                m.src = 8 + c as u8;
            }
        }
        if m.dst >= 8 && m.dst != FOUNDATION {
            if let Some(c) = cells.iter().position(|&c| c == NO_CARD) {
                cells[c] = m.card;
                m.dst = 8 + c as u8;
            }
        }
    }
}

/// The moves of a line in the Python notation (`3a`, `a5`, `2o`, `48x3`), separated by
/// spaces; `None` on a word that is not a move.
pub fn parse_line(text: &str) -> Option<Vec<Move>> {
    let place = |c: u8| -> Option<u8> {
        match c {
            b'1'..=b'8' => Some(c - b'1'),
            b'a'..=b'h' => Some(8 + c - b'a'),
            b'o' => Some(FOUNDATION),
            _ => None,
        }
    };
    text.split_whitespace()
        .map(|word| {
            let bytes = word.as_bytes();
            if bytes.len() < 2 {
                return None;
            }
            let count = match &bytes[2..] {
                [] => 1,
                [b'x', digits @ ..] => std::str::from_utf8(digits).ok()?.parse::<u8>().ok()?,
                _ => return None,
            };
            Some(Move { src: place(bytes[0])?, dst: place(bytes[1])?, count, card: NO_CARD })
        })
        .collect()
}

/// The limits of a free-cell shortening after a search that ends at `deadline`: `depth`
/// as [`Limits::depth`], `tries` positions at most.
pub fn limits(deadline: Option<std::time::Instant>, depth: u8, tries: Option<u64>) -> Limits {
    Limits { deadline, max_tries: tries.unwrap_or(DEFAULT_TRIES), depth: depth.min(2), rounds: 1, research: 0, research_depth: 0 }
}

/// Positions a free-cell shortening may make when the caller does not say (a line of a
/// hundred moves makes about two thousand).
pub const DEFAULT_TRIES: u64 = 20_000;

#[cfg(test)]
mod tests {
    use super::super::{presets, Build, EmptyColumn, Rules, Runs, Solver, Wrap};
    use super::*;
    use crate::search::{Budget, Outcome};
    use std::borrow::Cow;

    fn deal(seed: u64) -> Vec<Vec<u8>> {
        let mut deck: Vec<u8> = (0..52).collect();
        let mut state = seed;
        for i in (1..52).rev() {
            let j = (super::super::position::splitmix(&mut state) % (i as u64 + 1)) as usize;
            deck.swap(i, j);
        }
        (0..8).map(|c| deck.iter().skip(c).step_by(8).copied().collect()).collect()
    }

    /// Replay `line` from `root` with the rules' checks; the keys of its positions.
    fn keys(game: &Game, root: &Position, line: &[Move]) -> Vec<u128> {
        let mut domain = FreeCellLines::new(game);
        let (states, _) = shorten::replay(&mut domain, root, line).expect("the line plays");
        assert!(states.last().unwrap().is_won(), "the line wins");
        states.iter().map(|s| s.key).collect()
    }

    #[test]
    fn lines_get_shorter_and_never_repeat_a_position() {
        let rules = Rules::new(8, 4, Build::Alternate, Wrap::None, EmptyColumn::Any, Runs::Supermove, false, 1).unwrap();
        let solver = Solver::new(rules, Cow::Borrowed(presets::named("default").unwrap()));
        for seed in 1..20 {
            let root = solver.game.position(&deal(seed), &[NO_CARD; 4], &[0; 4]).unwrap();
            let found = solver.solve(&root, &mut Budget::new(Some(200_000), None));
            if found.outcome != Outcome::Won {
                continue;
            }
            // A loop put in: the first card to a cell goes to another cell and back.
            let mut line = found.line.clone();
            if let Some(k) = line.iter().position(|m| m.dst >= 8 && m.dst != FOUNDATION) {
                let cell = line[k].dst;
                let other = if cell == 8 { 11 } else { 8 };
                let (a, b) =
                    (Move { src: cell, dst: other, count: 1, card: NO_CARD }, Move { src: other, dst: cell, count: 1, card: NO_CARD });
                line.splice(k + 1..k + 1, [a, b]);
            }
            for depth in 0..=2 {
                let (short, stats) = shorten(&solver.game, &root, &line, &limits(None, depth, None));
                assert!(short.len() < line.len() || line.len() == found.line.len(), "seed {seed} depth {depth}");
                assert!(short.len() <= found.line.len(), "seed {seed} depth {depth}");
                assert_eq!(stats.after, short.len());
                let seen = keys(&solver.game, &root, &short);
                let mut unique = seen.clone();
                unique.sort_unstable();
                unique.dedup();
                assert_eq!(unique.len(), seen.len(), "seed {seed} depth {depth}: a position twice");
            }
        }
    }

    #[test]
    fn the_search_own_lines_shorten_alike_checked_or_not_and_with_a_kept_arena() {
        // `shorten_own` skips the legality checks of the walk and keeps its positions'
        // memory for the next line on the thread: neither may change a line.
        let freecell = Rules::new(8, 4, Build::Alternate, Wrap::None, EmptyColumn::Any, Runs::Supermove, false, 1).unwrap();
        let bakers = Rules::new(8, 4, Build::Suit, Wrap::None, EmptyColumn::Any, Runs::Supermove, false, 1).unwrap();
        let mut compared = 0;
        for seed in 1..12 {
            // Games in turn, so each line starts on an arena another game's line left.
            let rules = if seed % 2 == 0 { bakers.clone() } else { freecell.clone() };
            let solver = Solver::new(rules, Cow::Borrowed(presets::named("default").unwrap()));
            let root = solver.game.position(&deal(seed), &[NO_CARD; 4], &[0; 4]).unwrap();
            let found = solver.solve(&root, &mut Budget::new(Some(200_000), None));
            if found.outcome != Outcome::Won {
                continue;
            }
            for depth in 0..=2 {
                let limits = limits(None, depth, None);
                let checked = shorten(&solver.game, &root, &found.line, &limits);
                let own = shorten_own(&solver.game, &root, &found.line, &limits);
                let again = shorten_own(&solver.game, &root, &found.line, &limits);
                assert_eq!(format!("{:?}", checked.0), format!("{:?}", own.0), "seed {seed} depth {depth}");
                assert_eq!(format!("{:?}", own.0), format!("{:?}", again.0), "seed {seed} depth {depth}");
                keys(&solver.game, &root, &own.0);
                compared += 1;
            }
        }
        assert!(compared >= 15);
    }

    #[test]
    fn the_summary_after_a_move_is_the_summary_of_the_position_after_it() {
        // A line's positions keep the summary `after` tells (where it tells one).
        let rules = Rules::new(8, 4, Build::Suit, Wrap::None, EmptyColumn::Any, Runs::Supermove, true, 1).unwrap();
        for rules in [rules, Rules::new(8, 4, Build::Alternate, Wrap::None, EmptyColumn::Any, Runs::Supermove, false, 1).unwrap()] {
            let solver = Solver::new(rules, Cow::Borrowed(presets::named("default").unwrap()));
            let mut domain = FreeCellLines::new(&solver.game);
            let mut told = 0;
            for seed in 1..6 {
                let mut root = solver.game.position(&deal(seed), &[NO_CARD; 4], &[0; 4]).unwrap();
                domain.settle(&mut root); // (as `shorten` starts: a line's positions are settled)
                let found = solver.solve(&root, &mut Budget::new(Some(200_000), None));
                // The player's moves (the rules make the beak's), as the shortener walks them.
                let mine: Vec<Move> = found.line.iter().copied().filter(|m| !solver.game.automatic(m)).collect();
                let Some((states, played)) = shorten::replay(&mut domain, &root, &mine) else { continue };
                for (k, &m) in played.iter().enumerate() {
                    let Some(next) = domain.after(&states[k], &domain.sig(&states[k]), m) else { continue };
                    let real = domain.sig(&states[k + 1]);
                    assert_eq!((next.cols, next.cells, next.home), (real.cols, real.cells, real.home), "seed {seed}, move {k}: {m:?}");
                    told += 1;
                }
            }
            assert!(told > 100, "{told}");
        }
    }

    #[test]
    fn one_apart_says_what_far_and_near_say() {
        // The one-step question of the search for shortcuts, against the two it stands
        // for, on every pair of positions of lines within the window (Penguin's rules
        // too: the beak goes home with the move that uncovers it).
        let freecell = Rules::new(8, 4, Build::Alternate, Wrap::None, EmptyColumn::Any, Runs::Supermove, false, 1).unwrap();
        let beak = Rules::new(8, 4, Build::Suit, Wrap::None, EmptyColumn::Any, Runs::Supermove, true, 1).unwrap();
        let mut asked = [0usize; 3];
        for (rules, seeds) in [(freecell, 1..8), (beak, 1..8)] {
            let solver = Solver::new(rules, Cow::Borrowed(presets::named("default").unwrap()));
            let domain = FreeCellLines::new(&solver.game);
            for seed in seeds {
                let root = solver.game.position(&deal(seed), &[NO_CARD; 4], &[0; 4]).unwrap();
                let found = solver.solve(&root, &mut Budget::new(Some(200_000), None));
                let Some((states, _)) = shorten::replay(&mut FreeCellLines::new(&solver.game), &root, &found.line) else { continue };
                let sigs: Vec<Sig> = states.iter().map(|s| domain.sig(s)).collect();
                for i in 0..sigs.len() {
                    for j in i + 1..sigs.len().min(i + 20) {
                        let (a, b) = (&sigs[i], &sigs[j]);
                        let expected = (!domain.far(a, b, 1)).then(|| domain.near(a, b) <= 1);
                        let answer = domain.one_apart(a, b);
                        assert_eq!(answer, expected, "seed {seed}, positions {i} and {j}");
                        asked[match answer {
                            None => 0,
                            Some(false) => 1,
                            Some(true) => 2,
                        }] += 1;
                    }
                }
            }
        }
        assert!(asked.iter().all(|&n| n > 50), "{asked:?}");
    }

    #[test]
    fn the_move_between_two_positions_is_read_from_what_they_differ_in() {
        let rules = Rules::new(8, 4, Build::Alternate, Wrap::None, EmptyColumn::Any, Runs::Supermove, false, 1).unwrap();
        let solver = Solver::new(rules, Cow::Borrowed(presets::named("default").unwrap()));
        let mut checked = 0;
        for seed in 1..10 {
            let root = solver.game.position(&deal(seed), &[NO_CARD; 4], &[0; 4]).unwrap();
            let found = solver.solve(&root, &mut Budget::new(Some(200_000), None));
            if found.outcome != Outcome::Won {
                continue;
            }
            let mut domain = FreeCellLines::new(&solver.game);
            let (states, _) = shorten::replay(&mut domain, &root, &found.line).expect("the line plays");
            for pair in states.windows(2) {
                let (a, b) = (domain.sig(&pair[0]), domain.sig(&pair[1]));
                let m = domain.bridge(&pair[0], &a, &b).expect("one move apart");
                assert!(domain.legal(&pair[0], m), "seed {seed}: {m:?}");
                assert_eq!(domain.play(&pair[0], m).0.key, pair[1].key, "seed {seed}: {m:?}");
                checked += 1;
            }
            // Two moves apart (different columns): no one move.
            for k in 0..states.len().saturating_sub(2) {
                let (a, c) = (domain.sig(&states[k]), domain.sig(&states[k + 2]));
                if domain.near(&a, &c) >= 2 {
                    assert!(domain
                        .bridge(&states[k], &a, &c)
                        .is_none_or(|m| !domain.legal(&states[k], m) || domain.play(&states[k], m).0.key != states[k + 2].key));
                }
            }
        }
        assert!(checked > 100);
    }
}
