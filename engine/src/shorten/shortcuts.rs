use super::{Domain, Origin, Path, Spend};

/// How far along the line a shortcut of one move is looked for (positions), and one of
/// two moves: the nearer the positions, the likelier a shortcut (the fit:
/// `docs/tuning.md`).
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
/// moves between them, made the path's line; `false` if nothing is shorter.
///
/// In steps: the line's positions keyed ([`Keyed`]), the shortcuts between them looked
/// for ([`Finder`]), the shortest path over the line and its shortcuts ([`best_path`]),
/// and that path played from the first position ([`play_path`]).
pub(super) fn shortest<D: Domain>(d: &mut D, path: &mut Path<D>, depth: u8, spend: &mut Spend) -> bool {
    let search = depth >= 1 && !spend.stopped;
    let keyed = Keyed::new(path);
    if !search && !keyed.repeated {
        return false;
    }
    let cuts = if search {
        path.summarize(d);
        let mut finder = Finder::new(d, path, &keyed.last, spend, depth);
        finder.run();
        let cuts = finder.cuts;
        path.forget_summaries();
        cuts
    } else {
        Vec::new()
    };
    match best_path(&path.moves, &keyed.last_of, &cuts) {
        Some(steps) => play_path(d, path, steps),
        None => false,
    }
}

/// The last position of the line with each key, and for each position the last one
/// with its key (itself if none comes after).
struct Keyed {
    last: Latest,
    last_of: Vec<u32>,
    /// Some position comes twice.
    repeated: bool,
}

impl Keyed {
    fn new<D: Domain>(path: &Path<D>) -> Self {
        let n = path.moves.len() + 1;
        let mut last = Latest::new((0..n).map(|i| path.key(i)).collect());
        let mut last_of: Vec<u32> = (0..n as u32).collect();
        let mut repeated = false;
        for i in 0..n as u32 {
            if let Some(before) = last.insert(i) {
                repeated = true;
                last_of[before as usize] = i;
            }
        }
        // Each position's next one with its key, made the last one (from the end).
        for i in (0..n).rev() {
            let next = last_of[i] as usize;
            if next != i {
                last_of[i] = last_of[next];
            }
        }
        Keyed { last, last_of, repeated }
    }
}

/// The last position of the line with each key: a flat table of positions, open
/// addressing (the keys are hashes already), twice as many places as positions.
struct Latest {
    keys: Vec<u128>,
    slots: Vec<u32>,
    shift: u32,
}

impl Latest {
    const FREE: u32 = u32::MAX;

    /// A table for the positions whose keys are `keys`, none in it yet.
    fn new(keys: Vec<u128>) -> Self {
        let bits = (2 * keys.len()).next_power_of_two().trailing_zeros().max(4);
        Latest { keys, slots: vec![Self::FREE; 1 << bits], shift: 64 - bits }
    }

    /// The place of `key` in the table: where it is, or the free place it would go.
    #[inline]
    fn find(&self, key: u128) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = ((key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let i = self.slots[at];
            if i == Self::FREE || self.keys[i as usize] == key {
                return at;
            }
            at = (at + 1) & mask;
        }
    }

    /// Position `i` in: the position with its key before, if any.
    fn insert(&mut self, i: u32) -> Option<u32> {
        let at = self.find(self.keys[i as usize]);
        let before = std::mem::replace(&mut self.slots[at], i);
        (before != Self::FREE).then_some(before)
    }

    /// The last position with `key`.
    fn get(&self, key: u128) -> Option<u32> {
        let i = self.slots[self.find(key)];
        (i != Self::FREE).then_some(i)
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
    path: &'a Path<D>,
    last: &'a Latest,
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
    fn new(d: &'a mut D, path: &'a Path<D>, last: &'a Latest, spend: &'a mut Spend, depth: u8) -> Self {
        Finder {
            d,
            path,
            last,
            spend,
            depth,
            cuts: Vec::new(),
            one: Vec::new(),
            two: Vec::new(),
            pick: Vec::new(),
            generated: Vec::with_capacity(64),
            second: Vec::with_capacity(64),
        }
    }

    /// Every position of the line in turn, until the spending stops. A position is
    /// copied only where a move is made from it (made in the copy, taken back).
    fn run(&mut self) {
        let path = self.path;
        let n = path.moves.len();
        let mut cur = path.state(0).clone();
        for i in 0..n {
            self.targets(i, n);
            if self.one.is_empty() && self.two.is_empty() {
                continue;
            }
            let state = path.state(i);
            if D::BRIDGES {
                if !self.bridges(state, &mut cur, i) {
                    break;
                }
                if self.two.is_empty() {
                    continue;
                }
            }
            cur.clone_from(state);
            if !self.neighbours(&mut cur, i) {
                break;
            }
        }
    }

    /// The later positions (`one`, `two`) that a lower bound lets be one or two moves
    /// from position `i`, within the windows.
    fn targets(&mut self, i: usize, n: usize) {
        self.one.clear();
        self.two.clear();
        let (reach, window) = if self.depth >= 2 { (2, WINDOW_ONE.max(WINDOW_TWO)) } else { (1, WINDOW_ONE) };
        let (d, path) = (&*self.d, self.path);
        let a = path.sig(i);
        if self.depth < 2 {
            // Most pairs of positions are asked only this: in one step. Not the
            // position two moves on: one move instead of two in a row is what the joins
            // of moves of the same cards find (`pairs::join_pairs`, after this step).
            for j in i + 3..=n.min(i + window) {
                match d.one_apart(a, path.sig(j)) {
                    None => break, // no later position is closer
                    Some(true) => self.one.push(j as u32),
                    Some(false) => {}
                }
            }
            return;
        }
        for j in i + 2..=n.min(i + window) {
            let b = path.sig(j);
            if d.far(a, b, reach) {
                break; // no later position is closer
            }
            let lower = d.near(a, b);
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
        if let Some(to) = self.last.get(key) {
            if to as usize > beyond {
                self.cuts.push(Shortcut { from: from as u32, to, first, second });
            }
        }
    }

    /// The one move straight to a later position of `one`, read from what they differ
    /// in ([`Domain::bridge`]), from position `i` (`state`; a legal move is made in
    /// `cur`, a copy); `false` when the spending stopped.
    fn bridges(&mut self, state: &D::State, cur: &mut D::State, i: usize) -> bool {
        let mut copied = false; // (each move is taken back in the copy)
        for k in 0..self.one.len() {
            let j = self.one[k] as usize;
            let Some(m) = self.d.bridge(state, self.path.sig(i), self.path.sig(j)) else { continue };
            if !self.d.legal(state, m) {
                continue;
            }
            // Where the family tells the summary after the move, one that is not `j`'s
            // is no shortcut (the position is not made).
            if self.d.after(state, self.path.sig(i), m).is_some_and(|next| self.d.near(&next, self.path.sig(j)) != 0) {
                continue;
            }
            if !self.spend.take() {
                return false;
            }
            if !copied {
                cur.clone_from(state);
                copied = true;
            }
            let (key, _) = self.d.child(cur, m);
            self.record(key, i, i + 1, m, None);
        }
        true
    }

    /// The moves from position `i` (`cur`) toward what it and the positions of `two`
    /// differ in, that may reach a position of `one` at once or one of `two` in one
    /// more move, each made in place and taken back; `false` when the spending stopped.
    fn neighbours(&mut self, cur: &mut D::State, i: usize) -> bool {
        let mask = self.two.iter().fold(0, |mask, &j| mask | self.d.differ(self.path.sig(i), self.path.sig(j as usize)));
        let mut generated = std::mem::take(&mut self.generated);
        self.d.moves_toward(cur, mask, &mut generated);
        let going = generated.iter().all(|&m| self.neighbour(cur, i, m));
        self.generated = generated;
        going
    }

    /// The first move `m` from position `i` (`cur`) tried: made in place and taken
    /// back when it may lead to a target; `false` when the spending stopped.
    fn neighbour(&mut self, cur: &mut D::State, i: usize, m: D::Move) -> bool {
        // (With `bridge`, the one-move shortcuts are found before.)
        let next = self.d.after(cur, self.path.sig(i), m);
        let (direct, via) = self.worth(cur, i, m, next.as_ref());
        if !direct && !via {
            return true;
        }
        if !self.spend.take() {
            return false;
        }
        let (_, undo) = self.d.play_in(cur, m);
        let key = self.d.key(cur);
        self.record(key, i, i + 1, m, None);
        let going = !via || self.seconds(cur, i, m, next);
        self.d.undo_in(cur, undo);
        going
    }

    /// Whether the move `m` from position `i` may reach a position of `one` at once,
    /// and one of `two` in one more move (from the summary after it, `next`, when the
    /// family tells it).
    fn worth(&self, cur: &D::State, i: usize, m: D::Move, next: Option<&D::Sig>) -> (bool, bool) {
        let (d, path) = (&*self.d, self.path);
        match next {
            Some(sx) => (
                !D::BRIDGES && self.one.iter().any(|&j| d.near(sx, path.sig(j as usize)) == 0),
                self.two.iter().any(|&j| d.near(sx, path.sig(j as usize)) <= 1),
            ),
            None => (
                !D::BRIDGES && self.one.iter().any(|&j| d.covers(cur, path.sig(i), path.sig(j as usize), m, 0)),
                self.two.iter().any(|&j| d.covers(cur, path.sig(i), path.sig(j as usize), m, 1)),
            ),
        }
    }

    /// The second moves from `cur`, the position after the move `first` from position
    /// `i` (summary `next` when the family told it), to a position of `two`; `false`
    /// when the spending stopped.
    fn seconds(&mut self, cur: &mut D::State, i: usize, first: D::Move, next: Option<D::Sig>) -> bool {
        let sx = next.unwrap_or_else(|| self.d.sig(cur));
        let (d, path) = (&*self.d, self.path);
        self.pick.clear();
        self.pick.extend(
            self.two
                .iter()
                .copied()
                .filter(|&j| d.covers(cur, path.sig(i), path.sig(j as usize), first, 1) && d.near(&sx, path.sig(j as usize)) <= 1),
        );
        if self.pick.is_empty() {
            return true;
        }
        if D::BRIDGES {
            for k in 0..self.pick.len() {
                let j = self.pick[k] as usize;
                let Some(m2) = self.d.bridge(cur, &sx, self.path.sig(j)) else { continue };
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
            if !self.pick.iter().any(|&j| self.d.covers(cur, &sx, self.path.sig(j as usize), m2, 0)) {
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
fn best_path<M: Copy>(moves: &[M], last_of: &[u32], cuts: &[Shortcut<M>]) -> Option<Vec<(Origin<M>, M)>> {
    let n = moves.len();
    // One pass: each position's distance from the first, and how it is reached.
    let mut dist = vec![u32::MAX; n + 1];
    let mut via = vec![Via::Start; n + 1];
    dist[0] = 0;
    let mut next_cut = 0;
    for i in 0..=n {
        let here = dist[i];
        // A position met again later: on from there at no cost.
        let j = last_of[i] as usize;
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
                steps.push((Origin::Own(at as u32 - 1), moves[at - 1]));
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

/// The path `steps` played from the first position of `path`, each move made where the
/// new line now is (translated from the position it was found in), made `path`'s line;
/// `false` (the line left as it was) if one does not play or the line does not win.
///
/// Where the new line is on the old one (the same position, place for place) and goes
/// on by the old line's move, the old line's next position is used as it is.
fn play_path<D: Domain>(d: &mut D, path: &mut Path<D>, steps: Vec<(Origin<D::Move>, D::Move)>) -> bool {
    let mut order: Vec<u32> = Vec::with_capacity(steps.len() + 1);
    let mut moves: Vec<D::Move> = Vec::with_capacity(steps.len());
    order.push(path.order[0]);
    for (from, mv) in steps {
        let here = *order.last().unwrap();
        let m = match from {
            Origin::Own(i) | Origin::Line(i) => {
                let i = i as usize;
                let at = path.order[i];
                let same = at == here || d.same(&path.arena[at as usize], &path.arena[here as usize]);
                if same && matches!(from, Origin::Own(_)) {
                    // The old line's own move, to its own next position.
                    moves.push(path.moves[i]);
                    order.push(path.order[i + 1]);
                    continue;
                }
                if same {
                    Some(mv)
                } else {
                    let (old, cur) = (&path.arena[at as usize], &path.arena[here as usize]);
                    let perm = d.perm(old, cur);
                    d.translate(&perm, mv, old, cur)
                }
            }
            Origin::Near(i, m) => {
                let made_in = d.play(path.state(i as usize), m).0;
                let cur = &path.arena[here as usize];
                let perm = d.perm(&made_in, cur);
                d.translate(&perm, mv, &made_in, cur)
            }
        };
        let Some(m) = m else { return false };
        if !d.legal(&path.arena[here as usize], m) {
            return false;
        }
        let (at, played) = path.made(d, here, m);
        moves.push(played);
        order.push(at);
    }
    if !d.won(&path.arena[*order.last().unwrap() as usize]) {
        return false;
    }
    path.order = order;
    path.moves = moves;
    true
}
