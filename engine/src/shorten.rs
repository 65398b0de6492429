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

    /// The canonical key (equal for positions the family's search treats as one).
    fn key(&self, s: &Self::State) -> u128;
    /// Every move worth trying from `s`.
    fn moves(&mut self, s: &Self::State, out: &mut Vec<Self::Move>);
    /// Is `m` legal in `s`?
    fn legal(&mut self, s: &Self::State, m: Self::Move) -> bool;
    /// The position after the legal move `m`, and the move as played (what the line
    /// records), with whatever the rules do by themselves after it.
    fn play(&mut self, s: &Self::State, m: Self::Move) -> (Self::State, Self::Move);
    /// The key of the position after `m` and whether it is won (`s` may be used as
    /// scratch but must be as it was on return).
    fn child(&mut self, s: &mut Self::State, m: Self::Move) -> (u128, bool) {
        let (next, _) = self.play(s, m);
        (self.key(&next), self.won(&next))
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
    /// When `b` (made in `b_from`) moves on the cards `a` (made in `a_from`) moved, from
    /// where `a` put them: back where they came from ([`Joined::Back`]), or elsewhere
    /// ([`Joined::Into`]: the one move, made in `a_from`, that takes them there at once).
    fn join(&self, a: Self::Move, a_from: &Self::State, b: Self::Move, b_from: &Self::State) -> Joined<Self::Move>;
    /// Do the two moves share a place (a column, a cell, the stock)?
    fn touches(&self, a: Self::Move, b: Self::Move) -> bool;
}

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
    match replay(d, root, line) {
        Some(played) => shorten_played(d, played, limits),
        None => (line.to_vec(), Stats { before: line.len(), after: line.len(), ..Stats::default() }),
    }
}

/// [`shorten`] for a line already played (its positions and moves, as [`replay`] gives
/// them): the caller who made the positions does not make them again.
pub fn shorten_played<D: Domain>(d: &mut D, played: Played<D>, limits: &Limits) -> (Vec<D::Move>, Stats) {
    let (mut states, mut moves) = played;
    let mut stats = Stats { before: moves.len(), after: moves.len(), ..Stats::default() };
    if !d.won(states.last().unwrap()) {
        return (moves, stats);
    }
    let mut spend = Spend { tries: 0, max: limits.max_tries, deadline: limits.deadline, stopped: limits.max_tries == 0 };
    if let Some(deadline) = limits.deadline {
        spend.stopped |= Instant::now() >= deadline;
    }
    let mut joined = false; // the moves taken back are out already
    for _ in 0..limits.rounds {
        if spend.stopped {
            break;
        }
        stats.rounds += 1;
        let before = moves.len();
        if let Some((s, m)) = shortest(d, &states, &moves, limits.depth, &mut spend) {
            states = s;
            moves = m;
        }
        join_pairs(d, &mut states, &mut moves);
        joined = true;
        if moves.len() >= before {
            break;
        }
    }
    // Whatever the limits: no move taken back without need, no position twice.
    if !joined {
        join_pairs(d, &mut states, &mut moves);
    }
    let mut none = Spend { tries: 0, max: 0, deadline: None, stopped: true };
    if let Some((s, m)) = shortest(d, &states, &moves, 0, &mut none) {
        states = s;
        moves = m;
    }
    let _ = states;
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
/// moves between them, as its positions and moves; `None` if nothing is shorter.
///
/// Only the neighbourhood that can pay is made: the moves from position `i` that
/// `Domain::covers` lets through (the move changes what `i` and a later position `j`
/// differ in, so that `j` may be one move away, or none), and from a position one move
/// away, only where `near` lets a later position be one move away. Every edge goes
/// forward along the line, so the shortest line is one pass over the positions.
fn shortest<D: Domain>(d: &mut D, states: &[Box<D::State>], moves: &[D::Move], depth: u8, spend: &mut Spend) -> Option<Played<D>> {
    let n = moves.len();
    let mut last: KeyMap<u32> = KeyMap::default();
    last.reserve(n + 1);
    let keys: Vec<u128> = states.iter().map(|s| d.key(s)).collect();
    for (i, &key) in keys.iter().enumerate() {
        last.insert(key, i as u32);
    }
    let mut cuts: Vec<Shortcut<D::Move>> = Vec::new();
    if depth >= 1 && !spend.stopped {
        let sigs: Vec<D::Sig> = states.iter().map(|s| d.sig(s)).collect();
        let mut generated = Vec::with_capacity(64);
        let mut second = Vec::with_capacity(64);
        let mut one: Vec<u32> = Vec::new(); // later positions maybe one move away
        let mut two: Vec<u32> = Vec::new(); // later positions maybe two moves away
        let mut pick: Vec<u32> = Vec::new();
        let (w1, w2) = (WINDOW_ONE, WINDOW_TWO);
        'line: for i in 0..n {
            one.clear();
            two.clear();
            for j in i + 2..=n.min(i + w1.max(w2)) {
                let lower = d.near(&sigs[i], &sigs[j]);
                if lower == u32::MAX {
                    break; // no later position is closer
                }
                if lower <= 1 && j <= i + w1 {
                    one.push(j as u32);
                }
                if depth >= 2 && j >= i + 3 && j <= i + w2 && lower <= 2 {
                    two.push(j as u32);
                }
            }
            if one.is_empty() && two.is_empty() {
                continue;
            }
            if D::BRIDGES {
                // One move straight to a later position: read from what they differ in.
                for &j in one.iter() {
                    let Some(m) = d.bridge(&states[i], &sigs[i], &sigs[j as usize]) else { continue };
                    if !d.legal(&states[i], m) {
                        continue;
                    }
                    if !spend.take() {
                        break 'line;
                    }
                    let mut x = (*states[i]).clone();
                    let (kx, _) = d.child(&mut x, m);
                    if let Some(&to) = last.get(&kx) {
                        if to as usize > i + 1 {
                            cuts.push(Shortcut { from: i as u32, to, first: m, second: None });
                        }
                    }
                }
                if two.is_empty() {
                    continue;
                }
            }
            d.moves(&states[i], &mut generated);
            for &m in generated.iter() {
                // (With `bridge`, the one-move shortcuts are found above.)
                let next = d.after(&states[i], &sigs[i], m);
                let (direct, via) = match &next {
                    Some(sx) => (!D::BRIDGES && one.iter().any(|&j| d.near(sx, &sigs[j as usize]) == 0), two.iter().any(|&j| d.near(sx, &sigs[j as usize]) <= 1)),
                    None => (!D::BRIDGES && one.iter().any(|&j| d.covers(&states[i], &sigs[i], &sigs[j as usize], m, 0)), two.iter().any(|&j| d.covers(&states[i], &sigs[i], &sigs[j as usize], m, 1))),
                };
                if !direct && !via {
                    continue;
                }
                if !spend.take() {
                    break 'line;
                }
                let (mut x, _) = d.play(&states[i], m);
                let kx = d.key(&x);
                if let Some(&j) = last.get(&kx) {
                    if j as usize > i + 1 {
                        cuts.push(Shortcut { from: i as u32, to: j, first: m, second: None });
                    }
                }
                if !via {
                    continue;
                }
                let sx = next.unwrap_or_else(|| d.sig(&x));
                pick.clear();
                pick.extend(two.iter().copied().filter(|&j| d.covers(&states[i], &sigs[i], &sigs[j as usize], m, 1) && d.near(&sx, &sigs[j as usize]) <= 1));
                if pick.is_empty() {
                    continue;
                }
                if D::BRIDGES {
                    for &j in pick.iter() {
                        let Some(m2) = d.bridge(&x, &sx, &sigs[j as usize]) else { continue };
                        if !d.legal(&x, m2) {
                            continue;
                        }
                        if !spend.take() {
                            break 'line;
                        }
                        let (k2, _) = d.child(&mut x, m2);
                        if let Some(&to) = last.get(&k2) {
                            if to as usize > i + 2 {
                                cuts.push(Shortcut { from: i as u32, to, first: m, second: Some(m2) });
                            }
                        }
                    }
                    continue;
                }
                d.moves(&x, &mut second);
                for &m2 in second.iter() {
                    if !pick.iter().any(|&j| d.covers(&x, &sx, &sigs[j as usize], m2, 0)) {
                        continue;
                    }
                    if !spend.take() {
                        break 'line;
                    }
                    let (k2, _) = d.child(&mut x, m2);
                    if let Some(&j) = last.get(&k2) {
                        if j as usize > i + 2 {
                            cuts.push(Shortcut { from: i as u32, to: j, first: m, second: Some(m2) });
                        }
                    }
                }
            }
        }
    }
    // One pass: each position's distance from the first, and how it is reached.
    #[derive(Clone, Copy)]
    enum Via {
        Start,
        Line,
        Same(u32),
        Cut(u32),
    }
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
    // The path back from the last position, as (made in, move) steps.
    let mut steps: Vec<(Origin<D::Move>, D::Move)> = Vec::with_capacity(dist[n] as usize);
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
    // Play the path from the first position, each move made where the line now is.
    let mut new_states = Vec::with_capacity(steps.len() + 1);
    let mut new_moves = Vec::with_capacity(steps.len());
    new_states.push(states[0].clone());
    for (from, mv) in steps {
        let cur = new_states.last().unwrap();
        let m = match from {
            Origin::Line(i) => {
                let made_in = &states[i as usize];
                if d.same(made_in, cur) {
                    mv
                } else {
                    let perm = d.perm(made_in, cur);
                    d.translate(&perm, mv, made_in, cur)?
                }
            }
            Origin::Near(i, m) => {
                let made_in = d.play(&states[i as usize], m).0;
                let perm = d.perm(&made_in, cur);
                d.translate(&perm, mv, &made_in, cur)?
            }
        };
        if !d.legal(cur, m) {
            return None;
        }
        let (next, played) = d.play(cur, m);
        new_states.push(Box::new(next));
        new_moves.push(played);
    }
    if !d.won(new_states.last().unwrap()) {
        return None;
    }
    Some((new_states, new_moves))
}

/// Join the moves of the same cards: a move later taken back (same cards, back where
/// they came from, no move between touching either place) goes with the move taking it
/// back; two moves of the same cards become one. Each change is kept when the line
/// still plays and wins.
fn join_pairs<D: Domain>(d: &mut D, states: &mut Vec<Box<D::State>>, moves: &mut Vec<D::Move>) {
    let mut j = 1;
    while j < moves.len() {
        let mut changed = false;
        let mut i = j;
        while i > 0 {
            i -= 1;
            let joined = d.join(moves[i], &states[i], moves[j], &states[j]);
            changed = match joined {
                Joined::Apart => {
                    if d.touches(moves[i], moves[j]) {
                        break;
                    }
                    continue;
                }
                Joined::Back => edited(d, states, moves, i, j, None, None),
                // The cards moved at once where the second move takes them (fails
                // at once when that place does not take them yet), or left where they
                // were until then: only if the rules moved nothing else after the first
                // move, and no move between uses the place they would stay in.
                Joined::Into(m) => {
                    edited(d, states, moves, i, j, Some(m), None)
                        || (d.alone(&states[i], moves[i], &states[i + 1]) && !(i + 1..j).any(|k| d.touches(moves[k], moves[i])) && edited(d, states, moves, i, j, None, Some(m)))
                }
            };
            break;
        }
        if changed {
            j = i.max(1);
        } else {
            j += 1;
        }
    }
}

/// The line with move `i` replaced by `at_i` and move `j` by `at_j` (i < j; `None`:
/// left out; both made as in position `i`), if it still plays and wins, made in place.
/// Once the edited line is back on the old one, place for place, the rest is kept.
fn edited<D: Domain>(d: &mut D, states: &mut Vec<Box<D::State>>, moves: &mut Vec<D::Move>, i: usize, j: usize, at_i: Option<D::Move>, at_j: Option<D::Move>) -> bool {
    // The positions after position `i` and the moves from move `i`, up to `resume`.
    let mut new_states: Vec<Box<D::State>> = Vec::new();
    let mut new_moves: Vec<D::Move> = Vec::new();
    let mut resume = None;
    let same = d.identity();
    for k in i..moves.len() {
        let (m, from) = match k {
            _ if k == i => match at_i {
                Some(m) => (m, i),
                None => continue,
            },
            _ if k == j => match at_j {
                Some(m) => (m, i),
                None => continue,
            },
            _ => (moves[k], k),
        };
        let cur = new_states.last().unwrap_or(&states[i]);
        if k > j && d.same(cur, &states[k]) {
            // `cur` is the last new position, or position `i` itself.
            resume = Some(if new_states.pop().is_some() { (k, k) } else { (k + 1, k) });
            break;
        }
        let Some(m) = d.translate(&same, m, &states[from], cur) else { return false };
        if !d.legal(cur, m) {
            return false;
        }
        let (next, played) = d.play(cur, m);
        new_states.push(Box::new(next));
        new_moves.push(played);
    }
    match resume {
        Some((state_end, move_end)) => {
            // The old moves `i .. k` and the positions between them give way to the new
            // ones; the old position `k` stays (the same), unless it is position `i`.
            states.splice(i + 1..state_end, new_states);
            moves.splice(i..move_end, new_moves);
        }
        None => {
            if !new_states.last().is_some_and(|s| d.won(s)) {
                return false;
            }
            states.splice(i + 1.., new_states);
            moves.splice(i.., new_moves);
        }
    }
    true
}
