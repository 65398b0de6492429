//! Soft threads: several depth-first scans over meta-moves (`meta.rs`), each with its
//! own move order, run in turn a few hundred positions at a time, as fc-solve runs its
//! soft threads. Each scan keeps the positions it has entered; a scan that is
//! suspended resumes where it stopped. The first scan to reach a win ends the search.
//!
//! A scan's move order is a string of meta-move characters: a lone character is tried
//! on its own (its children in the order they come, and the next character only once
//! they are all searched); characters in `[...]` are tried together and their children
//! shuffled (the scan's own seed); in `(...)` together and sorted by the scan's
//! evaluation, best first. `"01[2345j]"` tries the foundations first, then everything
//! else in a random order.

use super::meta::{Child, Children, Generator, Kind};

use super::position::{Game, Move, Position};
use crate::hashset::KeySet;
use crate::search::Budget;

/// How a group's children are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    AsGenerated,
    Shuffled,
    BestFirst,
}

#[derive(Clone, Debug)]
pub struct Group {
    pub kinds: Vec<Kind>,
    pub order: Order,
}

/// Parse a move order (`"01[2346j]"`, `"0(1234)"`).
pub fn parse_order(text: &str) -> Result<Vec<Group>, String> {
    let mut groups = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        let (close, order) = match c {
            '[' => (']', Order::Shuffled),
            '(' => (')', Order::BestFirst),
            _ => {
                let kind = Kind::from_char(c).ok_or_else(|| format!("unknown meta-move {c:?} in {text:?}"))?;
                groups.push(Group { kinds: vec![kind], order: Order::AsGenerated });
                continue;
            }
        };
        let mut kinds = Vec::new();
        loop {
            match chars.next() {
                Some(d) if d == close => break,
                Some(d) => kinds.push(Kind::from_char(d).ok_or_else(|| format!("unknown meta-move {d:?} in {text:?}"))?),
                None => return Err(format!("unclosed group in {text:?}")),
            }
        }
        groups.push(Group { kinds, order });
    }
    if groups.is_empty() {
        return Err("an empty move order".into());
    }
    Ok(groups)
}

/// One scan's settings: its move order (as written, and parsed), its seed and its
/// evaluation weights.
#[derive(Clone, Debug)]
pub struct ScanSpec {
    pub order: String,
    pub groups: Vec<Group>,
    pub seed: u64,
    pub weights: [i32; 6],
}

impl ScanSpec {
    pub fn new(order: &str, seed: u64, weights: [i32; 6]) -> Result<ScanSpec, String> {
        Ok(ScanSpec { order: order.to_string(), groups: parse_order(order)?, seed, weights })
    }
}

struct Frame {
    /// The atomic moves from the parent to here (the meta-move, then the safe moves).
    via: Vec<Move>,
    /// The parent's key, to come back to.
    parent_key: u128,
    /// The next group of the move order to start.
    group: usize,
    /// While a lone meta-move kind is being tried: where its candidates resume.
    cursor: Option<(Kind, u32)>,
    children: Children,
    next: usize,
}

impl Frame {
    fn new() -> Frame {
        // Room for a typical meta-move and its children, so that few frames grow.
        let children = Children { moves: Vec::with_capacity(32), list: Vec::with_capacity(8) };
        Frame { via: Vec::with_capacity(16), parent_key: 0, group: 0, cursor: None, children, next: 0 }
    }
}

/// What a scan's turn ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    Won,
    /// Its quota or the budget ran out; it can resume.
    Paused,
    /// It has searched every position its meta-moves reach.
    Exhausted,
}

/// A resumable depth-first scan over meta-moves.
pub struct Scan<'a> {
    groups: &'a [Group],
    weights: [i32; 6],
    rng: u64,
    visited: KeySet<u128>,
    state: Position,
    frames: Vec<Frame>,
    depth: usize,
    pub exhausted: bool,
}

#[inline]
fn stored(key: u128) -> u128 {
    key >> 1 // the key set keeps the top bit for itself
}

/// The memory of scans that ended (their sets of positions and their frames, with the
/// room their vectors grew to), for the next scans of this thread: most solves are a
/// few hundred positions, where allocating it again would cost more than the search.
struct Spare {
    visited: KeySet<u128>,
    frames: Vec<Frame>,
}

thread_local! {
    static SPARES: std::cell::RefCell<Vec<Spare>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Sets larger than this many slots are given back to the allocator, not kept (clearing
/// them would cost a small search more than a new one).
const SPARE_SLOTS: usize = 1 << 12;
/// Scans' memory kept per thread (a portfolio has a dozen scans at most).
const SPARES_KEPT: usize = 16;

impl<'a> Scan<'a> {
    /// A scan from `root` (whose safe moves home are in `opening`, already played).
    pub fn new(spec: &'a ScanSpec, root: &Position, opening: &[Move]) -> Scan<'a> {
        let groups = &spec.groups;
        let spare = SPARES.with(|spares| spares.borrow_mut().pop());
        let Spare { mut visited, mut frames } =
            spare.unwrap_or_else(|| Spare { visited: KeySet::with_capacity_log2(8), frames: Vec::new() });
        visited.insert(stored(root.key));
        if frames.is_empty() {
            frames.push(Frame::new());
        }
        let first = &mut frames[0];
        first.via.clear();
        first.via.extend_from_slice(opening);
        first.parent_key = 0;
        first.group = 0;
        first.cursor = None;
        first.children.clear();
        first.next = 0;
        Scan {
            groups,
            weights: spec.weights,
            rng: spec.seed ^ 0x9E37_79B9_7F4A_7C15,
            visited,
            state: root.clone(),
            frames,
            depth: 0,
            exhausted: false,
        }
    }

    /// The winning line (every atomic move from the root) once `run` returned `Won`.
    pub fn line(&self) -> Vec<Move> {
        let mut line = Vec::new();
        for frame in &self.frames[..=self.depth] {
            line.extend_from_slice(&frame.via);
        }
        line
    }

    /// Search until a win, exhaustion, or `positions` reaches `until` (or the budget
    /// says stop). `positions` counts the children generated (new to this scan).
    pub fn run(&mut self, game: &Game, generator: &mut Generator, positions: &mut u64, until: u64, budget: &mut Budget) -> Turn {
        if self.exhausted {
            return Turn::Exhausted;
        }
        loop {
            if *positions >= until || budget.exhausted(*positions) {
                return Turn::Paused;
            }
            let depth = self.depth;
            let frame = &mut self.frames[depth];
            if frame.next == frame.children.list.len() {
                let visited = &self.visited;
                let mut keep = |key: u128| !visited.contains(stored(key));
                if frame.cursor.is_none() {
                    if frame.group == self.groups.len() {
                        // Every child searched: back to the parent.
                        if depth == 0 {
                            self.exhausted = true;
                            return Turn::Exhausted;
                        }
                        let key = frame.parent_key;
                        game.undo_to_key(&mut self.state, &mut frame.via, key);
                        self.depth -= 1;
                        continue;
                    }
                    let group = &self.groups[frame.group];
                    frame.group += 1;
                    frame.children.clear();
                    frame.next = 0;
                    if group.order == Order::AsGenerated {
                        // A lone kind: generated below, in this same turn of the loop.
                        frame.cursor = Some((group.kinds[0], 0));
                    } else {
                        let weights = self.weights;
                        let rate = |p: &Position| game.evaluate(p, &weights);
                        let score: Option<&dyn Fn(&Position) -> i32> = if group.order == Order::BestFirst { Some(&rate) } else { None };
                        for &kind in &group.kinds {
                            *positions +=
                                generator.generate(&mut self.state, kind, &mut frame.children, &mut keep, score, 0, usize::MAX, false).0;
                        }
                        let list = &mut frame.children.list;
                        match group.order {
                            Order::AsGenerated => {}
                            Order::Shuffled => {
                                for i in (1..list.len()).rev() {
                                    let j = (super::position::splitmix(&mut self.rng) % (i as u64 + 1)) as usize;
                                    list.swap(i, j);
                                }
                            }
                            Order::BestFirst => list.sort_by_key(|entry| std::cmp::Reverse(entry.score)),
                        }
                        continue;
                    }
                }
                if let Some((kind, skip)) = frame.cursor {
                    // A lone kind: its first child alone (most scans never come back
                    // for the others), then the rest.
                    frame.children.clear();
                    frame.next = 0;
                    let first = skip == 0;
                    let limit = if first { 1 } else { usize::MAX };
                    let parent_key = self.state.key;
                    let (made, resume) =
                        generator.generate(&mut self.state, kind, &mut frame.children, &mut keep, None, skip, limit, first);
                    *positions += made;
                    frame.cursor = resume.map(|skip| (kind, skip));
                    if first && resume.is_some() {
                        // The state is in the child already: enter it.
                        let child = frame.children.list[0];
                        frame.next = 1;
                        self.visited.insert(stored(child.key));
                        if self.enter(depth + 1, child, false, parent_key, game) {
                            return Turn::Won;
                        }
                    }
                    continue;
                }
            }
            let child = frame.children.list[frame.next];
            frame.next += 1;
            if !self.visited.insert(stored(child.key)) {
                continue; // entered meanwhile by another path
            }
            let parent_key = self.state.key;
            if self.enter(depth + 1, child, true, parent_key, game) {
                return Turn::Won;
            }
        }
    }

    /// Make the frame at `depth` for `child` of the frame above (playing its moves
    /// unless the state is there already); true if it is a win.
    fn enter(&mut self, depth: usize, child: Child, play: bool, parent_key: u128, game: &Game) -> bool {
        if self.frames.len() <= depth {
            self.frames.push(Frame::new());
        }
        let (parents, rest) = self.frames.split_at_mut(depth);
        let line = parents[depth - 1].children.line(&child);
        let next = &mut rest[0];
        next.via.clear();
        next.parent_key = parent_key;
        if play {
            for &m in line {
                game.play(&mut self.state, m);
            }
        }
        next.via.extend_from_slice(line);
        next.group = 0;
        next.cursor = None;
        next.next = 0;
        next.children.clear();
        self.depth = depth;
        self.state.is_won()
    }
}

impl Drop for Scan<'_> {
    fn drop(&mut self) {
        let mut visited = std::mem::replace(&mut self.visited, KeySet::with_capacity_log2(0));
        if visited.capacity() > SPARE_SLOTS {
            visited = KeySet::with_capacity_log2(8);
        } else {
            visited.clear();
        }
        let frames = std::mem::take(&mut self.frames);
        let _ = SPARES.try_with(|spares| {
            let mut spares = spares.borrow_mut();
            if spares.len() < SPARES_KEPT {
                spares.push(Spare { visited, frames });
            }
        });
    }
}
