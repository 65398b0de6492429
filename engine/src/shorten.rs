//! Shortening a winning line after the search found it, for every game family.
//!
//! A search finds *a* win; its line can wander: a position may come back (a loop), a
//! move may be taken back later with nothing else done to the two places it joined, or
//! a few moves may do what one would. [`shorten`] cleans a line in rounds, each within
//! the caller's [`Limits`]:
//!
//! 1. **Shortcuts.** A graph is made of the line's positions, joined by its moves, and
//!    (while the limits allow) of their neighbourhood: every position one move away
//!    from a position of the line, and the moves from those that land on a known
//!    position. Positions are nodes by their canonical key (the key the family's
//!    search uses: the order of columns or cells may not count), so a loop is a
//!    cycle of the graph. A breadth-first search from the first position to a won one
//!    gives the shortest line through the graph: no loop, and every shortcut of one or
//!    two moves between positions of the line (fc-solve's `--optimize-solution`
//!    re-searches the states of a solution the same way, breadth first).
//! 2. **Moves taken back.** A move `A -> B` later followed by the move that puts the
//!    same cards back `B -> A`, with no move between touching `A` or `B`: both go when
//!    the line without them still plays and wins.
//!
//! Rounds repeat while the line gets shorter and the limits last. The last steps
//! always run, whatever the limits: the moves taken back, then the graph of the line
//! alone (no neighbours), so the line returned never repeats a position.
//!
//! A family plugs in through [`Domain`]: its positions, moves, canonical keys, and how
//! a move made in one position is made in another position with the same key (the
//! columns may be in another order).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// A hasher for keys that are already well mixed (position keys): their low bits.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u128(&mut self, value: u128) {
        self.0 = (value as u64 ^ (value >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type KeyMap<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;

/// A game family as the shortener sees it.
pub trait Domain {
    type State: Clone;
    type Move: Copy + std::fmt::Debug;
    /// How the places of one position map onto the places of another with the same key.
    type Perm;
    /// What `near` compares (made once per position).
    type Sig;
    /// What [`Domain::undo_in`] needs to take a move back.
    type Undo;

    /// The canonical key (equal for positions the family's search treats as one).
    fn key(&self, s: &Self::State) -> u128;
    /// Every move worth trying from `s`.
    fn moves(&mut self, s: &Self::State, out: &mut Vec<Self::Move>);
    /// The columns (bits below 32) the positions
    /// whose summaries are `a` and `b` differ in; every bit when the family cannot tell.
    fn differ(&self, _a: &Self::Sig, _b: &Self::Sig) -> u32 {
        u32::MAX
    }
    /// The moves from `s` that `moves` gives and that use a place of `mask` or a cell
    /// (the first of two moves between positions that differ in `mask`: a first move
    /// touching none of those places would have to be taken back by the second).
    fn moves_toward(&mut self, s: &Self::State, _mask: u32, out: &mut Vec<Self::Move>) {
        self.moves(s, out)
    }
    /// Is `m` legal in `s`?
    fn legal(&mut self, s: &Self::State, m: Self::Move) -> bool;
    /// The position after the legal move `m`, and the move as played (what the line
    /// records), with whatever the rules do by themselves after it.
    fn play(&mut self, s: &Self::State, m: Self::Move) -> (Self::State, Self::Move);
    /// `play` made in `s` itself: the move as played, and what takes it back.
    fn play_in(&mut self, s: &mut Self::State, m: Self::Move) -> (Self::Move, Self::Undo);
    /// Take back what `play_in` did (`s` as it was before).
    fn undo_in(&mut self, s: &mut Self::State, undo: Self::Undo);
    /// The key of the position after `m` and whether it is won (`s` is as it was on
    /// return).
    fn child(&mut self, s: &mut Self::State, m: Self::Move) -> (u128, bool) {
        let (_, undo) = self.play_in(s, m);
        let out = (self.key(s), self.won(s));
        self.undo_in(s, undo);
        out
    }
    fn won(&self, s: &Self::State) -> bool;
    /// Are the two positions the same place for place (not only by key)?
    fn same(&self, a: &Self::State, b: &Self::State) -> bool;
    /// A summary of a position for `near`.
    fn sig(&self, s: &Self::State) -> Self::Sig;
    /// A lower bound on the moves from `a` to `b` (0 when unknown); `u32::MAX` when
    /// neither `b` nor any later position of a line through `b` is within two moves.
    fn near(&self, a: &Self::Sig, b: &Self::Sig) -> u32;
    /// Can the move `m`, made in `s` (whose summary is `a`), leave the position whose
    /// summary is `b` at most `left` moves away? (`false` only when it surely cannot:
    /// what `a` and `b` differ in beyond what `m` changes needs more moves.)
    fn covers(&self, _s: &Self::State, _a: &Self::Sig, _b: &Self::Sig, _m: Self::Move, _left: u32) -> bool {
        true
    }
    /// The summary of the position after the legal move `m` from `s` (summary `a`),
    /// made without making the position; `None` when the family cannot tell (the
    /// position is then made).
    fn after(&self, _s: &Self::State, _a: &Self::Sig, _m: Self::Move) -> Option<Self::Sig> {
        None
    }
    /// Did the move `m` from `before` to `after` move only its own cards (not cards the
    /// rules then move by themselves)? A move that did is not left out of a line.
    fn alone(&self, _before: &Self::State, _m: Self::Move, _after: &Self::State) -> bool {
        true
    }
    /// Does `bridge` answer? (Otherwise the moves from a position are tried one by one.)
    const BRIDGES: bool = false;
    /// The one move that may take `s` (summary `a`) to a position whose summary is `b`,
    /// read from what they differ in (`None`: no one move can). It may be illegal.
    fn bridge(&self, _s: &Self::State, _a: &Self::Sig, _b: &Self::Sig) -> Option<Self::Move> {
        None
    }
    /// The map from `from`'s places to `to`'s, for two positions with the same key.
    fn perm(&self, from: &Self::State, to: &Self::State) -> Self::Perm;
    /// The map that changes nothing (a line edited in place keeps its places).
    fn identity(&self) -> Self::Perm;
    /// The move `m`, made in `from`, made instead in `to` through `perm` (`None` when
    /// it cannot be: the edited line is then refused).
    fn translate(&self, perm: &Self::Perm, m: Self::Move, from: &Self::State, to: &Self::State) -> Option<Self::Move>;
    /// When `b` moves on the cards `a` moved, from where `a` put them (both moves as
    /// played: they tell their cards): back where they came from ([`Joined::Back`]), or
    /// elsewhere ([`Joined::Into`]: the one move, made where `a` was, that takes them
    /// there at once).
    fn join(&self, a: Self::Move, b: Self::Move) -> Joined<Self::Move>;
    /// The places a move uses (a column, a cell: numbers below 64), [`NOWHERE`] for
    /// none (the foundations are no place a move undoes), [`EVERYWHERE`] for a move that
    /// touches every place (a deal from the stock).
    fn places(&self, m: Self::Move) -> [u8; 2];
    /// Do the two moves share a place?
    fn touches(&self, a: Self::Move, b: Self::Move) -> bool {
        let (x, y) = (self.places(a), self.places(b));
        if x.contains(&EVERYWHERE) || y.contains(&EVERYWHERE) {
            return true;
        }
        x.iter().any(|p| *p != NOWHERE && y.contains(p))
    }
}

/// [`Domain::places`]: no place.
pub const NOWHERE: u8 = 255;
/// [`Domain::places`]: every place.
pub const EVERYWHERE: u8 = 254;

/// Two moves of the same cards, one after the other (see [`Domain::join`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined<M> {
    /// Not the same cards, or not from where the first move put them.
    Apart,
    /// The second move puts them back where the first took them from.
    Back,
    /// One move would do both.
    Into(M),
}

/// How much a shortening may cost: a deadline and a number of moves tried (each
/// position made while looking for shortcuts counts one).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub deadline: Option<Instant>,
    pub max_tries: u64,
    /// 0: loops and moves taken back only; 1: also shortcuts of one move; 2: also
    /// shortcuts of two moves through the neighbourhood.
    pub depth: u8,
    /// Rounds at most.
    pub rounds: u32,
    /// Positions a family may spend searching the rest of the game again from a few
    /// positions of the line (0: none), and that search's cost per move.
    pub research: u64,
    pub research_depth: u8,
}

impl Limits {
    /// Loops only: no search (what always runs last).
    pub const LOOPS: Limits = Limits { deadline: None, max_tries: 0, depth: 0, rounds: 1, research: 0, research_depth: 0 };
}

/// What a shortening did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub before: usize,
    pub after: usize,
    pub tries: u64,
    pub rounds: u32,
}

/// Where a node's position comes from: a position of the line, or one move from one.
#[derive(Clone, Copy)]
enum Origin<M> {
    Line(u32),
    Near(u32, M),
}

struct Spend {
    tries: u64,
    max: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl Spend {
    #[inline]
    fn take(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        self.tries += 1;
        if self.tries >= self.max {
            self.stopped = true;
        } else if self.tries.is_multiple_of(256) {
            if let Some(deadline) = self.deadline {
                self.stopped = Instant::now() >= deadline;
            }
        }
        !self.stopped
    }
}

/// A line's positions (the first position first) and moves.
/// (Each position boxed: a line edited in place moves pointers, not positions.)
pub type Played<D> = (Vec<Box<<D as Domain>::State>>, Vec<<D as Domain>::Move>);

/// The positions of `line` from `root` (the first is `root`), with the moves as played;
/// `None` if a move is illegal.
pub fn replay<D: Domain>(d: &mut D, root: &D::State, line: &[D::Move]) -> Option<Played<D>> {
    let mut states = Vec::with_capacity(line.len() + 1);
    let mut played = Vec::with_capacity(line.len());
    states.push(Box::new(root.clone()));
    for &m in line {
        let s = states.last().unwrap();
        if !d.legal(s, m) {
            return None;
        }
        let (next, p) = d.play(s, m);
        states.push(Box::new(next));
        played.push(p);
    }
    Some((states, played))
}

/// A shorter winning line from `root` than `line` (which must win), within `limits`,
/// and what it cost. The line returned repeats no position.
pub fn shorten<D: Domain>(d: &mut D, root: &D::State, line: &[D::Move], limits: &Limits) -> (Vec<D::Move>, Stats) {
    let mut s = root.clone();
    let mut moves = Vec::with_capacity(line.len());
    for &m in line {
        if !d.legal(&s, m) {
            return (line.to_vec(), Stats { before: line.len(), after: line.len(), ..Stats::default() });
        }
        moves.push(d.play_in(&mut s, m).0);
    }
    if !d.won(&s) {
        let n = moves.len();
        return (moves, Stats { before: n, after: n, ..Stats::default() });
    }
    shorten_moves(d, root, moves, limits)
}

/// [`shorten`] for a line already checked: its moves as played from `root` (as
/// [`Domain::play_in`] gives them), legal and winning.
///
/// No position of the line is kept: each pass plays the line again in one position
/// (made and taken back in place), which costs less than copying a hundred positions.
pub fn shorten_moves<D: Domain>(d: &mut D, root: &D::State, mut moves: Vec<D::Move>, limits: &Limits) -> (Vec<D::Move>, Stats) {
    let mut stats = Stats { before: moves.len(), after: moves.len(), ..Stats::default() };
    let mut spend = Spend { tries: 0, max: limits.max_tries, deadline: limits.deadline, stopped: limits.max_tries == 0 };
    if let Some(deadline) = limits.deadline {
        spend.stopped |= Instant::now() >= deadline;
    }
    let mut joined = false; // the moves taken back are out already
    let mut loops = true; // the line may repeat a position
    for _ in 0..limits.rounds {
        if spend.stopped {
            break;
        }
        stats.rounds += 1;
        let before = moves.len();
        let found = shortest(d, root, &moves, limits.depth, &mut spend);
        // The shortest line through the line's positions repeats none of them; only
        // the moves joined below make new positions (or a shortest line that did not
        // play, if any).
        loops = found.is_none();
        if let Some(m) = found {
            moves = m;
        }
        loops |= join_pairs(d, root, &mut moves);
        joined = true;
        if moves.len() >= before {
            break;
        }
    }
    // Whatever the limits: no move taken back without need, no position twice.
    if !joined {
        loops = true;
        join_pairs(d, root, &mut moves);
    }
    // A loop left out may leave a move taken back with nothing between any more: the
    // two steps again while either changes the line (each change shortens it).
    let mut none = Spend { tries: 0, max: 0, deadline: None, stopped: true };
    while loops {
        let Some(m) = shortest(d, root, &moves, 0, &mut none) else { break };
        moves = m;
        loops = join_pairs(d, root, &mut moves);
    }
    stats.tries = spend.tries;
    stats.after = moves.len();
    (moves, stats)
}

/// How far along the line a shortcut of one move is looked for (positions), and one of
/// two moves: fitted on FreeCell deals 1-300 (no window: 110.5 / 129 moves median / p90;
/// 12 and 6: 111 / 129; the nearer the positions, the likelier a shortcut).
const WINDOW_ONE: usize = 16;
const WINDOW_TWO: usize = 8;

/// A shortcut found from position `from` of the line to position `to`: one move made in
/// position `from`, and a second one made in the position after it.
struct Shortcut<M> {
    from: u32,
    to: u32,
    first: M,
    second: Option<M>,
}

/// The shortest line through the line's positions (a position met twice is one: a
/// loop costs nothing to leave out) and (with `depth`) the shortcuts of one or two
/// moves between them, as its moves; `None` if nothing is shorter.
///
/// In steps: the line's positions keyed ([`Walked`]), the shortcuts between them looked
/// for ([`Finder`]), the shortest path over the line and its shortcuts ([`best_path`]),
/// and that path played from the first position ([`play_path`]).
fn shortest<D: Domain>(d: &mut D, root: &D::State, moves: &[D::Move], depth: u8, spend: &mut Spend) -> Option<Vec<D::Move>> {
    let search = depth >= 1 && !spend.stopped;
    let mut cur = root.clone();
    let walked = Walked::new(d, &mut cur, moves, search);
    if !search && !walked.repeated {
        return None;
    }
    let cuts = if search {
        cur.clone_from(root);
        let mut finder = Finder::new(d, &walked.sigs, &walked.last, spend, depth);
        finder.run(&mut cur, moves);
        finder.cuts
    } else {
        Vec::new()
    };
    let steps = best_path(moves, &walked.keys, &walked.last, &cuts)?;
    cur.clone_from(root);
    play_path(d, root, moves, steps, &mut cur)
}

/// The line played once: each position's key, its summary (when shortcuts are looked
/// for), and the last position of the line with each key.
struct Walked<S> {
    keys: Vec<u128>,
    sigs: Vec<S>,
    last: KeyMap<u32>,
    /// Some position comes twice.
    repeated: bool,
}

impl<S> Walked<S> {
    /// `cur` is the first position, and the last one on return.
    fn new<D: Domain<Sig = S>>(d: &mut D, cur: &mut D::State, moves: &[D::Move], sigs: bool) -> Self {
        let n = moves.len();
        let mut keys: Vec<u128> = Vec::with_capacity(n + 1);
        let mut summaries: Vec<S> = Vec::with_capacity(if sigs { n + 1 } else { 0 });
        for k in 0..=n {
            keys.push(d.key(cur));
            if sigs {
                summaries.push(d.sig(cur));
            }
            if k < n {
                d.play_in(cur, moves[k]);
            }
        }
        let mut last: KeyMap<u32> = KeyMap::default();
        last.reserve(n + 1);
        let mut repeated = false;
        for (i, &key) in keys.iter().enumerate() {
            repeated |= last.insert(key, i as u32).is_some();
        }
        Walked { keys, sigs: summaries, last, repeated }
    }
}

/// Looks for the shortcuts of one or two moves between positions of the line.
///
/// Only the neighbourhood that can pay is made: the moves from position `i` that
/// `Domain::covers` lets through (the move changes what `i` and a later position `j`
/// differ in, so that `j` may be one move away, or none), and from a position one move
/// away, only where `near` lets a later position be one move away. The shortcuts are
/// found in the order of their first position.
struct Finder<'a, D: Domain> {
    d: &'a mut D,
    sigs: &'a [D::Sig],
    last: &'a KeyMap<u32>,
    spend: &'a mut Spend,
    depth: u8,
    cuts: Vec<Shortcut<D::Move>>,
    /// Later positions maybe one move away, and maybe two.
    one: Vec<u32>,
    two: Vec<u32>,
    /// Of `two`, those the first move leaves one move away.
    pick: Vec<u32>,
    generated: Vec<D::Move>,
    second: Vec<D::Move>,
}

impl<'a, D: Domain> Finder<'a, D> {
    fn new(d: &'a mut D, sigs: &'a [D::Sig], last: &'a KeyMap<u32>, spend: &'a mut Spend, depth: u8) -> Self {
        Finder { d, sigs, last, spend, depth, cuts: Vec::new(), one: Vec::new(), two: Vec::new(), pick: Vec::new(), generated: Vec::with_capacity(64), second: Vec::with_capacity(64) }
    }

    /// Every position of the line in turn (`cur`, the first position, walks the line),
    /// until the spending stops.
    fn run(&mut self, cur: &mut D::State, moves: &[D::Move]) {
        for i in 0..moves.len() {
            if i > 0 {
                self.d.play_in(cur, moves[i - 1]);
            }
            if !self.from(cur, i, moves.len()) {
                break;
            }
        }
    }

    /// The shortcuts from position `i` (`cur`); `false` when the spending stopped.
    fn from(&mut self, cur: &mut D::State, i: usize, n: usize) -> bool {
        self.targets(i, n);
        if self.one.is_empty() && self.two.is_empty() {
            return true;
        }
        if D::BRIDGES {
            if !self.bridges(cur, i) {
                return false;
            }
            if self.two.is_empty() {
                return true;
            }
        }
        self.neighbours(cur, i)
    }

    /// The later positions (`one`, `two`) that a lower bound lets be one or two moves
    /// from position `i`, within the windows.
    fn targets(&mut self, i: usize, n: usize) {
        self.one.clear();
        self.two.clear();
        for j in i + 2..=n.min(i + WINDOW_ONE.max(WINDOW_TWO)) {
            let lower = self.d.near(&self.sigs[i], &self.sigs[j]);
            if lower == u32::MAX {
                break; // no later position is closer
            }
            if lower <= 1 && j <= i + WINDOW_ONE {
                self.one.push(j as u32);
            }
            if self.depth >= 2 && j >= i + 3 && j <= i + WINDOW_TWO && lower <= 2 {
                self.two.push(j as u32);
            }
        }
    }

    /// A shortcut from position `from` through `first` (and `second`) when the key
    /// reached is that of a position of the line after `beyond`.
    fn record(&mut self, key: u128, from: usize, beyond: usize, first: D::Move, second: Option<D::Move>) {
        if let Some(&to) = self.last.get(&key) {
            if to as usize > beyond {
                self.cuts.push(Shortcut { from: from as u32, to, first, second });
            }
        }
    }

    /// The one move straight to a later position of `one`, read from what they differ
    /// in ([`Domain::bridge`]); `false` when the spending stopped.
    fn bridges(&mut self, cur: &mut D::State, i: usize) -> bool {
        for k in 0..self.one.len() {
            let j = self.one[k] as usize;
            let Some(m) = self.d.bridge(cur, &self.sigs[i], &self.sigs[j]) else { continue };
            if !self.d.legal(cur, m) {
                continue;
            }
            if !self.spend.take() {
                return false;
            }
            let (key, _) = self.d.child(cur, m);
            self.record(key, i, i + 1, m, None);
        }
        true
    }

    /// The moves from position `i` (`cur`) that may reach a position of `one` at once
    /// or one of `two` in one more move, each made in place and taken back; `false` when
    /// the spending stopped.
    fn neighbours(&mut self, cur: &mut D::State, i: usize) -> bool {
        let mask = self.two.iter().fold(0, |mask, &j| mask | self.d.differ(&self.sigs[i], &self.sigs[j as usize]));
        let mut generated = std::mem::take(&mut self.generated);
        self.d.moves_toward(cur, mask, &mut generated);
        let mut going = true;
        for &m in generated.iter() {
            // (With `bridge`, the one-move shortcuts are found before.)
            let next = self.d.after(cur, &self.sigs[i], m);
            let (direct, via) = self.worth(cur, i, m, next.as_ref());
            if !direct && !via {
                continue;
            }
            if !self.spend.take() {
                going = false;
                break;
            }
            // The move made in place, taken back before the next one.
            let (_, undo) = self.d.play_in(cur, m);
            let key = self.d.key(cur);
            self.record(key, i, i + 1, m, None);
            let stop = via && !self.seconds(cur, i, m, next);
            self.d.undo_in(cur, undo);
            if stop {
                going = false;
                break;
            }
        }
        self.generated = generated;
        going
    }

    /// Whether the move `m` from position `i` may reach a position of `one` at once,
    /// and one of `two` in one more move (from the summary after it, `next`, when the
    /// family tells it).
    fn worth(&self, cur: &D::State, i: usize, m: D::Move, next: Option<&D::Sig>) -> (bool, bool) {
        let (d, sigs) = (&*self.d, self.sigs);
        match next {
            Some(sx) => (!D::BRIDGES && self.one.iter().any(|&j| d.near(sx, &sigs[j as usize]) == 0), self.two.iter().any(|&j| d.near(sx, &sigs[j as usize]) <= 1)),
            None => (!D::BRIDGES && self.one.iter().any(|&j| d.covers(cur, &sigs[i], &sigs[j as usize], m, 0)), self.two.iter().any(|&j| d.covers(cur, &sigs[i], &sigs[j as usize], m, 1))),
        }
    }

    /// The second moves from `cur`, the position after the move `first` from position
    /// `i` (summary `next` when the family told it), to a position of `two`; `false`
    /// when the spending stopped.
    fn seconds(&mut self, cur: &mut D::State, i: usize, first: D::Move, next: Option<D::Sig>) -> bool {
        let sx = next.unwrap_or_else(|| self.d.sig(cur));
        let (d, sigs) = (&*self.d, self.sigs);
        self.pick.clear();
        self.pick.extend(self.two.iter().copied().filter(|&j| d.covers(cur, &sigs[i], &sigs[j as usize], first, 1) && d.near(&sx, &sigs[j as usize]) <= 1));
        if self.pick.is_empty() {
            return true;
        }
        if D::BRIDGES {
            for k in 0..self.pick.len() {
                let j = self.pick[k] as usize;
                let Some(m2) = self.d.bridge(cur, &sx, &self.sigs[j]) else { continue };
                if !self.d.legal(cur, m2) {
                    continue;
                }
                if !self.spend.take() {
                    return false;
                }
                let (key, _) = self.d.child(cur, m2);
                self.record(key, i, i + 2, first, Some(m2));
            }
            return true;
        }
        let mut second = std::mem::take(&mut self.second);
        self.d.moves(cur, &mut second);
        let mut going = true;
        for &m2 in second.iter() {
            if !self.pick.iter().any(|&j| self.d.covers(cur, &sx, &self.sigs[j as usize], m2, 0)) {
                continue;
            }
            if !self.spend.take() {
                going = false;
                break;
            }
            let (key, _) = self.d.child(cur, m2);
            self.record(key, i, i + 2, first, Some(m2));
        }
        self.second = second;
        going
    }
}

/// How a position of the line is best reached (see [`best_path`]).
#[derive(Clone, Copy)]
enum Via {
    Start,
    /// By the line's own move from the position before.
    Line,
    /// It is the position at this index again (a loop left out).
    Same(u32),
    /// By this shortcut.
    Cut(u32),
}

/// The shortest path from the first position of the line to the last, over the line's
/// moves, its loops (free) and the shortcuts `cuts` (in the order of their first
/// position), as (made in, move) steps; `None` if it is no shorter than the line.
/// Every edge goes forward along the line, so this is one pass over the positions.
fn best_path<M: Copy>(moves: &[M], keys: &[u128], last: &KeyMap<u32>, cuts: &[Shortcut<M>]) -> Option<Vec<(Origin<M>, M)>> {
    let n = moves.len();
    // One pass: each position's distance from the first, and how it is reached.
    let mut dist = vec![u32::MAX; n + 1];
    let mut via = vec![Via::Start; n + 1];
    dist[0] = 0;
    let mut next_cut = 0;
    for i in 0..=n {
        let here = dist[i];
        // A position met again later: on from there at no cost.
        let j = last[&keys[i]] as usize;
        if j > i && here < dist[j] {
            dist[j] = here;
            via[j] = Via::Same(i as u32);
        }
        if i < n && here + 1 < dist[i + 1] {
            dist[i + 1] = here + 1;
            via[i + 1] = Via::Line;
        }
        while next_cut < cuts.len() && cuts[next_cut].from as usize == i {
            let cut = &cuts[next_cut];
            let cost = here + 1 + cut.second.is_some() as u32;
            if cost < dist[cut.to as usize] {
                dist[cut.to as usize] = cost;
                via[cut.to as usize] = Via::Cut(next_cut as u32);
            }
            next_cut += 1;
        }
    }
    if dist[n] as usize >= n {
        return None;
    }
    // The path back from the last position.
    let mut steps: Vec<(Origin<M>, M)> = Vec::with_capacity(dist[n] as usize);
    let mut at = n;
    while at > 0 {
        match via[at] {
            Via::Start => return None,
            Via::Line => {
                steps.push((Origin::Line(at as u32 - 1), moves[at - 1]));
                at -= 1;
            }
            Via::Same(i) => at = i as usize,
            Via::Cut(c) => {
                let cut = &cuts[c as usize];
                if let Some(m2) = cut.second {
                    steps.push((Origin::Near(cut.from, cut.first), m2));
                }
                steps.push((Origin::Line(cut.from), cut.first));
                at = cut.from as usize;
            }
        }
    }
    steps.reverse();
    Some(steps)
}

/// The moves of the path `steps` played from the first position (`cur`, equal to
/// `root`), each move made where the new line now is (translated from the position it
/// was found in); `None` if one does not play or the line does not win.
fn play_path<D: Domain>(d: &mut D, root: &D::State, moves: &[D::Move], steps: Vec<(Origin<D::Move>, D::Move)>, cur: &mut D::State) -> Option<Vec<D::Move>> {
    // `old` walks the old line (the positions the steps were made in), `cur` the new one.
    let mut old = root.clone();
    let mut old_at = 0;
    let mut new_moves = Vec::with_capacity(steps.len());
    for (from, mv) in steps {
        let i = match from {
            Origin::Line(i) | Origin::Near(i, _) => i as usize,
        };
        while old_at < i {
            d.play_in(&mut old, moves[old_at]);
            old_at += 1;
        }
        let m = match from {
            Origin::Line(_) => {
                if d.same(&old, cur) {
                    mv
                } else {
                    let perm = d.perm(&old, cur);
                    d.translate(&perm, mv, &old, cur)?
                }
            }
            Origin::Near(_, m) => {
                let made_in = d.play(&old, m).0;
                let perm = d.perm(&made_in, cur);
                d.translate(&perm, mv, &made_in, cur)?
            }
        };
        if !d.legal(cur, m) {
            return None;
        }
        new_moves.push(d.play_in(cur, m).0);
    }
    if !d.won(cur) {
        return None;
    }
    Some(new_moves)
}

/// A pair of moves of the same cards (see [`join_pairs`]): move `i`, move `j`, and how.
type Pair<M> = (usize, usize, Joined<M>);

/// The pairs of moves of the same cards from move `from` on, by their first move: for
/// each move `j`, the nearest earlier move `i` it joins, with no move between touching
/// the places of either.
fn pairs<D: Domain>(d: &D, moves: &[D::Move], from: usize, out: &mut Vec<Pair<D::Move>>) {
    // Moves join only moves that touch them (the second takes the cards from where the
    // first put them): for each move, the last earlier one using one of its places.
    out.clear();
    let mut last = [usize::MAX; 64];
    let mut all = usize::MAX; // the last move touching every place
    for j in from..moves.len() {
        let places = d.places(moves[j]);
        let mut i = all;
        if places.contains(&EVERYWHERE) {
            i = if j > from { j - 1 } else { usize::MAX };
            all = j;
        } else {
            for &p in places.iter().filter(|&&p| p != NOWHERE) {
                if last[p as usize] != usize::MAX && (i == usize::MAX || last[p as usize] > i) {
                    i = last[p as usize];
                }
            }
            for &p in places.iter().filter(|&&p| p != NOWHERE) {
                last[p as usize] = j;
            }
        }
        if i != usize::MAX {
            let joined = d.join(moves[i], moves[j]);
            if !matches!(joined, Joined::Apart) {
                out.push((i, j, joined));
            }
        }
    }
    out.sort_by_key(|&(i, j, _)| (i, j));
}

/// Join the moves of the same cards: a move later taken back (same cards, back where
/// they came from, no move between touching either place) goes with the move taking it
/// back; two moves of the same cards become one. Each change is kept when the line
/// still plays and wins. The line is walked in one position; a change made, the pairs
/// after it are looked for again, and the whole line once more while pairs not tried
/// yet are left. Whether anything changed.
fn join_pairs<D: Domain>(d: &mut D, root: &D::State, moves: &mut Vec<D::Move>) -> bool {
    let mut found = Vec::new();
    // Tried in vain, in the line as it now is: (i, j, the move the edited line failed at).
    let mut failed: Vec<(usize, usize, usize)> = Vec::new();
    let mut any = false;
    let mut cur = root.clone();
    loop {
        pairs(d, moves, 0, &mut found);
        found.retain(|&(i, j, _)| !failed.iter().any(|&(a, b, _)| (a, b) == (i, j)));
        if found.is_empty() {
            return any;
        }
        cur.clone_from(root);
        let mut at = 0; // `cur` is the position before move `at`
        let mut next = 0;
        while next < found.len() {
            let (i, j, joined) = found[next];
            next += 1;
            if i < at {
                continue; // behind the walk: the next round
            }
            while at < i {
                d.play_in(&mut cur, moves[at]);
                at += 1;
            }
            let edit = match joined {
                Joined::Apart => Err(i),
                Joined::Back => edited(d, &cur, moves, i, j, None, None),
                // The cards moved at once where the second move takes them (fails
                // at once when that place does not take them yet), or left where they
                // were until then: only if the rules moved nothing else after the first
                // move, and no move between uses the place they would stay in.
                Joined::Into(m) => edited(d, &cur, moves, i, j, Some(m), None).or_else(|first| {
                    if (i + 1..j).any(|k| d.touches(moves[k], moves[i])) {
                        return Err(first);
                    }
                    let mut after = cur.clone();
                    d.play_in(&mut after, moves[i]);
                    if !d.alone(&cur, moves[i], &after) {
                        return Err(first);
                    }
                    edited(d, &cur, moves, i, j, None, Some(m)).map_err(|second| first.max(second))
                }),
            };
            let (new_moves, end) = match edit {
                Ok(edit) => edit,
                Err(at) => {
                    failed.push((i, j, at));
                    continue;
                }
            };
            let (removed, added) = (end - i, new_moves.len());
            moves.splice(i..end, new_moves);
            any = true;
            // The pairs tried in vain after the change keep (their places move); those
            // before it, only when their edited line failed before the change (one that
            // failed later, or did not win, may play now: it is tried again).
            failed.retain_mut(|(a, b, at)| {
                if *a >= end {
                    *a = *a + added - removed;
                    *b = *b + added - removed;
                    *at = *at + added - removed;
                    true
                } else {
                    *b < i && *at < i
                }
            });
            // The pairs from move `i` on, in the line as it now is.
            pairs(d, moves, i, &mut found);
            found.retain(|&(a, b, _)| !failed.iter().any(|&(x, y, _)| (x, y) == (a, b)));
            next = 0;
        }
    }
}

/// The moves that replace moves `i..end` of the line when move `i` is replaced by
/// `at_i` and move `j` by `at_j` (i < j; `None`: left out; both made as in position
/// `i`, which is `start`), if the line still plays and wins. Once the edited line is
/// back on the old one, place for place, the rest is kept. `Err(k)`: the edited line
/// fails at move `k` of the old line (`moves.len()`: it does not win), so a change of the
/// line from move `k + 1` on may let it play.
fn edited<D: Domain>(d: &mut D, start: &D::State, moves: &[D::Move], i: usize, j: usize, at_i: Option<D::Move>, at_j: Option<D::Move>) -> Result<(Vec<D::Move>, usize), usize> {
    let mut new_moves: Vec<D::Move> = Vec::with_capacity(j + 2 - i);
    let same = d.identity();
    if let Some(m) = at_i {
        // Most joins fail at once: the place does not take the cards yet.
        let m = d.translate(&same, m, start, start).ok_or(i)?;
        if !d.legal(start, m) {
            return Err(i);
        }
    }
    let mut cur = start.clone(); // the edited line
    let mut old = start.clone(); // the old line: position `k` at step `k`
    for k in i..moves.len() {
        if k > i {
            d.play_in(&mut old, moves[k - 1]);
        }
        if k > j && d.same(&cur, &old) {
            return Ok((new_moves, k));
        }
        let m = match k {
            _ if k == i => match at_i {
                Some(m) => d.translate(&same, m, start, &cur).ok_or(k)?,
                None => continue,
            },
            _ if k == j => match at_j {
                Some(m) => d.translate(&same, m, start, &cur).ok_or(k)?,
                None => continue,
            },
            _ => d.translate(&same, moves[k], &old, &cur).ok_or(k)?,
        };
        if !d.legal(&cur, m) {
            return Err(k);
        }
        new_moves.push(d.play_in(&mut cur, m).0);
    }
    if d.won(&cur) {
        Ok((new_moves, moves.len()))
    } else {
        Err(moves.len())
    }
}
