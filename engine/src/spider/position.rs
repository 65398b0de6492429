//! Spider positions: cards, the shared store of columns, positions and their moves.

use super::{COLUMNS, DEAL, RUN, RUNS};

/// Rank (0 Ace .. 12 King) and suit (0..3) of each card index, looked up, not divided.
pub(super) const RANK_OF: [u8; 52] = {
    let mut table = [0u8; 52];
    let mut card = 0;
    while card < 52 {
        table[card] = (card % 13) as u8;
        card += 1;
    }
    table
};

#[inline]
pub(super) fn rank(card: u8) -> u8 {
    RANK_OF[card as usize]
}

#[inline]
pub(super) fn suit(card: u8) -> u8 {
    (card >= 13) as u8 + (card >= 26) as u8 + (card >= 39) as u8
}

/// Does `upper` lie on `lower` inside a run (one rank lower; same suit if `by_suit`)?
#[inline]
pub(super) fn follows(lower: u8, upper: u8, by_suit: bool) -> bool {
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
    pub(super) start: u32,
    pub(super) len: u8,
    pub(super) down: u8,
    /// Cards on top that move as a unit (by rank in Black Widow, by suit in Spider).
    pub(super) movable: u8,
    /// The top card (meaningless when the column is empty).
    pub(super) top: u8,
    /// Adjacent face-up pairs out of rank order.
    pub(super) hard: u8,
    /// Adjacent face-up pairs in rank order but of two suits.
    pub(super) soft: u8,
    /// No face-down card and a King at the bottom: nothing below it ever needs to move.
    pub(super) rooted: bool,
    /// Cards on top in one-suit order (the movable run in Spider).
    pub(super) suited: u8,
    /// The links under the movable run's cards, so that the moves are listed without
    /// reading cards: bit `count - 1` (`count` from 1 to `movable`, at most 13) when the
    /// `count`-th card from the top lies on a card of its suit one rank higher, and
    /// [`BASE_ON_RANK`] when the run's base (card `movable`) lies on a card one rank higher.
    pub(super) links: u16,
    /// The top card's rank and suit (0 when the column is empty), looked up once.
    pub(super) top_rank: u8,
    pub(super) top_suit: u8,
}

/// [`ColInfo::links`]: the movable run's base lies on a card one rank higher.
pub(super) const BASE_ON_RANK: u16 = 1 << 15;

impl ColInfo {
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The weights of a column's part of the chaos score (see [`super::Weights`]).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(super) struct ColumnWeights {
    pub(super) down: i32,
    pub(super) hard: i32,
    pub(super) soft: i32,
    pub(super) empty: i32,
    pub(super) rooted: i32,
}

impl ColumnWeights {
    /// The column's part of the chaos score.
    #[inline]
    pub(super) fn of(&self, c: &ColInfo) -> i32 {
        if c.is_empty() {
            return -self.empty;
        }
        self.down * c.down as i32 + self.hard * c.hard as i32 + self.soft * c.soft as i32 - if c.rooted { self.rooted } else { 0 }
    }
}

/// Every distinct column, stored once. Column 0 is the empty column.
pub struct Store {
    pub(super) data: Vec<u8>,
    pub(super) infos: Vec<ColInfo>,
    /// Each column's part of the chaos score by `scoring` (looked up, not recomputed, by
    /// the search: a pass scores every column with the same weights).
    pub(super) parts: Vec<i32>,
    pub(super) scoring: ColumnWeights,
    pub(super) table: Vec<u32>,
    pub(super) mask: usize,
    pub(super) by_suit: bool,
}

#[inline]
pub(super) fn column_hash(down: u8, cards: &[u8]) -> u64 {
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
        let mut store = Store {
            data: Vec::with_capacity(1 << 16),
            infos: Vec::with_capacity(1 << 12),
            parts: Vec::with_capacity(1 << 12),
            scoring: ColumnWeights::default(),
            table: vec![0; size],
            mask: size - 1,
            by_suit,
        };
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

    pub(super) fn describe(&self, down: u8, cards: &[u8], start: u32) -> ColInfo {
        let len = cards.len() as u8;
        let mut info = ColInfo { start, len, down, ..Default::default() };
        if cards.is_empty() {
            return info;
        }
        info.top = cards[cards.len() - 1];
        info.top_rank = rank(info.top);
        info.top_suit = suit(info.top);
        let up = &cards[down as usize..];
        let mut movable = 1;
        while movable < up.len() && follows(up[up.len() - movable - 1], up[up.len() - movable], self.by_suit) {
            movable += 1;
        }
        info.movable = movable as u8;
        for count in 1..=movable {
            if count < up.len() && follows(up[up.len() - count - 1], up[up.len() - count], true) {
                info.links |= 1 << (count - 1);
            }
        }
        if movable < up.len() && follows(up[up.len() - movable - 1], up[up.len() - movable], false) {
            info.links |= BASE_ON_RANK;
        }
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
        self.parts.push(self.scoring.of(&info));
        self.table[slot] = id + 1;
        if self.infos.len() * 2 > self.table.len() {
            self.grow();
        }
        id
    }

    /// Scores the columns (those stored and those to come) with `weights`.
    pub(super) fn score_with(&mut self, weights: ColumnWeights) {
        if weights != self.scoring || self.parts.len() != self.infos.len() {
            self.scoring = weights;
            self.parts = self.infos.iter().map(|info| weights.of(info)).collect();
        }
    }

    /// Column `id`'s part of the chaos score by [`Store::score_with`]'s weights.
    #[inline]
    pub(super) fn part(&self, id: u32) -> i32 {
        self.parts[id as usize]
    }

    pub(super) fn grow(&mut self) {
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

/// Flag of a [`Memo`] value's half: a completed run left the column.
pub(super) const REMOVED: u32 = 1 << 31;

/// An open-addressing map from nonzero 64-bit keys to 64-bit values: which columns a
/// move makes, so that a move seen before costs one lookup instead of copying, hashing
/// and comparing cards.
pub(super) struct Memo {
    pub(super) slots: Vec<(u64, u64)>,
    pub(super) mask: usize,
    pub(super) len: usize,
}

impl Memo {
    pub(super) fn new() -> Memo {
        Memo { slots: vec![(0, 0); 1 << 12], mask: (1 << 12) - 1, len: 0 }
    }

    #[inline]
    pub(super) fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 24) as usize & self.mask
    }

    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<u64> {
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

    pub(super) fn insert(&mut self, key: u64, value: u64) {
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

/// The [`Memo`] key of a column move: the two columns and the run's length (nonzero).
#[inline]
pub(super) fn move_key(source: u32, target: u32, count: u8) -> u64 {
    ((target as u64 + 1) << 36) | (source as u64) << 8 | count as u64
}

/// The [`Memo`] key of a deal's card onto a column (nonzero).
#[inline]
pub(super) fn deal_key(column: u32, card: u8) -> u64 {
    ((column as u64 + 1) << 8) | card as u64
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
    pub(super) stock: Vec<u8>,
    pub(super) deals: u8,
    pub(super) scratch_a: Vec<u8>,
    pub(super) scratch_b: Vec<u8>,
    /// The two columns a column move made (source's low, target's high), by (source,
    /// target, count).
    pub(super) moves_made: Memo,
    /// The column a deal's card made, by (column, card).
    pub(super) deals_made: Memo,
    /// Prune lateral moves (see `search_moves`).
    pub lateral_prune: bool,
    /// Split a one-suit link only to make the target's one-suit run longer.
    pub grow_runs: bool,
}

/// Removes a completed run on top, then turns a face-down top card. Returns the new
/// face-down count and whether a run left.
#[inline]
pub(super) fn settle(cards: &mut Vec<u8>, mut down: u8) -> (u8, bool) {
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
        if !stock.len().is_multiple_of(COLUMNS) || stock.len() > 50 {
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
        let game = Game {
            store,
            stock: stock.to_vec(),
            deals: (stock.len() / COLUMNS) as u8,
            scratch_a: Vec::new(),
            scratch_b: Vec::new(),
            moves_made: Memo::new(),
            deals_made: Memo::new(),
            lateral_prune: true,
            grow_runs: false,
        };
        Ok((game, Pos { cols, dealt: 0, removed }))
    }

    #[inline]
    pub(super) fn deals_left(&self, pos: &Pos) -> u8 {
        self.deals - pos.dealt
    }

    #[inline]
    pub(super) fn has_empty(&self, pos: &Pos) -> bool {
        pos.cols.contains(&0)
    }

    /// Every legal move, as the rules list them (source, run length, target; the deal last).
    pub fn legal_moves(&self, pos: &Pos) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(pos, &mut moves);
        moves
    }

    /// [`Game::legal_moves`] into `moves` (emptied first).
    pub fn legal_moves_into(&self, pos: &Pos, moves: &mut Vec<Move>) {
        moves.clear();
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
    }

    /// The position after `mv` (legal), with automatic removal and turning.
    pub fn apply(&mut self, pos: &Pos, mv: Move) -> Pos {
        let mut next = *pos;
        if mv.src == DEAL {
            let base = pos.dealt as usize * COLUMNS;
            for index in 0..COLUMNS {
                let id = pos.cols[index];
                let card = self.stock[base + index];
                // The same column and card make the same column: look it up. A column is
                // interned only when first made, so the columns' ids (and so the keys)
                // come in the same order as if every deal interned its columns.
                let key = deal_key(id, card);
                if let Some(made) = self.deals_made.get(key) {
                    let made = made as u32;
                    next.removed += (made >> 31) as u8;
                    next.cols[index] = made & !REMOVED;
                    continue;
                }
                let info = *self.store.info(id);
                self.scratch_a.clear();
                self.scratch_a.extend_from_slice(self.store.cards(id));
                self.scratch_a.push(card);
                let (down, removed) = settle(&mut self.scratch_a, info.down);
                next.removed += removed as u8;
                next.cols[index] = self.store.intern(down, &self.scratch_a);
                self.deals_made.insert(key, (next.cols[index] | (removed as u32) << 31) as u64);
            }
            next.dealt += 1;
            return next;
        }
        let (src, dst, count) = (mv.src as usize, mv.dst as usize, mv.count as usize);
        // The same two columns make the same two columns: look the move's result up.
        let key = move_key(pos.cols[src], pos.cols[dst], mv.count);
        if let Some(made) = self.moves_made.get(key) {
            let (source, target) = (made as u32, (made >> 32) as u32);
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
        // The target first: the order in which new columns get their ids.
        next.cols[dst] = self.store.intern(tdown, &b);
        next.cols[src] = self.store.intern(sdown, &a);
        let source = next.cols[src] | (sremoved as u32) << 31;
        let target = next.cols[dst] | (tremoved as u32) << 31;
        self.moves_made.insert(key, source as u64 | (target as u64) << 32);
        a.clear();
        b.clear();
        self.scratch_a = a;
        self.scratch_b = b;
        next
    }

    /// The seen-set key: the column ids (in canonical order once the stock is gone) and
    /// the deals made, mixed into 63 bits.
    #[inline]
    pub(super) fn key(&self, pos: &Pos) -> u64 {
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
    pub(super) fn key_after(&self, key: u64, parent: &Pos, child: &Pos, mv: Move) -> u64 {
        let ordered = self.deals_left(parent) > 0;
        let term = |index: usize, column: u32| {
            let salt = if ordered { index as u64 + 1 } else { 0 };
            mix(column as u64 | (salt << 32))
        };
        let (a, b) = (mv.src as usize, mv.dst as usize);
        let h = key
            .wrapping_sub(term(a, parent.cols[a]))
            .wrapping_sub(term(b, parent.cols[b]))
            .wrapping_add(term(a, child.cols[a]))
            .wrapping_add(term(b, child.cols[b]));
        h & !(1u64 << 63)
    }
}

/// A strong 64-bit mixer (splitmix64's finaliser).
#[inline]
pub(super) fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
