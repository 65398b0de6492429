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

use std::time::Instant;

mod pairs;
mod shortcuts;

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
    /// Is no position from `b` on along a line (`b` included) within `moves` moves of
    /// `a`? (The search for shortcuts from `a` stops there.)
    fn far(&self, a: &Self::Sig, b: &Self::Sig, moves: u32) -> bool {
        let _ = moves;
        self.near(a, b) == u32::MAX
    }
    /// `None` when [`Domain::far`] within one move (no position from `b` on is one move
    /// from `a`), else whether [`Domain::near`] is at most one: the question the search
    /// for one-move shortcuts asks of most pairs of positions, in one step.
    fn one_apart(&self, a: &Self::Sig, b: &Self::Sig) -> Option<bool> {
        (!self.far(a, b, 1)).then(|| self.near(a, b) <= 1)
    }
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

/// Where a move of a new line is made: in a position of the line, by the line's own
/// move ([`Origin::Own`]) or another ([`Origin::Line`]), or one move from one.
#[derive(Clone, Copy)]
enum Origin<M> {
    Own(u32),
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

/// A line as the shortener edits it: its positions, each kept, and its moves as
/// played. [`Path::state`]`(k)` is the position before move `k`; the last one is won.
///
/// Each step reads the positions it needs instead of playing the line again from the
/// first one. The positions sit in an arena, in the order of the line through `order`:
/// an edit of the line moves indices, not positions (a free-cell position is half a
/// kilobyte).
pub struct Path<D: Domain> {
    arena: Vec<D::State>,
    /// Each position's key and (when shortcuts are looked for) summary, by its place in
    /// the arena, made with the position while it is at hand: the steps read them
    /// without reading the position again.
    keys: Vec<u128>,
    sigs: Vec<D::Sig>,
    summaries: bool,
    order: Vec<u32>,
    pub moves: Vec<D::Move>,
}

impl<D: Domain> Path<D> {
    /// The line `line` played from `root`, each move checked; `None` if one is illegal.
    pub fn walk(d: &mut D, root: &D::State, line: &[D::Move], summaries: bool) -> Option<Path<D>> {
        let mut path = Path::start(d, root, line.len(), summaries);
        for &m in line {
            if !path.push(d, m) {
                return None;
            }
        }
        Some(path)
    }

    /// A path with its first position only (room for `moves` moves), keeping each
    /// position's summary too if `summaries` (what shortcuts are looked for with).
    pub fn start(d: &D, root: &D::State, moves: usize, summaries: bool) -> Path<D> {
        Path::start_in(d, root, moves, summaries, Vec::new())
    }

    /// [`Path::start`] with its positions kept in `arena` (emptied first): one a caller
    /// keeps from a line to the next ([`Path::into_arena`]) is memory already at hand,
    /// where a new one is memory the caches have not seen.
    pub fn start_in(d: &D, root: &D::State, moves: usize, summaries: bool, mut arena: Vec<D::State>) -> Path<D> {
        // Room for the positions edits add too (a grown arena is copied whole).
        let room = 2 * moves + 16;
        arena.clear();
        arena.reserve(room);
        let mut order = Vec::with_capacity(moves + 1);
        order.push(0);
        let mut path = Path {
            arena,
            keys: Vec::with_capacity(room),
            sigs: Vec::with_capacity(if summaries { room } else { 0 }),
            summaries,
            order,
            moves: Vec::with_capacity(moves),
        };
        path.arena.push(root.clone());
        path.noted(d, None);
        path
    }

    /// The arena, for [`Path::start_in`].
    pub fn into_arena(self) -> Vec<D::State> {
        self.arena
    }

    /// The arena's last position with its key and summary kept (`sig` when the family
    /// told it); its place.
    fn noted(&mut self, d: &D, sig: Option<D::Sig>) -> u32 {
        let s = self.arena.last().unwrap();
        self.keys.push(d.key(s));
        if self.summaries {
            self.sigs.push(sig.unwrap_or_else(|| d.sig(s)));
        }
        (self.arena.len() - 1) as u32
    }

    /// A position made from the arena's position at `from` by the legal move `m`, kept
    /// in the arena; its place and the move as played.
    fn made(&mut self, d: &mut D, from: u32, m: D::Move) -> (u32, D::Move) {
        let at = self.arena.len();
        // The summary from the one before where the family tells it (two columns change).
        let sig = if self.summaries { d.after(&self.arena[from as usize], &self.sigs[from as usize], m) } else { None };
        self.arena.extend_from_within(from as usize..from as usize + 1); // (cloned in place)
        let played = d.play_in(&mut self.arena[at], m).0;
        (self.noted(d, sig), played)
    }

    /// The move `m` made from the last position if it is legal there (`false` if not).
    pub fn push(&mut self, d: &mut D, m: D::Move) -> bool {
        if !d.legal(self.last(), m) {
            return false;
        }
        self.append(d, m);
        true
    }

    /// The legal move `m` made from the last position: copied once, where it stays,
    /// then played.
    fn append(&mut self, d: &mut D, m: D::Move) {
        let (at, played) = self.made(d, *self.order.last().unwrap(), m);
        self.moves.push(played);
        self.order.push(at);
    }

    /// The position before move `k` (after the last move for `k == moves.len()`).
    #[inline]
    pub fn state(&self, k: usize) -> &D::State {
        &self.arena[self.order[k] as usize]
    }

    /// The key of the position before move `k`.
    #[inline]
    pub fn key(&self, k: usize) -> u128 {
        self.keys[self.order[k] as usize]
    }

    /// Each position's summary kept from now on (made now for those made before).
    fn summarize(&mut self, d: &D) {
        if !self.summaries {
            self.sigs = self.arena.iter().map(|s| d.sig(s)).collect();
            self.summaries = true;
        }
    }

    /// No summaries kept from now on (until [`Path::summarize`]): the steps after the
    /// search for shortcuts do without.
    fn forget_summaries(&mut self) {
        self.summaries = false;
        self.sigs.clear();
    }

    /// The move `m`, from the line's own search (legal: checked in debug builds only),
    /// made from the last position.
    pub fn push_own(&mut self, d: &mut D, m: D::Move) {
        debug_assert!(d.legal(self.last(), m), "{m:?}");
        self.append(d, m);
    }

    /// The summary of the position before move `k` (see [`Path::start`]).
    #[inline]
    pub fn sig(&self, k: usize) -> &D::Sig {
        &self.sigs[self.order[k] as usize]
    }

    pub fn last(&self) -> &D::State {
        self.state(self.moves.len())
    }

    /// Moves `i..end` replaced by `moves`, whose positions are in the arena from place
    /// `first` on (one after another, as [`pairs`] made them while trying the edit).
    fn splice(&mut self, i: usize, end: usize, moves: Vec<D::Move>, first: u32) {
        let added = moves.len() as u32;
        self.moves.splice(i..end, moves);
        self.order.splice(i + 1..=end, first..first + added);
    }

    /// The arena's position at place `at`.
    #[inline]
    fn at(&self, at: u32) -> &D::State {
        &self.arena[at as usize]
    }

    /// Where the arena ends now (the positions made after it go with [`Path::truncate`]).
    fn mark(&self) -> u32 {
        self.arena.len() as u32
    }

    /// The positions made since `mark` left out (none of the line's).
    fn truncate(&mut self, mark: u32) {
        self.arena.truncate(mark as usize);
        self.keys.truncate(mark as usize);
        if self.summaries {
            self.sigs.truncate(mark as usize);
        }
    }
}

/// A shorter winning line from `root` than `line` (which must win), within `limits`,
/// and what it cost. The line returned repeats no position.
pub fn shorten<D: Domain>(d: &mut D, root: &D::State, line: &[D::Move], limits: &Limits) -> (Vec<D::Move>, Stats) {
    let unchanged = |moves: Vec<D::Move>| {
        let n = moves.len();
        (moves, Stats { before: n, after: n, ..Stats::default() })
    };
    match Path::walk(d, root, line, limits.depth >= 1) {
        None => unchanged(line.to_vec()),
        Some(path) if !d.won(path.last()) => unchanged(path.moves),
        Some(mut path) => {
            let stats = shorten_path(d, &mut path, limits);
            (path.moves, stats)
        }
    }
}

/// [`shorten`] for a line already played: its positions and its moves as played
/// (as [`Domain::play_in`] gives them), legal and winning. The path is left on the
/// shorter line.
pub fn shorten_path<D: Domain>(d: &mut D, path: &mut Path<D>, limits: &Limits) -> Stats {
    let mut stats = Stats { before: path.moves.len(), after: path.moves.len(), ..Stats::default() };
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
        let before = path.moves.len();
        // The shortest line through the line's positions repeats none of them; only
        // the moves joined below make new positions (or a shortest line that did not
        // play, if any).
        loops = !shortcuts::shortest(d, path, limits.depth, &mut spend);
        loops |= pairs::join_pairs(d, path);
        joined = true;
        if path.moves.len() >= before {
            break;
        }
    }
    // Whatever the limits: no move taken back without need, no position twice.
    if !joined {
        loops = true;
        pairs::join_pairs(d, path);
    }
    // A loop left out may leave a move taken back with nothing between any more: the
    // two steps again while either changes the line (each change shortens it).
    let mut none = Spend { tries: 0, max: 0, deadline: None, stopped: true };
    while loops {
        if !shortcuts::shortest(d, path, 0, &mut none) {
            break;
        }
        loops = pairs::join_pairs(d, path);
    }
    stats.tries = spend.tries;
    stats.after = path.moves.len();
    stats
}
