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
//! the next level's queue by the score of the cards it actually lays down.
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
//! a fresh pass cuts the long tail of a single search. Every pass gets its share of the
//! caller's positions *and* of the time left ([`Budget::pass`]), so a time-only budget
//! gives every pass its turn; with no node limit the passes share the preset's `cap`.
//! The pruning makes the search incomplete, so an exhausted search answers "unknown",
//! never "lost", except for a position with no legal move at all. Counted positions are
//! the distinct positions generated, over all passes.
//!
//! Presets are tuned with `examples/spider_tune.rs`, which reads passes from its command
//! line; nothing in the engine reads the environment.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::search::{Budget, Outcome, Solution};
use crate::hashset::KeySet;

pub mod shorten;

pub const COLUMNS: usize = 10;
const RUN: usize = 13;
const RUNS: u8 = 8;
/// `Move::src` of a deal from the stock.
pub const DEAL: u8 = 255;

/// Rank (0 Ace .. 12 King) and suit (0..3) of each card index, looked up, not divided.
const RANK_OF: [u8; 52] = {
    let mut table = [0u8; 52];
    let mut card = 0;
    while card < 52 {
        table[card] = (card % 13) as u8;
        card += 1;
    }
    table
};

#[inline]
fn rank(card: u8) -> u8 {
    RANK_OF[card as usize]
}

#[inline]
fn suit(card: u8) -> u8 {
    (card >= 13) as u8 + (card >= 26) as u8 + (card >= 39) as u8
}

/// Does `upper` lie on `lower` inside a run (one rank lower; same suit if `by_suit`)?
#[inline]
fn follows(lower: u8, upper: u8, by_suit: bool) -> bool {
    rank(upper) + 1 == rank(lower) && (!by_suit || suit(upper) == suit(lower))
}

/// A move: the top `count` cards of column `src` onto column `dst`, or a deal (`src ==
/// DEAL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub src: u8,
    pub dst: u8,
    pub count: u8,
}

impl Move {
    pub const DEAL: Move = Move { src: DEAL, dst: DEAL, count: 0 };
}

/// What the search knows about a column without looking at its cards.
#[derive(Clone, Copy, Default, Debug)]
pub struct ColInfo {
    start: u32,
    len: u8,
    down: u8,
    /// Cards on top that move as a unit (by rank in Black Widow, by suit in Spider).
    movable: u8,
    /// The top card (meaningless when the column is empty).
    top: u8,
    /// Adjacent face-up pairs out of rank order.
    hard: u8,
    /// Adjacent face-up pairs in rank order but of two suits.
    soft: u8,
    /// No face-down card and a King at the bottom: nothing below it ever needs to move.
    rooted: bool,
    /// Cards on top in one-suit order (the movable run in Spider).
    suited: u8,
}

impl ColInfo {
    #[inline]
    fn up(&self) -> u8 {
        self.len - self.down
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Every distinct column, stored once. Column 0 is the empty column.
pub struct Store {
    data: Vec<u8>,
    infos: Vec<ColInfo>,
    table: Vec<u32>,
    mask: usize,
    by_suit: bool,
}

#[inline]
fn column_hash(down: u8, cards: &[u8]) -> u64 {
    let mut h = 0x243F_6A88_85A3_08D3u64 ^ (down as u64);
    for chunk in cards.chunks(8) {
        let mut word = 0u64;
        for (i, &c) in chunk.iter().enumerate() {
            word |= (c as u64) << (8 * i);
        }
        h = (h ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h ^ ((cards.len() as u64) << 56)
}

impl Store {
    pub fn new(by_suit: bool) -> Store {
        let size = 1 << 14;
        let mut store = Store { data: Vec::with_capacity(1 << 16), infos: Vec::with_capacity(1 << 12), table: vec![0; size], mask: size - 1, by_suit };
        store.intern(0, &[]);
        store
    }

    #[inline]
    pub fn info(&self, id: u32) -> &ColInfo {
        &self.infos[id as usize]
    }

    #[inline]
    pub fn cards(&self, id: u32) -> &[u8] {
        let info = &self.infos[id as usize];
        &self.data[info.start as usize..info.start as usize + info.len as usize]
    }

    fn describe(&self, down: u8, cards: &[u8], start: u32) -> ColInfo {
        let len = cards.len() as u8;
        let mut info = ColInfo { start, len, down, ..Default::default() };
        if cards.is_empty() {
            return info;
        }
        info.top = cards[cards.len() - 1];
        let up = &cards[down as usize..];
        let mut movable = 1;
        while movable < up.len() && follows(up[up.len() - movable - 1], up[up.len() - movable], self.by_suit) {
            movable += 1;
        }
        info.movable = movable as u8;
        let mut suited = 1;
        while suited < up.len() && follows(up[up.len() - suited - 1], up[up.len() - suited], true) {
            suited += 1;
        }
        info.suited = suited as u8;
        for pair in up.windows(2) {
            if rank(pair[1]) + 1 != rank(pair[0]) {
                info.hard += 1;
            } else if suit(pair[1]) != suit(pair[0]) {
                info.soft += 1;
            }
        }
        info.rooted = down == 0 && rank(up[0]) == 12;
        info
    }

    /// The id of the column with `down` face-down cards under the rest of `cards`.
    pub fn intern(&mut self, down: u8, cards: &[u8]) -> u32 {
        let hash = column_hash(down, cards);
        let mut slot = (hash as usize) & self.mask;
        loop {
            let entry = self.table[slot];
            if entry == 0 {
                break;
            }
            let id = entry - 1;
            let info = &self.infos[id as usize];
            if info.down == down && info.len as usize == cards.len() && self.cards(id) == cards {
                return id;
            }
            slot = (slot + 1) & self.mask;
        }
        let id = self.infos.len() as u32;
        let start = self.data.len() as u32;
        self.data.extend_from_slice(cards);
        let info = self.describe(down, cards, start);
        self.infos.push(info);
        self.table[slot] = id + 1;
        if self.infos.len() * 2 > self.table.len() {
            self.grow();
        }
        id
    }

    fn grow(&mut self) {
        let size = self.table.len() * 2;
        self.table = vec![0; size];
        self.mask = size - 1;
        for id in 0..self.infos.len() as u32 {
            let info = self.infos[id as usize];
            let hash = column_hash(info.down, self.cards(id));
            let mut slot = (hash as usize) & self.mask;
            while self.table[slot] != 0 {
                slot = (slot + 1) & self.mask;
            }
            self.table[slot] = id + 1;
        }
    }
}

/// Flag of a [`Memo`] value: a completed run left the column.
const REMOVED: u32 = 1 << 31;

/// An open-addressing map from nonzero 64-bit keys to 32-bit values: which column a
/// column move makes, so that a move seen before costs one lookup instead of copying,
/// hashing and comparing cards.
struct Memo {
    slots: Vec<(u64, u32)>,
    mask: usize,
    len: usize,
}

impl Memo {
    fn new() -> Memo {
        Memo { slots: vec![(0, 0); 1 << 12], mask: (1 << 12) - 1, len: 0 }
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 24) as usize & self.mask
    }

    #[inline]
    fn get(&self, key: u64) -> Option<u32> {
        let mut index = self.home(key);
        loop {
            let (k, v) = self.slots[index];
            if k == key {
                return Some(v);
            }
            if k == 0 {
                return None;
            }
            index = (index + 1) & self.mask;
        }
    }

    fn insert(&mut self, key: u64, value: u32) {
        let mut index = self.home(key);
        while self.slots[index].0 != 0 && self.slots[index].0 != key {
            index = (index + 1) & self.mask;
        }
        if self.slots[index].0 == 0 {
            self.len += 1;
        }
        self.slots[index] = (key, value);
        if self.len * 2 > self.slots.len() {
            let size = self.slots.len() * 2;
            let old = std::mem::replace(&mut self.slots, vec![(0, 0); size]);
            self.mask = self.slots.len() - 1;
            self.len = 0;
            for (k, v) in old {
                if k != 0 {
                    self.insert(k, v);
                }
            }
        }
    }
}

/// A position: ten column ids, deals made since the search began, runs removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub cols: [u32; COLUMNS],
    pub dealt: u8,
    pub removed: u8,
}

/// A game being searched: the shared columns, the stock and the rule variant.
pub struct Game {
    pub store: Store,
    stock: Vec<u8>,
    deals: u8,
    scratch_a: Vec<u8>,
    scratch_b: Vec<u8>,
    /// The columns a column move made, by (source, count) and (target, source, count).
    moves_made: Memo,
    /// Prune lateral moves (see `search_moves`).
    pub lateral_prune: bool,
    /// Split a one-suit link only to make the target's one-suit run longer.
    pub grow_runs: bool,
}

/// Removes a completed run on top, then turns a face-down top card. Returns the new
/// face-down count and whether a run left.
#[inline]
fn settle(cards: &mut Vec<u8>, mut down: u8) -> (u8, bool) {
    let mut removed = false;
    let up = cards.len() - down as usize;
    if up >= RUN {
        let tail = &cards[cards.len() - RUN..];
        if rank(tail[0]) == 12 && tail.windows(2).all(|pair| follows(pair[0], pair[1], true)) {
            cards.truncate(cards.len() - RUN);
            removed = true;
        }
    }
    if down > 0 && cards.len() == down as usize {
        down -= 1;
    }
    (down, removed)
}

impl Game {
    /// `columns`: (face-down cards, face-up cards) deepest first; `stock` in dealing order.
    pub fn new(columns: &[(Vec<u8>, Vec<u8>)], stock: &[u8], removed: u8, by_suit: bool) -> Result<(Game, Pos), String> {
        if columns.len() != COLUMNS {
            return Err(format!("Spider has {COLUMNS} columns, not {}", columns.len()));
        }
        if stock.len() % COLUMNS != 0 || stock.len() > 50 {
            return Err(format!("the stock holds a multiple of {COLUMNS} cards, not {}", stock.len()));
        }
        if removed > RUNS {
            return Err(format!("{removed} runs removed: at most {RUNS}"));
        }
        let mut store = Store::new(by_suit);
        let mut cols = [0u32; COLUMNS];
        let mut total = stock.len();
        for (index, (down, up)) in columns.iter().enumerate() {
            if down.len() + up.len() > 200 || (up.is_empty() && !down.is_empty()) {
                return Err(format!("column {} is malformed", index + 1));
            }
            let cards: Vec<u8> = down.iter().chain(up.iter()).copied().collect();
            if cards.iter().chain(stock.iter()).any(|&card| card >= 52) {
                return Err("a card index is not 0 to 51".to_string());
            }
            total += cards.len();
            cols[index] = store.intern(down.len() as u8, &cards);
        }
        if total + RUN * removed as usize != 104 {
            return Err(format!("{} cards in play and {removed} runs removed: not 104 cards", total));
        }
        let game = Game { store, stock: stock.to_vec(), deals: (stock.len() / COLUMNS) as u8, scratch_a: Vec::new(), scratch_b: Vec::new(), moves_made: Memo::new(), lateral_prune: true, grow_runs: false };
        Ok((game, Pos { cols, dealt: 0, removed }))
    }

    #[inline]
    fn deals_left(&self, pos: &Pos) -> u8 {
        self.deals - pos.dealt
    }

    #[inline]
    fn has_empty(&self, pos: &Pos) -> bool {
        pos.cols.iter().any(|&c| c == 0)
    }

    /// Every legal move, as the rules list them (source, run length, target; the deal last).
    pub fn legal_moves(&self, pos: &Pos) -> Vec<Move> {
        let mut moves = Vec::new();
        for src in 0..COLUMNS {
            let s = self.store.info(pos.cols[src]);
            let cards = self.store.cards(pos.cols[src]);
            for count in 1..=s.movable as usize {
                let card = cards[cards.len() - count];
                for dst in 0..COLUMNS {
                    if dst == src {
                        continue;
                    }
                    let t = self.store.info(pos.cols[dst]);
                    if t.is_empty() || rank(t.top) == rank(card) + 1 {
                        moves.push(Move { src: src as u8, dst: dst as u8, count: count as u8 });
                    }
                }
            }
        }
        if self.deals_left(pos) > 0 && !self.has_empty(pos) {
            moves.push(Move::DEAL);
        }
        moves
    }

    /// The moves the search tries: the legal moves less those that never pay.
    fn search_moves(&self, pos: &Pos, out: &mut Vec<Move>) {
        out.clear();
        // The columns whose top card has each rank (bit per column), and the top suits.
        let mut by_top_rank = [0u16; 14];
        let mut top_suit = [0u8; COLUMNS];
        let mut suited = [0u8; COLUMNS];
        let mut first_empty = None;
        for (index, &id) in pos.cols.iter().enumerate() {
            let t = self.store.info(id);
            if t.is_empty() {
                first_empty = first_empty.or(Some(index));
            } else {
                by_top_rank[rank(t.top) as usize] |= 1 << index;
                top_suit[index] = suit(t.top);
                suited[index] = t.suited;
            }
        }
        for src in 0..COLUMNS {
            let s = *self.store.info(pos.cols[src]);
            if s.is_empty() {
                continue;
            }
            let cards = self.store.cards(pos.cols[src]);
            let up = s.up() as usize;
            for count in 1..=s.movable as usize {
                let card = cards[cards.len() - count];
                // Is the run's base on a card one rank higher (of its own suit)?
                let rank_link = count < up && follows(cards[cards.len() - count - 1], card, false);
                let suited_link = rank_link && follows(cards[cards.len() - count - 1], card, true);
                // A run on a card of its own suit one rank higher moves only onto such a
                // card; a run already on a card one rank higher only moves to a card of
                // its own suit (a lateral move changes nothing that counts).
                let same_suit_only = suited_link || (self.lateral_prune && rank_link);
                let whole = count == cards.len();
                let mut targets = by_top_rank[rank(card) as usize + 1] & !(1 << src);
                if let Some(empty) = first_empty {
                    if !whole && !suited_link {
                        targets |= 1 << empty;
                    }
                }
                while targets != 0 {
                    let dst = targets.trailing_zeros() as usize;
                    targets &= targets - 1;
                    if same_suit_only && Some(dst) != first_empty && top_suit[dst] != suit(card) {
                        continue;
                    }
                    if suited_link && self.grow_runs && suited[dst] as usize + count <= s.suited as usize {
                        continue;
                    }
                    out.push(Move { src: src as u8, dst: dst as u8, count: count as u8 });
                }
            }
        }
        if self.deals_left(pos) > 0 && first_empty.is_none() {
            out.push(Move::DEAL);
        }
    }

    /// The position after `mv` (legal), with automatic removal and turning.
    pub fn apply(&mut self, pos: &Pos, mv: Move) -> Pos {
        let mut next = *pos;
        if mv.src == DEAL {
            let base = pos.dealt as usize * COLUMNS;
            for index in 0..COLUMNS {
                let id = pos.cols[index];
                let info = *self.store.info(id);
                self.scratch_a.clear();
                self.scratch_a.extend_from_slice(self.store.cards(id));
                self.scratch_a.push(self.stock[base + index]);
                let (down, removed) = settle(&mut self.scratch_a, info.down);
                next.removed += removed as u8;
                next.cols[index] = self.store.intern(down, &self.scratch_a);
            }
            next.dealt += 1;
            return next;
        }
        let (src, dst, count) = (mv.src as usize, mv.dst as usize, mv.count as usize);
        // The same two columns make the same two columns: look the move's result up.
        let source_key = (pos.cols[src] as u64) << 8 | count as u64;
        let target_key = ((pos.cols[dst] as u64 + 1) << 36) | source_key;
        if let (Some(source), Some(target)) = (self.moves_made.get(source_key), self.moves_made.get(target_key)) {
            next.cols[src] = source & !REMOVED;
            next.cols[dst] = target & !REMOVED;
            next.removed += (source >> 31) as u8 + (target >> 31) as u8;
            return next;
        }
        let s = *self.store.info(pos.cols[src]);
        let t = *self.store.info(pos.cols[dst]);
        let source = self.store.cards(pos.cols[src]);
        let keep = source.len() - count;
        self.scratch_a.clear();
        self.scratch_a.extend_from_slice(&source[..keep]);
        self.scratch_b.clear();
        self.scratch_b.extend_from_slice(self.store.cards(pos.cols[dst]));
        self.scratch_b.extend_from_slice(&source[keep..]);
        let (tdown, tremoved) = settle(&mut self.scratch_b, t.down);
        let (sdown, sremoved) = settle(&mut self.scratch_a, s.down);
        next.removed += tremoved as u8 + sremoved as u8;
        let mut a = std::mem::take(&mut self.scratch_a);
        let mut b = std::mem::take(&mut self.scratch_b);
        next.cols[dst] = self.store.intern(tdown, &b);
        next.cols[src] = self.store.intern(sdown, &a);
        self.moves_made.insert(source_key, next.cols[src] | (sremoved as u32) << 31);
        self.moves_made.insert(target_key, next.cols[dst] | (tremoved as u32) << 31);
        a.clear();
        b.clear();
        self.scratch_a = a;
        self.scratch_b = b;
        next
    }

    /// The seen-set key: the column ids (in canonical order once the stock is gone) and
    /// the deals made, mixed into 63 bits.
    #[inline]
    fn key(&self, pos: &Pos) -> u64 {
        // A sum of mixed column ids: no sorting needed for the canonical order, since
        // the sum does not depend on it once the stock is gone (salt 0 for every column).
        let ordered = self.deals_left(pos) > 0;
        let mut h = mix(0xA076_1D64_78BD_642F ^ pos.dealt as u64);
        for (index, &c) in pos.cols.iter().enumerate() {
            let salt = if ordered { index as u64 + 1 } else { 0 };
            h = h.wrapping_add(mix(c as u64 | (salt << 32)));
        }
        h & !(1u64 << 63)
    }

    /// The key of `child`, made from `parent` (whose key is `key`) by the column move
    /// `mv`: only the two columns it touched change their terms of the sum.
    #[inline]
    fn key_after(&self, key: u64, parent: &Pos, child: &Pos, mv: Move) -> u64 {
        let ordered = self.deals_left(parent) > 0;
        let term = |index: usize, column: u32| {
            let salt = if ordered { index as u64 + 1 } else { 0 };
            mix(column as u64 | (salt << 32))
        };
        let (a, b) = (mv.src as usize, mv.dst as usize);
        let h = key.wrapping_sub(term(a, parent.cols[a])).wrapping_sub(term(b, parent.cols[b])).wrapping_add(term(a, child.cols[a])).wrapping_add(term(b, child.cols[b]));
        h & !(1u64 << 63)
    }

    /// One column's part of the chaos score.
    #[inline]
    fn contrib(&self, id: u32, w: &Weights) -> i32 {
        let c = self.store.info(id);
        if c.is_empty() {
            return -w.empty;
        }
        w.down * c.down as i32 + w.hard * c.hard as i32 + w.soft * c.soft as i32 - if c.rooted { w.rooted } else { 0 }
    }

    /// The chaos score: lower is better.
    #[inline]
    fn score(&self, pos: &Pos, w: &Weights) -> i32 {
        let columns: i32 = pos.cols.iter().map(|&id| self.contrib(id, w)).sum();
        columns + w.stock * (self.deals_left(pos) as i32 * COLUMNS as i32) - w.removed * pos.removed as i32
    }
}

/// A strong 64-bit mixer (splitmix64's finaliser).
#[inline]
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The chaos weights and the shape of one pass of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub down: i32,
    pub hard: i32,
    pub soft: i32,
    pub stock: i32,
    pub empty: i32,
    pub rooted: i32,
    pub removed: i32,
    /// Added per move made: 0 is pure greedy; more makes the search wider.
    pub depth: i32,
    /// New positions a level may make before the search moves on.
    pub quota: i32,
    /// Extra quota for each deal made (in quotas): deeper levels are larger.
    pub deeper: i32,
    /// Pseudo-random noise added to each position's score (0 to noise - 1): another
    /// pass with noise explores other positions among near equals.
    pub noise: i32,
    /// Black Widow only: search with Spider's moves (runs of one suit), which are all
    /// legal in Black Widow but make a different, narrower search.
    pub suited: bool,
    /// Keep lateral moves (see [`Game::search_moves`]) in this pass.
    pub lateral: bool,
    /// Split a one-suit link only when the target's one-suit run grows longer than the
    /// source's was (KPatience's rule; otherwise any card of the run's suit will do).
    pub grow: bool,
}

/// One pass of a portfolio: its weights and its share of the budget (a weight: see
/// [`Budget::pass`]; the last pass takes whatever the others left).
#[derive(Clone, Copy, Debug)]
pub struct Pass {
    pub weights: Weights,
    pub share: u64,
}

/// A named portfolio: passes run in turn from the same root, each proving deals the
/// others miss. Each pass gets its share of the caller's positions and of the time
/// left (so a time-only budget gives every pass its turn); with no node limit the
/// passes share `cap` positions by weight, so a search with no budget at all still
/// ends.
#[derive(Clone, Copy, Debug)]
pub struct Preset<'a> {
    pub name: &'a str,
    pub passes: &'a [Pass],
    pub cap: u64,
}

/// Spider's base weights: a suit break blocks a run as much as a rank break.
pub const SPIDER_BASE: Weights = Weights { down: 6, hard: 4, soft: 4, stock: 3, empty: 8, rooted: 2, removed: 40, depth: 1, quota: 2000, deeper: 0, noise: 0, suited: false, lateral: false, grow: true };

/// Black Widow's base weights: a run of two suits still moves, so a suit break costs less.
pub const WIDOW_BASE: Weights = Weights { down: 6, hard: 4, soft: 2, stock: 3, empty: 8, rooted: 2, removed: 40, depth: 0, quota: 4000, deeper: 0, noise: 0, suited: false, lateral: false, grow: true };

/// Positions a whole portfolio may search when the caller sets no node limit (shared by
/// the passes by weight): about 4 s of search. A position costs about 80 bytes while
/// its pass runs (measured: 4 million positions in one pass, 315 MB), so a search with
/// no budget at all stays under 700 MB.
pub const DEFAULT_CAP: u64 = 8_000_000;

/// Spider (one, two or four suits): three passes with equal shares, two of them with
/// noise among near-equal positions. Fitted on four-suit deals 1-1000 from each pass's
/// positions to a win (`examples/spider_tune.rs`, up to 2 million positions a pass):
/// 99.0 % won with 700 thousand positions a deal, 99.2 % with 1 million, 99.3 % with
/// 1.5 million. Held out, deals 5001-6000 searched with a 2 s time budget each: 99.3 %
/// (`bench/spider.py spider-4 5001-6000`, one process, load 2.1 on two cores).
pub const SPIDER: Preset<'static> = Preset {
    name: "spider",
    passes: &[
        Pass { weights: Weights { noise: 8, ..SPIDER_BASE }, share: 1 },
        Pass { weights: Weights { noise: 16, ..SPIDER_BASE }, share: 1 },
        Pass { weights: SPIDER_BASE, share: 1 },
    ],
    cap: DEFAULT_CAP,
};

/// Black Widow: first with Spider's narrower moves (all legal in Black Widow, and a
/// Spider win is a Black Widow win), then with Black Widow's own. Fitted on deals
/// 1-1000 as [`SPIDER`]: 99.6 % won with 700 thousand positions a deal, 99.7 % with 1
/// million, 99.8 % with 1.5 million. Held out, deals 5001-6000 with 2 s each: 99.5 %.
pub const BLACK_WIDOW: Preset<'static> = Preset {
    name: "black-widow",
    passes: &[
        Pass { weights: Weights { suited: true, noise: 8, ..SPIDER_BASE }, share: 2 },
        Pass { weights: Weights { depth: 1, noise: 8, ..WIDOW_BASE }, share: 2 },
        Pass { weights: Weights { depth: 1, down: 10, ..WIDOW_BASE }, share: 1 },
    ],
    cap: DEFAULT_CAP,
};

/// Every named preset.
pub const PRESETS: [&Preset<'static>; 2] = [&BLACK_WIDOW, &SPIDER];

/// The preset the engine uses for a variant.
pub fn preset(by_suit: bool) -> &'static Preset<'static> {
    if by_suit {
        &SPIDER
    } else {
        &BLACK_WIDOW
    }
}

/// A priority queue of node ids by score (lowest first), newest first among equals:
/// one stack per score, since scores are small integers. Pushes and pops take constant
/// time, where a binary heap of millions of entries misses the cache at every level.
#[derive(Default)]
struct Buckets {
    /// `stacks[i]` holds the ids of score `i + base`.
    stacks: Vec<Vec<u32>>,
    base: i32,
    /// No stack below this index holds an id.
    lowest: usize,
    len: usize,
}

impl Buckets {
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn push(&mut self, score: i32, id: u32) {
        if self.stacks.is_empty() {
            self.base = score;
        }
        if score < self.base {
            // Rare: a score below every one so far. Make room below.
            let more = (self.base - score) as usize + 64;
            self.stacks.splice(0..0, (0..more).map(|_| Vec::new()));
            self.base -= more as i32;
            self.lowest += more;
        }
        let index = (score - self.base) as usize;
        if index >= self.stacks.len() {
            self.stacks.resize_with(index + 64, Vec::new);
        }
        self.stacks[index].push(id);
        self.lowest = self.lowest.min(index);
        self.len += 1;
    }

    /// The newest id of the lowest score (the queue must not be empty).
    #[inline]
    fn pop(&mut self) -> u32 {
        while self.stacks[self.lowest].is_empty() {
            self.lowest += 1;
        }
        self.len -= 1;
        self.stacks[self.lowest].pop().unwrap()
    }
}

struct Node {
    pos: Pos,
    parent: u32,
    mv: Move,
    depth: u16,
    /// The chaos score (without the cost per move).
    chaos: i32,
}

/// One pass from `root` until a win, the end of `budget`, or an empty queue.
///
/// Each stock level (deals made) has its own best-first queue. The search works on one
/// level at a time for a quota of new positions: a deal from a position of that level
/// goes to the next level's queue. When the quota is spent and the next level has
/// positions it goes down; when a level can do no more it goes back up and gives the
/// level above another quota, so that work is spread over the levels as in KPatience's
/// per-level quotas, and the search never sinks all its budget into one level.
fn pass(game: &mut Game, root: Pos, w: &Weights, positions: &mut u64, budget: &mut Budget) -> (Outcome, Vec<Move>) {
    let (lateral, grow) = (game.lateral_prune, game.grow_runs);
    game.lateral_prune = !w.lateral;
    game.grow_runs = w.grow;
    let result = pass_inner(game, root, w, positions, budget);
    game.lateral_prune = lateral;
    game.grow_runs = grow;
    result
}

fn pass_inner(game: &mut Game, root: Pos, w: &Weights, positions: &mut u64, budget: &mut Budget) -> (Outcome, Vec<Move>) {
    let levels = game.deals_left(&root) as usize + 1;
    let mut nodes: Vec<Node> = Vec::with_capacity(1 << 16);
    let mut heaps: Vec<Buckets> = (0..levels).map(|_| Buckets::default()).collect();
    let mut seen = KeySet::with_capacity_log2(16);
    seen.insert(game.key(&root));
    nodes.push(Node { pos: root, parent: u32::MAX, mv: Move::DEAL, depth: 0, chaos: game.score(&root, w) });
    heaps[0].push(0, 0);
    let mut moves = Vec::with_capacity(64);
    let mut children: Vec<(Move, Pos, u64)> = Vec::with_capacity(64);
    let mut level = 0usize;
    let mut left = w.quota as i64;
    loop {
        if left <= 0 || heaps[level].is_empty() {
            // Next level down, or back to the top: every level gets its quota in turn.
            let mut next = level;
            loop {
                next = (next + 1) % levels;
                if !heaps[next].is_empty() || next == level {
                    break;
                }
            }
            if heaps[next].is_empty() {
                return (Outcome::Lost, vec![]);
            }
            level = next;
            left = w.quota as i64 * (1 + level as i64 * w.deeper as i64);
            continue;
        }
        let id = heaps[level].pop();
        let Node { pos, depth, chaos: parent_chaos, .. } = nodes[id as usize];
        game.search_moves(&pos, &mut moves);
        // The children first, each one's slot in the seen set fetched ahead of the inserts.
        let key = game.key(&pos);
        children.clear();
        for &mv in moves.iter() {
            let child = game.apply(&pos, mv);
            if child.removed == RUNS {
                let mut line = vec![mv];
                let mut at = id;
                while nodes[at as usize].parent != u32::MAX {
                    line.push(nodes[at as usize].mv);
                    at = nodes[at as usize].parent;
                }
                line.reverse();
                *positions += 1;
                return (Outcome::Won, line);
            }
            let child_key = if mv.src == DEAL { game.key(&child) } else { game.key_after(key, &pos, &child, mv) };
            debug_assert_eq!(child_key, game.key(&child));
            seen.prefetch(child_key);
            children.push((mv, child, child_key));
        }
        for &(mv, child, key) in children.iter() {
            if !seen.insert(key) {
                continue;
            }
            *positions += 1;
            if budget.exhausted(*positions) {
                return (Outcome::Unknown, vec![]);
            }
            if child.dealt as usize == level {
                left -= 1;
            }
            let chaos = if mv.src == DEAL {
                game.score(&child, w)
            } else {
                let (a, b) = (mv.src as usize, mv.dst as usize);
                parent_chaos - game.contrib(pos.cols[a], w) - game.contrib(pos.cols[b], w) + game.contrib(child.cols[a], w) + game.contrib(child.cols[b], w)
                    - w.removed * (child.removed - pos.removed) as i32
            };
            debug_assert_eq!(chaos, game.score(&child, w));
            let mut score = chaos + w.depth * (depth as i32 + 1);
            if w.noise > 0 {
                score += (mix(key ^ 0x5851_F42D_4C95_7F2D) % w.noise as u64) as i32;
            }
            let child_id = nodes.len() as u32;
            nodes.push(Node { pos: child, parent: id, mv, depth: depth.saturating_add(1), chaos });
            heaps[child.dealt as usize].push(score, child_id);
        }
    }
}

/// Solve a position given as columns (face-down, face-up cards) and stock with the
/// passes of `preset` in turn, each with its share of `budget` (see [`Preset`]).
pub fn solve(columns: &[(Vec<u8>, Vec<u8>)], stock: &[u8], removed: u8, by_suit: bool, budget: &mut Budget, preset: &Preset) -> Result<Solution<Move>, String> {
    solve_reporting(columns, stock, removed, by_suit, budget, preset, &mut |_, _, _| {})
}

/// [`solve`], telling `report` how each pass ended: `(pass index, outcome, positions)`
/// (for tuning: see `examples/spider_tune.rs`).
pub fn solve_reporting(
    columns: &[(Vec<u8>, Vec<u8>)],
    stock: &[u8],
    removed: u8,
    by_suit: bool,
    budget: &mut Budget,
    preset: &Preset,
    report: &mut dyn FnMut(usize, Outcome, u64),
) -> Result<Solution<Move>, String> {
    let (mut game, root) = Game::new(columns, stock, removed, by_suit)?;
    if root.removed == RUNS {
        return Ok(Solution::won(vec![], 0));
    }
    if game.legal_moves(&root).is_empty() {
        return Ok(Solution::lost(1));
    }
    // Black Widow may also be searched with Spider's moves (a subset of its own).
    let mut suited_game: Option<(Game, Pos)> = None;
    let mut positions = 0u64;
    let total: u64 = preset.passes.iter().map(|pass| pass.share).sum::<u64>().max(1);
    let mut weight_left = total;
    for (index, pass_preset) in preset.passes.iter().enumerate() {
        let weights = &pass_preset.weights;
        let cap = ((preset.cap as u128 * pass_preset.share as u128) / total as u128).max(1) as u64;
        let mut share = budget.pass(positions, pass_preset.share, weight_left, cap);
        weight_left = weight_left.saturating_sub(pass_preset.share);
        let before = positions;
        let (outcome, line) = if weights.suited && !by_suit {
            if suited_game.is_none() {
                suited_game = Some(Game::new(columns, stock, removed, true)?);
            }
            let (suited, suited_root) = suited_game.as_mut().unwrap();
            pass(suited, *suited_root, weights, &mut positions, &mut share)
        } else {
            pass(&mut game, root, weights, &mut positions, &mut share)
        };
        report(index, outcome, positions - before);
        if outcome == Outcome::Won {
            return Ok(Solution::won(line, positions));
        }
        if budget.exhausted(positions) || budget.out_of_time() {
            break;
        }
    }
    Ok(Solution::unknown(positions))
}

type PyColumns = Vec<(Vec<u8>, Vec<u8>)>;

fn to_tuple(mv: Move) -> (u8, u8, u8) {
    (mv.src, mv.dst, mv.count)
}

/// Solve a Spider-family position with the whole deal known. `columns`: (face-down,
/// face-up) card indices deepest first; `stock`: cards in dealing order; `by_suit`:
/// Spider (true) or Black Widow (false). Returns `(verdict, moves, positions)` with moves
/// as `(source, target, count)`, 0-based, and `(255, 255, 0)` for a deal.
///
/// A winning line is shortened (`shorten`: no position twice, shortcuts) within what
/// the time budget leaves; `shorten=False` returns the search's own line.
#[pyfunction]
#[pyo3(signature = (columns, stock, removed, by_suit, max_nodes=None, max_seconds=None, shorten=true, shorten_depth=2, shorten_tries=None))]
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
) -> PyResult<(&'static str, Vec<(u8, u8, u8)>, u64)> {
    let deadline = max_seconds.map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s.max(0.0)));
    let solution = py
        .allow_threads(|| {
            let mut solution = solve(&columns, &stock, removed, by_suit, &mut Budget::new(max_nodes, max_seconds), preset(by_suit))?;
            if shorten {
                let limits = shorten::limits(deadline, shorten_depth, shorten_tries, by_suit);
                shorten::shorten_solution(&columns, &stock, removed, by_suit, &mut solution, &limits);
            }
            Ok::<_, String>(solution)
        })
        .map_err(PyValueError::new_err)?;
    Ok((solution.outcome.as_str(), solution.line.into_iter().map(to_tuple).collect(), solution.positions))
}

/// Shorten a winning line (moves as `spider_solve` returns them) from a position:
/// `(moves, positions tried)`. For benchmarks: `spider_solve` does this itself.
#[pyfunction]
#[pyo3(signature = (columns, stock, removed, by_suit, line, max_seconds=None, depth=2, tries=None, research=None, research_weight=None))]
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
) -> PyResult<(Vec<(u8, u8, u8)>, u64)> {
    let deadline = max_seconds.map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s.max(0.0)));
    let moves: Vec<Move> = line.into_iter().map(|(src, dst, count)| Move { src, dst, count }).collect();
    let mut limits = shorten::limits(deadline, depth, tries, by_suit);
    limits.research = research.unwrap_or(limits.research);
    limits.research_depth = research_weight.unwrap_or(limits.research_depth);
    let (out, stats) = py
        .allow_threads(|| shorten::shorten(&columns, &stock, removed, by_suit, &moves, &limits))
        .map_err(PyValueError::new_err)?;
    Ok((out.into_iter().map(to_tuple).collect(), stats.tries))
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
    m.add_function(wrap_pyfunction!(spider_legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(spider_apply, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Card index of rank 0..12 (Ace..King) and suit 0..3 (C D H S).
    fn card(rank: u8, suit: u8) -> u8 {
        suit * 13 + rank
    }

    #[test]
    fn a_completed_run_leaves_and_the_card_under_it_turns() {
        let mut cards = vec![card(4, 0), card(7, 2)];
        cards.extend((0..13).rev().map(|r| card(r, 3)));
        let (down, removed) = settle(&mut cards, 1);
        assert!(removed);
        assert_eq!(cards, vec![card(4, 0), card(7, 2)]);
        assert_eq!(down, 1);
        // Nothing face up left: the top face-down card turns.
        let mut cards = vec![card(4, 0)];
        assert_eq!(settle(&mut cards, 1), (0, false));
        // A run of two suits stays.
        let mut cards: Vec<u8> = (0..13).rev().map(|r| card(r, if r == 5 { 2 } else { 3 })).collect();
        assert_eq!(settle(&mut cards, 0), (0, false));
        assert_eq!(cards.len(), 13);
    }

    #[test]
    fn columns_are_stored_once_and_know_their_runs() {
        let mut store = Store::new(true);
        let cards = [card(9, 0), card(8, 3), card(7, 3), card(6, 2)];
        let a = store.intern(1, &cards);
        let b = store.intern(1, &cards);
        let c = store.intern(0, &cards);
        assert_eq!(a, b);
        assert_ne!(a, c);
        let info = store.info(a);
        assert_eq!((info.movable, info.hard, info.soft, info.top), (1, 0, 1, card(6, 2)));
        let mut widow = Store::new(false);
        let w = widow.intern(1, &cards);
        assert_eq!(widow.info(w).movable, 3);
    }

    #[test]
    fn the_key_ignores_column_order_only_once_the_stock_is_gone() {
        let columns: Vec<(Vec<u8>, Vec<u8>)> = (0..10u8)
            .map(|i| if i < 8 { (vec![], vec![card(i, 0)]) } else { (vec![], vec![]) })
            .collect();
        // Not a whole deck, so the game is put together by hand.
        let mut store = Store::new(false);
        let ids: Vec<u32> = columns.iter().map(|(d, u)| store.intern(d.len() as u8, u)).collect();
        let game = Game { store, stock: vec![0; 10], deals: 1, scratch_a: vec![], scratch_b: vec![], moves_made: Memo::new(), lateral_prune: true, grow_runs: false };
        let mut cols = [0u32; COLUMNS];
        cols.copy_from_slice(&ids);
        let mut swapped = cols;
        swapped.swap(0, 1);
        let with_stock = Pos { cols, dealt: 0, removed: 0 };
        let with_stock_swapped = Pos { cols: swapped, dealt: 0, removed: 0 };
        assert_ne!(game.key(&with_stock), game.key(&with_stock_swapped));
        let dealt = Pos { cols, dealt: 1, removed: 0 };
        let dealt_swapped = Pos { cols: swapped, dealt: 1, removed: 0 };
        assert_eq!(game.key(&dealt), game.key(&dealt_swapped));
    }

    /// A shuffled two-deck deal (not PySolFC's: any deal will do), dealt as the rules say.
    fn shuffled_deal(seed: u64) -> (Vec<(Vec<u8>, Vec<u8>)>, Vec<u8>) {
        let mut cards: Vec<u8> = (0..104).map(|i| (i % 52) as u8).collect();
        let mut x = seed | 1;
        for i in (1..cards.len()).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            cards.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let mut columns: Vec<(Vec<u8>, Vec<u8>)> = (0..COLUMNS).map(|_| (Vec::new(), vec![])).collect();
        let mut at = 0;
        for c in 0..COLUMNS {
            let down = if c < 4 { 5 } else { 4 };
            columns[c].0 = cards[at..at + down].to_vec();
            at += down;
            columns[c].1 = vec![cards[at]];
            at += 1;
        }
        (columns, cards[at..].to_vec())
    }

    /// A portfolio that wanders (pure noise): it does not win a four-suit deal quickly.
    const WANDER: Weights = Weights { down: 0, hard: 0, soft: 0, stock: 0, empty: 0, rooted: 0, removed: 0, depth: 0, quota: 1000, deeper: 0, noise: 1000, suited: false, lateral: false, grow: false };
    const WANDERING: [Pass; 3] = [Pass { weights: WANDER, share: 1 }, Pass { weights: WANDER, share: 2 }, Pass { weights: WANDER, share: 1 }];

    fn run(budget: &mut Budget, cap: u64) -> (Solution<Move>, Vec<u64>) {
        let (columns, stock) = shuffled_deal(7);
        let preset = Preset { name: "wander", passes: &WANDERING, cap };
        let mut spent = vec![];
        let solution = solve_reporting(&columns, &stock, 0, true, budget, &preset, &mut |index, _, positions| {
            assert_eq!(index, spent.len());
            spent.push(positions);
        })
        .unwrap();
        (solution, spent)
    }

    #[test]
    fn a_node_budget_is_shared_by_weight() {
        let (solution, spent) = run(&mut Budget::new(Some(40_000), None), u64::MAX);
        assert_eq!(solution.outcome, Outcome::Unknown);
        assert_eq!(spent, vec![10_000, 20_000, 10_000]);
        assert_eq!(solution.positions, 40_000);
    }

    #[test]
    fn a_time_budget_gives_every_pass_its_turn() {
        let started = std::time::Instant::now();
        let (solution, spent) = run(&mut Budget::new(None, Some(1.0)), u64::MAX);
        assert_eq!(solution.outcome, Outcome::Unknown);
        assert_eq!(spent.len(), 3, "every pass ran: {spent:?} in {:?}", started.elapsed());
        assert!(spent.iter().all(|&count| count > 0), "{spent:?}");
        assert!(started.elapsed() >= std::time::Duration::from_secs(1));
    }

    #[test]
    fn with_no_budget_the_passes_share_the_cap() {
        let (solution, spent) = run(&mut Budget::unlimited(), 8_000);
        assert_eq!(solution.outcome, Outcome::Unknown);
        assert_eq!(spent, vec![2_000, 4_000, 2_000]);
    }

    #[test]
    fn the_presets_are_sound() {
        for preset in PRESETS {
            assert!(!preset.passes.is_empty() && preset.cap > 0, "{}", preset.name);
            assert!(preset.passes.iter().all(|pass| pass.share > 0 && pass.weights.quota > 0), "{}", preset.name);
        }
        assert!(SPIDER.passes.iter().all(|pass| !pass.weights.suited), "Spider's moves are already suited");
        let (columns, stock) = shuffled_deal(3);
        let solution = solve(&columns, &stock, 0, false, &mut Budget::new(Some(2_000_000), None), &BLACK_WIDOW).unwrap();
        assert_eq!(solution.outcome, Outcome::Won);
    }
}
