//! The Spider search: best-first passes over a chaos score, one queue per stock level.

use super::position::{mix, ColumnWeights, Game, Move, Pos};
use super::presets::{Preset, Weights, BYTES_PER_POSITION, DEFAULT_MEMORY_MB, RESTART_NOISE};
use super::seen::{Seen, Visited};
use super::{COLUMNS, DEAL, RUNS};
use crate::hashset::KeySet;
use crate::search::{Budget, Outcome, Solution};

impl Game {
    /// One column's part of the chaos score.
    #[inline]
    pub(super) fn contrib(&self, id: u32, w: &Weights) -> i32 {
        column_weights(w).of(self.store.info(id))
    }

    /// The chaos score: lower is better.
    #[inline]
    pub(super) fn score(&self, pos: &Pos, w: &Weights) -> i32 {
        let columns: i32 = pos.cols.iter().map(|&id| self.contrib(id, w)).sum();
        columns + w.stock * (self.deals_left(pos) as i32 * COLUMNS as i32) - w.removed * pos.removed as i32
    }

    /// [`Game::score`] from the columns' parts as stored (the store scores by `w`).
    #[inline]
    pub(super) fn stored_score(&self, pos: &Pos, w: &Weights) -> i32 {
        debug_assert_eq!(self.store.scoring, column_weights(w));
        let columns: i32 = pos.cols.iter().map(|&id| self.store.part(id)).sum();
        columns + w.stock * (self.deals_left(pos) as i32 * COLUMNS as i32) - w.removed * pos.removed as i32
    }
}

/// The weights of a column's part of the chaos score.
fn column_weights(w: &Weights) -> ColumnWeights {
    ColumnWeights { down: w.down, hard: w.hard, soft: w.soft, empty: w.empty, rooted: w.rooted }
}

/// A priority queue of node ids by score (lowest first), newest first among equals:
/// one stack per score, since scores are small integers. Pushes and pops take constant
/// time, where a binary heap of millions of entries misses the cache at every level.
#[derive(Default)]
pub(super) struct Buckets {
    /// `stacks[i]` holds the ids of score `i + base`.
    stacks: Vec<Vec<u32>>,
    base: i32,
    /// No stack below this index holds an id.
    lowest: usize,
    len: usize,
    /// `base` is set (by the first push since the queue was made or reset).
    started: bool,
}

impl Buckets {
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub(super) fn push(&mut self, score: i32, id: u32) {
        if !self.started {
            self.base = score;
            self.started = true;
            self.lowest = self.stacks.len();
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

    /// Empties the queue, keeping its stacks' memory.
    pub(super) fn reset(&mut self) {
        for stack in self.stacks.iter_mut() {
            stack.clear();
        }
        self.lowest = 0;
        self.len = 0;
        self.started = false;
    }

    /// The newest id of the lowest score (the queue must not be empty).
    #[inline]
    pub(super) fn pop(&mut self) -> u32 {
        while self.stacks[self.lowest].is_empty() {
            self.lowest += 1;
        }
        self.len -= 1;
        self.stacks[self.lowest].pop().unwrap()
    }
}

pub(super) struct Node {
    pos: Pos,
    parent: u32,
    mv: Move,
    depth: u16,
    /// The chaos score (without the cost per move).
    chaos: i32,
}

/// The moves from the root to node `id`, then `last`. A node's move is given in the
/// column order of its parent as stored; once the stock is gone a position met again
/// (by a shorter path: see [`reparent`]) may have its columns in another order, so the
/// line is played again from the root and each move is put in the order of the
/// position actually reached.
fn line_to(game: &mut Game, nodes: &[Node], id: u32, last: Move) -> Vec<Move> {
    let mut chain = Vec::new();
    let mut at = id;
    while nodes[at as usize].parent != u32::MAX {
        chain.push(at);
        at = nodes[at as usize].parent;
    }
    let mut reached = nodes[at as usize].pos;
    // `order[i]`: where the stored position's column `i` is in the position reached.
    let mut order: [u8; COLUMNS] = std::array::from_fn(|i| i as u8);
    let in_order = |mv: Move, order: &[u8; COLUMNS]| {
        if mv.src == DEAL {
            mv
        } else {
            Move { src: order[mv.src as usize], dst: order[mv.dst as usize], count: mv.count }
        }
    };
    let mut line = Vec::with_capacity(chain.len() + 1);
    for &node in chain.iter().rev() {
        let mv = in_order(nodes[node as usize].mv, &order);
        line.push(mv);
        reached = game.apply(&reached, mv);
        let stored = &nodes[node as usize].pos;
        if reached.cols != stored.cols {
            let mut used = [false; COLUMNS];
            for (place, &column) in order.iter_mut().zip(stored.cols.iter()) {
                let j = (0..COLUMNS).find(|&j| !used[j] && reached.cols[j] == column).expect("the same columns in another order");
                used[j] = true;
                *place = j as u8;
            }
        } else {
            order = std::array::from_fn(|i| i as u8);
        }
    }
    line.push(in_order(last, &order));
    line
}

/// The same position: the same columns (in any order once the stock is gone), deals and
/// runs removed. Guards against two positions with one key.
fn same_position(game: &Game, a: &Pos, b: &Pos) -> bool {
    if a.dealt != b.dealt || a.removed != b.removed {
        return false;
    }
    if game.deals_left(a) > 0 {
        return a.cols == b.cols;
    }
    let (mut x, mut y) = (a.cols, b.cols);
    x.sort_unstable();
    y.sort_unstable();
    x == y
}

/// `child`, made from node `parent` by `mv`, is the position of node `known` already:
/// if that path is shorter than the known one, it becomes the known node's (and so every
/// line through it gets shorter, for nothing). A node's depth is its path's length or
/// more (when an ancestor took a shorter parent after the node was made: a node brings
/// its depth up to date from its parent's when it is expanded). Depths only go down and
/// a node's is always above its parent's, so a node never takes a descendant as its
/// parent and the parents never make a cycle.
#[inline]
pub(super) fn reparent(game: &Game, nodes: &mut [Node], known: u32, parent: u32, mv: Move, child: &Pos) -> bool {
    let depth = nodes[parent as usize].depth.saturating_add(1);
    if depth >= nodes[known as usize].depth || !same_position(game, &nodes[known as usize].pos, child) {
        return false;
    }
    let node = &mut nodes[known as usize];
    node.parent = parent;
    node.mv = mv;
    node.depth = depth;
    true
}

/// One pass from `root` until a win, the end of `budget`, or an empty queue.
///
/// Each stock level (deals made) has its own best-first queue. The search works on one
/// level at a time for a quota of new positions: a deal from a position of that level
/// goes to the next level's queue. When the quota is spent and the next level has
/// positions it goes down; when a level can do no more it goes back up and gives the
/// level above another quota, so that work is spread over the levels as in KPatience's
/// per-level quotas, and the search never sinks all its budget into one level. With
/// [`Weights::endgame_by_runs`] the end game (no stock left) is a level for each number
/// of runs removed (see [`level_of`]).
pub(super) fn pass(game: &mut Game, root: Pos, w: &Weights, positions: &mut u64, budget: &mut Budget) -> (Outcome, Vec<Move>) {
    pass_in(&mut Arena::default(), game, root, w, positions, budget)
}

/// What a pass allocates in proportion to the positions it makes (its nodes, queues and
/// seen set), kept from one pass to the next of a search: a later pass writes into memory
/// already mapped instead of taking a page fault for every 4 kB of it again (a fifth of
/// a pass's time was the kernel's). Emptied before each pass, so that a pass searches the
/// same in an arena used before as in a new one; freed with the search.
#[derive(Default)]
pub(super) struct Arena {
    nodes: Vec<Node>,
    heaps: Vec<Buckets>,
    keys: Option<KeySet>,
    seen: Option<Seen>,
    /// The seen set's size when the last pass ended (slots, a power of two; 0: no pass
    /// yet): the next pass starts at that size. Passes of one search make about as many
    /// positions, and a set grown by doubling from small writes and rehashes twice the
    /// slots of one made at its size (6 % of a hint's time was growing).
    log2: u32,
}

/// The seen set's size a pass starts with, before any pass of its search.
const FIRST_LOG2: u32 = 16;

impl Arena {
    /// The size (slots, a power of two) the next pass's seen set starts with.
    pub(super) fn seen_log2(&self) -> u32 {
        self.log2.max(FIRST_LOG2)
    }
}

/// Where a pass's seen set is kept in an [`Arena`].
pub(super) trait Kept: Visited + Sized {
    /// The arena's set of this kind, emptied (the other kind's memory is freed: a search
    /// holds one set at a time, as before).
    fn take(arena: &mut Arena) -> Self;
    fn put(self, arena: &mut Arena);
}

impl Kept for KeySet {
    fn take(arena: &mut Arena) -> KeySet {
        arena.seen = None;
        let log2 = arena.seen_log2();
        let mut set = arena.keys.take().unwrap_or_else(|| KeySet::with_capacity_log2(FIRST_LOG2));
        Visited::reset(&mut set, log2);
        set
    }
    fn put(self, arena: &mut Arena) {
        arena.keys = Some(self);
    }
}

impl Kept for Seen {
    fn take(arena: &mut Arena) -> Seen {
        arena.keys = None;
        let log2 = arena.seen_log2();
        let mut set = arena.seen.take().unwrap_or_else(|| Seen::with_capacity_log2(FIRST_LOG2));
        set.reset(log2);
        set
    }
    fn put(self, arena: &mut Arena) {
        arena.seen = Some(self);
    }
}

/// [`pass`] in `arena`'s memory.
pub(super) fn pass_in(
    arena: &mut Arena,
    game: &mut Game,
    root: Pos,
    w: &Weights,
    positions: &mut u64,
    budget: &mut Budget,
) -> (Outcome, Vec<Move>) {
    let (lateral, grow) = (game.lateral_prune, game.grow_runs);
    game.store.score_with(column_weights(w));
    game.lateral_prune = !w.lateral;
    game.grow_runs = w.grow;
    let result = if w.shorter_parents {
        pass_kept::<Seen>(arena, game, root, w, positions, budget)
    } else {
        pass_kept::<KeySet>(arena, game, root, w, positions, budget)
    };
    game.lateral_prune = lateral;
    game.grow_runs = grow;
    result
}

fn pass_kept<S: Kept>(
    arena: &mut Arena,
    game: &mut Game,
    root: Pos,
    w: &Weights,
    positions: &mut u64,
    budget: &mut Budget,
) -> (Outcome, Vec<Move>) {
    let levels = game.deals_left(&root) as usize + 1 + if w.endgame_by_runs { RUNS as usize } else { 0 };
    let mut nodes = std::mem::take(&mut arena.nodes);
    nodes.clear();
    let mut heaps = std::mem::take(&mut arena.heaps);
    heaps.resize_with(levels, Buckets::default);
    for heap in heaps.iter_mut() {
        heap.reset();
    }
    let mut seen = S::take(arena);
    let result = pass_inner(game, root, w, positions, budget, &mut nodes, &mut heaps[..levels], &mut seen);
    arena.nodes = nodes;
    arena.heaps = heaps;
    arena.log2 = seen.slots_log2();
    seen.put(arena);
    result
}

#[allow(clippy::too_many_arguments)]
fn pass_inner<S: Visited>(
    game: &mut Game,
    root: Pos,
    w: &Weights,
    positions: &mut u64,
    budget: &mut Budget,
    nodes: &mut Vec<Node>,
    heaps: &mut [Buckets],
    seen: &mut S,
) -> (Outcome, Vec<Move>) {
    let stop = if w.cap > 0 { *positions + w.cap as u64 } else { u64::MAX };
    let levels = heaps.len();
    nodes.reserve(1 << 16);
    seen.insert(game.key(&root), 0, 0);
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
        let Node { pos, parent, mut depth, chaos: parent_chaos, .. } = nodes[id as usize];
        if S::SHORTER_PARENTS && parent != u32::MAX && nodes[parent as usize].depth + 1 < depth {
            depth = nodes[parent as usize].depth + 1;
            nodes[id as usize].depth = depth;
        }
        game.search_moves(&pos, &mut moves);
        // The children first, each one's slot in the seen set fetched ahead of the inserts.
        let key = game.key(&pos);
        children.clear();
        for &mv in moves.iter() {
            let child = game.apply(&pos, mv);
            if child.removed == RUNS {
                *positions += 1;
                return (Outcome::Won, line_to(game, nodes, id, mv));
            }
            let child_key = if mv.src == DEAL { game.key(&child) } else { game.key_after(key, &pos, &child, mv) };
            debug_assert_eq!(child_key, game.key(&child));
            seen.prefetch(child_key);
            children.push((mv, child, child_key));
        }
        for &(mv, child, key) in children.iter() {
            if let Some((index, known)) = seen.insert(key, nodes.len() as u32, depth.saturating_add(1)) {
                // Most positions met again were met by a path as short: the slot's depth
                // (the node's or more) tells without reading the node.
                if S::SHORTER_PARENTS && depth.saturating_add(1) < known.depth && reparent(game, nodes, known.id, id, mv, &child) {
                    seen.set_depth(index, depth + 1);
                }
                continue;
            }
            *positions += 1;
            if *positions >= stop || budget.exhausted(*positions) {
                return (Outcome::Unknown, vec![]);
            }
            let child_level = level_of(game, w, &child, levels);
            if child_level == level {
                left -= 1;
            }
            let chaos = if mv.src == DEAL {
                game.stored_score(&child, w)
            } else {
                let (a, b) = (mv.src as usize, mv.dst as usize);
                let part = |id| game.store.part(id);
                parent_chaos - part(pos.cols[a]) - part(pos.cols[b]) + part(child.cols[a]) + part(child.cols[b])
                    - w.removed * (child.removed - pos.removed) as i32
            };
            debug_assert_eq!(chaos, game.score(&child, w));
            let mut score = chaos + w.depth * (depth as i32 + 1);
            if w.noise > 0 {
                score += (mix(key ^ 0x5851_F42D_4C95_7F2D ^ w.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % w.noise as u64) as i32;
            }
            let child_id = nodes.len() as u32;
            nodes.push(Node { pos: child, parent: id, mv, depth: depth.saturating_add(1), chaos });
            heaps[child_level].push(score, child_id);
        }
    }
}

/// The level whose queue a position goes to: its deals made, and in the end game (no
/// stock left) with [`Weights::endgame_by_runs`] its runs removed too, a level each.
#[inline]
pub(super) fn level_of(game: &Game, w: &Weights, pos: &Pos, levels: usize) -> usize {
    if !w.endgame_by_runs || game.deals_left(pos) > 0 {
        pos.dealt as usize
    } else {
        (pos.dealt as usize + pos.removed as usize).min(levels - 1)
    }
}

/// Solve a position given as columns (face-down, face-up cards) and stock with the
/// passes of `preset` in turn, each with its share of `budget` (see [`Preset`]).
pub fn solve(
    columns: &[(Vec<u8>, Vec<u8>)],
    stock: &[u8],
    removed: u8,
    by_suit: bool,
    budget: &mut Budget,
    preset: &Preset,
) -> Result<Solution<Move>, String> {
    solve_bounded(columns, stock, removed, by_suit, budget, preset, DEFAULT_MEMORY_MB, &mut |_, _, _| {})
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
    solve_bounded(columns, stock, removed, by_suit, budget, preset, DEFAULT_MEMORY_MB, report)
}

/// Positions one pass may hold within `memory_mb` megabytes.
pub fn positions_within(memory_mb: u64) -> u64 {
    (memory_mb.saturating_mul(1 << 20) / BYTES_PER_POSITION).max(1000)
}

/// [`solve_reporting`] holding at most `memory_mb` megabytes: no pass makes more than
/// [`positions_within`] positions (a pass holds every position it made until it ends).
///
/// A budget of time with no limit of positions is spent whole: once the preset's passes
/// are done (each stopped at its share of the time or at the memory bound, not at the
/// preset's `cap`), the search restarts until the time runs out. A preset with restarts
/// of its own ([`Preset::restarts`], e.g. [`super::SPIDER_RESTARTS`]) runs them in turn as
/// given, then in round `r` (from 2) each with noise of at least [`RESTART_NOISE`], a seed
/// of its own and a quota doubled `min(r - 1, 3)` times. A preset without runs its passes
/// after its short pass the same way from round 1 (a quota doubled `min(r, 3)` times): the
/// noise explores other positions among near equals, the quota searches each level wider
/// before the next. Each restart runs until the memory bound or the end of the time (a
/// share of the time would cut the last one short: the bound already ends each in a few
/// seconds, at 1-2 million positions a second). Restarts are reported as pass
/// `preset.passes.len()`. A node budget, or none, searches as before (no restarts).
#[allow(clippy::too_many_arguments)]
pub fn solve_bounded(
    columns: &[(Vec<u8>, Vec<u8>)],
    stock: &[u8],
    removed: u8,
    by_suit: bool,
    budget: &mut Budget,
    preset: &Preset,
    memory_mb: u64,
    report: &mut dyn FnMut(usize, Outcome, u64),
) -> Result<Solution<Move>, String> {
    let (game, root) = Game::new(columns, stock, removed, by_suit)?;
    if root.removed == RUNS {
        return Ok(Solution::won(vec![], 0));
    }
    if game.legal_moves(&root).is_empty() {
        return Ok(Solution::lost(1));
    }
    drop(game);
    let bound = positions_within(memory_mb);
    // Only time limits this search: it is spent whole, whatever the preset's cap.
    let timed = budget.has_deadline() && !budget.has_node_limit();
    // Each pass on a game of its own: the columns it interns (and so the keys its noise
    // is drawn from) are its own, so a pass searches the same whatever ran before it,
    // and the columns of the passes before it are freed. Black Widow may also be
    // searched with Spider's moves (a subset of its own).
    // The passes share one arena: each after the first writes into memory already mapped.
    let mut arena = Arena::default();
    let mut run = |weights: &Weights, positions: &mut u64, share: &mut Budget| -> Result<(Outcome, Vec<Move>), String> {
        let weights = Weights {
            cap: if weights.cap > 0 { (weights.cap as u64).min(bound) as u32 } else { bound.min(u32::MAX as u64) as u32 },
            ..*weights
        };
        let (mut game, root) = Game::new(columns, stock, removed, by_suit || weights.suited)?;
        Ok(pass_in(&mut arena, &mut game, root, &weights, positions, share))
    };
    let mut positions = 0u64;
    let total: u64 = preset.passes.iter().map(|pass| pass.share).sum::<u64>().max(1);
    let mut weight_left = total;
    for (index, pass_preset) in preset.passes.iter().enumerate() {
        let cap = if timed { u64::MAX } else { ((preset.cap as u128 * pass_preset.share as u128) / total as u128).max(1) as u64 };
        let mut share = budget.pass(positions, pass_preset.share, weight_left, cap);
        weight_left = weight_left.saturating_sub(pass_preset.share);
        let before = positions;
        let (outcome, line) = run(&pass_preset.weights, &mut positions, &mut share)?;
        report(index, outcome, positions - before);
        if outcome == Outcome::Won {
            return Ok(Solution::won(line, positions));
        }
        if budget.exhausted(positions) || budget.out_of_time() {
            return Ok(Solution::unknown(positions));
        }
    }
    if !timed {
        return Ok(Solution::unknown(positions));
    }
    // The preset's restarts, or else its long passes again.
    let own = !preset.restarts.is_empty();
    let flavours: Vec<Weights> = if own {
        preset.restarts.to_vec()
    } else {
        preset.passes.iter().filter(|pass| pass.weights.cap == 0).map(|pass| pass.weights).collect()
    };
    for round in 1u64.. {
        for (index, w) in flavours.iter().enumerate() {
            let left = budget.seconds_left().unwrap_or(0.0);
            if left <= 0.0 || budget.out_of_time() {
                return Ok(Solution::unknown(positions));
            }
            // A preset's own restarts run as given first; then (and the long passes
            // always) with another seed and a wider quota.
            let widen = if own { round - 1 } else { round };
            let weights = if widen == 0 {
                *w
            } else {
                Weights { noise: w.noise.max(RESTART_NOISE), seed: round * 16 + index as u64, quota: w.quota << widen.min(3), ..*w }
            };
            let mut share = Budget::new(None, Some(left));
            let before = positions;
            let (outcome, line) = run(&weights, &mut positions, &mut share)?;
            report(preset.passes.len(), outcome, positions - before);
            if outcome == Outcome::Won {
                return Ok(Solution::won(line, positions));
            }
        }
    }
    Ok(Solution::unknown(positions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spider::tests::shuffled_deal;

    fn node(pos: Pos, parent: u32, depth: u16) -> Node {
        Node { pos, parent, mv: Move { src: 0, dst: 1, count: 1 }, depth, chaos: 0 }
    }

    #[test]
    fn a_position_met_by_a_shorter_path_takes_that_parent() {
        let (columns, stock) = shuffled_deal(5);
        let (game, root) = Game::new(&columns, &stock, 0, true).unwrap();
        let at = |i: u32| Pos { cols: [i + 1; COLUMNS], ..root };
        // root -> 1 -> 2 -> 3, and root -> 4.
        let mut nodes = vec![node(root, u32::MAX, 0), node(at(1), 0, 1), node(at(2), 1, 2), node(at(3), 2, 3), node(at(4), 0, 1)];
        let shortcut = Move { src: 4, dst: 7, count: 2 };
        // From 4, position 3 in two moves instead of three.
        assert!(reparent(&game, &mut nodes, 3, 4, shortcut, &at(3)));
        assert_eq!((nodes[3].parent, nodes[3].depth, nodes[3].mv), (4, 2, shortcut));
        // Not by a path as long, nor from a descendant, nor to another position with the same key.
        assert!(!reparent(&game, &mut nodes, 2, 4, shortcut, &at(2)));
        assert!(!reparent(&game, &mut nodes, 1, 3, shortcut, &at(1)));
        assert!(!reparent(&game, &mut nodes, 2, 0, shortcut, &at(9)));
        assert_eq!(nodes[2].parent, 1);
        // The line follows the shorter parents.
        assert_eq!(path(&nodes, 3), vec![4, 3]);
    }

    fn path(nodes: &[Node], mut id: u32) -> Vec<u32> {
        let mut out = vec![];
        while nodes[id as usize].parent != u32::MAX {
            out.push(id);
            id = nodes[id as usize].parent;
        }
        out.reverse();
        out
    }
}
