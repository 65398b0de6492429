//! The Spider family as [`crate::shorten`] sees it.
//!
//! Positions are the search's own (`Pos`), keyed as it keys them: the face-down cards
//! are part of a column, so a position where a card has turned is another position;
//! the order of the columns counts while the stock lasts (a deal goes to fixed columns)
//! and not after. Moves are every legal move (`Game::legal_moves`), a deal included.

use super::{rank, Game, Move, Pos, COLUMNS, DEAL, RUNS};
use crate::search::Solution;
use crate::shorten::{self, Domain, Joined, Limits, Stats};

pub struct SpiderLines {
    pub game: Game,
}

/// What `near` compares: the columns in place, deals made, runs removed.
pub struct Sig {
    cols: [u32; COLUMNS],
    dealt: u8,
    removed: u8,
}

impl Domain for SpiderLines {
    type State = Pos;
    type Move = Move;
    type Perm = [u8; COLUMNS];
    type Sig = Sig;
    type Undo = Pos;

    fn key(&self, s: &Pos) -> u128 {
        self.game.key(s) as u128
    }

    fn moves(&mut self, s: &Pos, out: &mut Vec<Move>) {
        out.clear();
        out.extend(self.game.legal_moves(s));
    }

    fn legal(&mut self, s: &Pos, m: Move) -> bool {
        let g = &self.game;
        if m.src == DEAL {
            return m == Move::DEAL && g.deals_left(s) > 0 && !g.has_empty(s);
        }
        let (src, dst, count) = (m.src as usize, m.dst as usize, m.count as usize);
        if src >= COLUMNS || dst >= COLUMNS || src == dst || count == 0 {
            return false;
        }
        let from = g.store.info(s.cols[src]);
        if count > from.movable as usize {
            return false;
        }
        let cards = g.store.cards(s.cols[src]);
        let card = cards[cards.len() - count];
        let to = g.store.info(s.cols[dst]);
        to.is_empty() || rank(to.top) == rank(card) + 1
    }

    fn play(&mut self, s: &Pos, m: Move) -> (Pos, Move) {
        (self.game.apply(s, m), m)
    }

    fn play_in(&mut self, s: &mut Pos, m: Move) -> (Move, Pos) {
        let before = *s;
        *s = self.game.apply(&before, m);
        (m, before)
    }

    fn undo_in(&mut self, s: &mut Pos, undo: Pos) {
        *s = undo;
    }

    fn won(&self, s: &Pos) -> bool {
        s.removed == RUNS
    }

    fn same(&self, a: &Pos, b: &Pos) -> bool {
        a == b
    }

    fn sig(&self, s: &Pos) -> Sig {
        Sig { cols: s.cols, dealt: s.dealt, removed: s.removed }
    }

    fn near(&self, a: &Sig, b: &Sig) -> u32 {
        if b.dealt > a.dealt + 2 || b.removed > a.removed + 2 {
            return u32::MAX;
        }
        if b.dealt != a.dealt {
            return (b.dealt - a.dealt) as u32;
        }
        // A move changes two columns.
        let changed = (0..COLUMNS).filter(|&c| a.cols[c] != b.cols[c]).count() as u32;
        changed.div_ceil(2)
    }

    fn covers(&self, _s: &Pos, a: &Sig, b: &Sig, m: Move, left: u32) -> bool {
        // A deal changes every column; a move, its two columns (a card turned over, a
        // run removed included): the other columns still different need moves.
        let dealt = a.dealt + (m.src == DEAL) as u8;
        if b.dealt < dealt {
            return false;
        }
        if b.dealt != dealt || m.src == DEAL {
            return (b.dealt - dealt) as u32 <= left;
        }
        let changed = (0..COLUMNS).filter(|&c| a.cols[c] != b.cols[c] && c as u8 != m.src && c as u8 != m.dst).count() as u32;
        changed.div_ceil(2) <= left
    }

    fn perm(&self, from: &Pos, to: &Pos) -> [u8; COLUMNS] {
        let mut perm = self.identity();
        if self.game.deals_left(from) > 0 {
            return perm;
        }
        let mut used = [false; COLUMNS];
        for i in 0..COLUMNS {
            if let Some(j) = (0..COLUMNS).find(|&j| !used[j] && to.cols[j] == from.cols[i]) {
                used[j] = true;
                perm[i] = j as u8;
            }
        }
        perm
    }

    fn identity(&self) -> [u8; COLUMNS] {
        std::array::from_fn(|i| i as u8)
    }

    fn translate(&self, perm: &[u8; COLUMNS], m: Move, _from: &Pos, _to: &Pos) -> Option<Move> {
        if m.src == DEAL {
            return Some(m);
        }
        Some(Move { src: perm[m.src as usize], dst: perm[m.dst as usize], count: m.count })
    }

    fn join(&self, a: Move, b: Move) -> Joined<Move> {
        if a.src == DEAL || b.src != a.dst || b.count != a.count {
            Joined::Apart
        } else if b.dst == a.src {
            Joined::Back
        } else {
            Joined::Into(Move { src: a.src, dst: b.dst, count: a.count })
        }
    }

    fn places(&self, m: Move) -> [u8; 2] {
        if m.src == DEAL {
            [shorten::EVERYWHERE; 2]
        } else {
            [m.src, m.dst]
        }
    }
}

/// Shorten a winning line from a position given as [`super::solve`] takes it.
pub fn shorten(
    columns: &[(Vec<u8>, Vec<u8>)],
    stock: &[u8],
    removed: u8,
    by_suit: bool,
    line: &[Move],
    limits: &Limits,
) -> Result<(Vec<Move>, Stats), String> {
    let (game, root) = Game::new(columns, stock, removed, by_suit)?;
    let mut domain = SpiderLines { game };
    let mut line = line.to_vec();
    if limits.research > 0 {
        line = research(&mut domain, stock, by_suit, &root, line, limits);
    }
    Ok(shorten::shorten(&mut domain, &root, &line, limits))
}

/// The columns of `pos` as `Game::new` takes them.
fn columns_of(game: &Game, pos: &Pos) -> Vec<(Vec<u8>, Vec<u8>)> {
    pos.cols
        .iter()
        .map(|&id| {
            let info = game.store.info(id);
            let cards = game.store.cards(id);
            (cards[..info.down as usize].to_vec(), cards[info.down as usize..].to_vec())
        })
        .collect()
}

/// Search the rest of the game again from a few positions of the line (after each of
/// the last deals), with the family's best-first search and a higher cost per move
/// (shorter lines), and keep any shorter rest. The latest start goes first: its search
/// is the smallest.
fn research(d: &mut SpiderLines, stock: &[u8], by_suit: bool, root: &Pos, mut line: Vec<Move>, limits: &Limits) -> Vec<Move> {
    let Some((states, _)) = shorten::replay(d, root, &line) else { return line };
    // After each deal (the first position if there is none).
    let mut starts: Vec<usize> = vec![0];
    starts.extend(line.iter().enumerate().filter(|(_, m)| m.src == DEAL).map(|(i, _)| i + 1));
    let deals = if by_suit { RESEARCH_DEALS_SPIDER } else { RESEARCH_DEALS_WIDOW };
    let keep = starts.len().saturating_sub(deals);
    starts.drain(..keep);
    let nodes = (limits.research / starts.len().max(1) as u64).max(1);
    let base = if by_suit { super::SPIDER_BASE } else { super::WIDOW_BASE };
    // The end game by runs removed, as the hints' passes (shorter lines).
    let w = super::Weights { depth: limits.research_depth as i32, endgame_by_runs: true, ..base };
    let mut states = states;
    for &start in starts.iter().rev() {
        if start >= line.len() {
            continue;
        }
        if let Some(deadline) = limits.deadline {
            if std::time::Instant::now() >= deadline {
                break;
            }
        }
        let at = *states[start];
        let columns = columns_of(&d.game, &at);
        let rest = &stock[at.dealt as usize * COLUMNS..];
        let Ok((mut game, fresh)) = Game::new(&columns, rest, at.removed, by_suit) else { continue };
        let mut positions = 0;
        let seconds = limits.deadline.map(|t| t.saturating_duration_since(std::time::Instant::now()).as_secs_f64());
        let mut budget = crate::search::Budget::new(Some(nodes), seconds);
        let (outcome, tail) = super::pass(&mut game, fresh, &w, &mut positions, &mut budget);
        if outcome == crate::search::Outcome::Won && tail.len() < line.len() - start {
            let mut candidate = line[..start].to_vec();
            candidate.extend(tail);
            if let Some((s, _)) = shorten::replay(d, root, &candidate) {
                if d.won(s.last().unwrap()) {
                    line = candidate;
                    states = s;
                }
            }
        }
    }
    line
}

/// Shorten the line of a won `solution` in place (nothing else changes).
pub fn shorten_solution(
    columns: &[(Vec<u8>, Vec<u8>)],
    stock: &[u8],
    removed: u8,
    by_suit: bool,
    solution: &mut Solution<Move>,
    limits: &Limits,
) {
    if solution.outcome == crate::search::Outcome::Won {
        if let Ok((line, _)) = shorten(columns, stock, removed, by_suit, &solution.line, limits) {
            solution.line = line;
        }
    }
}

/// The limits of a Spider-family shortening after a search that made `searched`
/// positions and ends at `deadline`: `depth` as [`Limits::depth`], `tries` positions for
/// the shortcuts. From depth 2 on, the rest of a Spider game is also searched again
/// after the last deals, with [`RESEARCH_SHARE`] of the search's positions, where the
/// search went past its short pass ([`super::SHORT_CAP`]); a line the short pass found
/// gains next to nothing from it, and neither does a Black Widow line.
pub fn limits(deadline: Option<std::time::Instant>, depth: u8, tries: Option<u64>, by_suit: bool, searched: u64) -> Limits {
    let research = if depth >= 2 && by_suit && searched > super::SHORT_CAP as u64 { searched / RESEARCH_SHARE } else { 0 };
    let weight = if by_suit { RESEARCH_WEIGHT_SPIDER } else { RESEARCH_WEIGHT_WIDOW };
    Limits { deadline, max_tries: tries.unwrap_or(DEFAULT_TRIES), depth: depth.min(2), rounds: 1, research, research_depth: weight }
}

/// Positions a Spider-family shortening may make looking for shortcuts.
pub const DEFAULT_TRIES: u64 = 200_000;
/// The searches of the rest of the game may make one position for this many of the
/// search's (in all). Fitted on Spider-4 deals 7001-7100, 2 s a deal, after the short
/// pass, researched only past it: 171.5 / 203 moves median / p90 with a seventh (0.11
/// of the search's CPU with the shortcuts); with none 173 / 209 (0.05); every line
/// researched with a fifth: 172 / 205 (0.17). In Black Widow a seventh past the short
/// pass gains one move (166 to 165) for 0.06 more of the search.
pub const RESEARCH_SHARE: u64 = 7;
/// Their cost per move (the main search's is 1; 2 in its short pass). Fitted on deals
/// 7001-7100 with [`RESEARCH_SHARE`]: Spider 171.5 / 203 moves median / p90 with 2, 172
/// / 207 with 3, 173 / 209 with 4.
pub const RESEARCH_WEIGHT_SPIDER: u8 = 2;
pub const RESEARCH_WEIGHT_WIDOW: u8 = 2;
/// They start after each of the last this many deals. Fitted on deals 7001-7100, before
/// the short pass, search of 300,000 positions: Spider-4 with 3, 178 / 200 moves median /
/// p90, shortening CPU 1.17 of the search; with 4, 174 / 200, 1.45; with 5, 174 / 204,
/// 1.63. Black Widow with 3, 173 / 187, 0.93; with 4, 172 / 183, 1.28.
pub const RESEARCH_DEALS_SPIDER: usize = 4;
pub const RESEARCH_DEALS_WIDOW: usize = 3;
