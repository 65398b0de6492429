use super::{Domain, Joined, Path, EVERYWHERE, NOWHERE};

/// A pair of moves of the same cards (see [`join_pairs`]): move `i`, move `j`, and how.
type Pair<M> = (usize, usize, Joined<M>);

/// The pairs of moves of the same cards from move `from` on, by their first move: for
/// each move `j`, the nearest earlier move `i` it joins, with no move between touching
/// the places of either.
fn pairs<D: Domain>(d: &D, moves: &[D::Move], from: usize, out: &mut Vec<Pair<D::Move>>) {
    // Moves join only moves that touch them (the second takes the cards from where the
    // first put them): for each move, the last earlier one using one of its places
    // (-1: none).
    out.clear();
    let mut last = [-1i32; 64];
    let mut all = -1i32; // the last move touching every place
    for (j, &m) in moves.iter().enumerate().skip(from) {
        let [a, b] = d.places(m);
        let i = if a == EVERYWHERE || b == EVERYWHERE {
            let before = if j > from { j as i32 - 1 } else { -1 };
            all = j as i32;
            before
        } else {
            let seen = |p: u8| if p == NOWHERE { -1 } else { last[p as usize] };
            let i = all.max(seen(a)).max(seen(b));
            for p in [a, b] {
                if p != NOWHERE {
                    last[p as usize] = j as i32;
                }
            }
            i
        };
        if i >= 0 {
            let i = i as usize;
            let joined = d.join(moves[i], m);
            if !matches!(joined, Joined::Apart) {
                out.push((i, j, joined));
            }
        }
    }
    out.sort_unstable_by_key(|&(i, j, _)| (i, j));
}

/// Join the moves of the same cards: a move later taken back (same cards, back where
/// they came from, no move between touching either place) goes with the move taking it
/// back; two moves of the same cards become one. Each change is kept when the line
/// still plays and wins. The pairs are found once a pass and tried in the order of their
/// first move; a pass that changed the line is followed by another (the pairs a change
/// makes are found then). Whether anything changed.
pub(super) fn join_pairs<D: Domain>(d: &mut D, path: &mut Path<D>) -> bool {
    // (Room for what a line of a hundred moves has: a grown vector is copied.)
    let mut found = Vec::with_capacity(64);
    // Tried in vain, in the line as it now is: (i, j, the move the edited line failed at).
    let mut failed: Vec<(usize, usize, usize)> = Vec::with_capacity(64);
    let mut any = false;
    loop {
        pairs(d, &path.moves, 0, &mut found);
        failed.sort_unstable();
        found.retain(|&(i, j, _)| failed.binary_search_by(|&(a, b, _)| (a, b).cmp(&(i, j))).is_err());
        let mut changed = false;
        // `found` is in the line as it was when the pass began: a pair from `clear` on
        // (the end of the last change, there) is at `shift` moves from there now; one
        // before it waits for the next pass.
        let (mut clear, mut shift) = (0usize, 0isize);
        for &(i0, j0, joined) in found.iter() {
            if i0 < clear {
                continue;
            }
            let (i, j) = ((i0 as isize + shift) as usize, (j0 as isize + shift) as usize);
            let Some((new_moves, end, first)) = try_pair(d, path, i, j, joined).map_err(|at| failed.push((i, j, at))).ok() else {
                continue;
            };
            let (removed, added) = (end - i, new_moves.len());
            path.splice(i, end, new_moves, first);
            any = true;
            changed = true;
            clear = (end as isize - shift) as usize;
            shift += added as isize - removed as isize;
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
        }
        if !changed {
            return any;
        }
    }
}

/// The line with the pair of moves `i`, `j` joined (see [`join_pairs`]), as an edit of
/// moves `i..end`; `Err(k)` as [`edited`] gives it.
fn try_pair<D: Domain>(d: &mut D, path: &mut Path<D>, i: usize, j: usize, joined: Joined<D::Move>) -> Result<Edit<D>, usize> {
    match joined {
        Joined::Apart => Err(i),
        Joined::Back => edited(d, path, i, j, None, None),
        // The cards moved at once where the second move takes them (fails at once when
        // that place does not take them yet), or left where they were until then: only
        // if the rules moved nothing else after the first move, and no move between uses
        // the place they would stay in.
        Joined::Into(m) => match edited(d, path, i, j, Some(m), None) {
            Ok(edit) => Ok(edit),
            Err(first) => {
                let moves = &path.moves;
                if (i + 1..j).any(|k| d.touches(moves[k], moves[i])) || !d.alone(path.state(i), moves[i], path.state(i + 1)) {
                    return Err(first);
                }
                edited(d, path, i, j, None, Some(m)).map_err(|second| first.max(second))
            }
        },
    }
}

/// What replaces moves `i..end` of a line: the moves, `end`, and the place in the arena
/// of the position after the first of them (the others follow it).
type Edit<D> = (Vec<<D as Domain>::Move>, usize, u32);

/// The moves that replace moves `i..end` of the line when move `i` is replaced by
/// `at_i` and move `j` by `at_j` (i < j; `None`: left out; both made as in position
/// `i`), with the position after each, if the line still plays and wins. Once the
/// edited line is back on the old one, place for place, the rest is kept. The edited
/// line's positions are made in the path's arena as it goes (kept if it plays: the
/// edit does not make them again). `Err(k)`: the edited line fails at move `k` of the
/// old line (`moves.len()`: it does not win), so a change of the line from move `k + 1`
/// on may let it play.
fn edited<D: Domain>(
    d: &mut D,
    path: &mut Path<D>,
    i: usize,
    j: usize,
    at_i: Option<D::Move>,
    at_j: Option<D::Move>,
) -> Result<Edit<D>, usize> {
    let same = d.identity();
    let start = path.order[i];
    if let Some(m) = at_i {
        // Most joins fail at once: the place does not take the cards yet.
        let s = path.state(i);
        let m = d.translate(&same, m, s, s).ok_or(i)?;
        if !d.legal(s, m) {
            return Err(i);
        }
    }
    let mark = path.mark();
    let fail = |path: &mut Path<D>, k: usize| {
        path.truncate(mark);
        Err(k)
    };
    let mut new_moves: Vec<D::Move> = Vec::with_capacity(j + 2 - i);
    let mut at = start; // the edited line's last position
    for k in i..path.moves.len() {
        // (The old line's position `k` is read only where the keys, kept, are equal.)
        if k > j && path.keys[at as usize] == path.key(k) && d.same(path.at(at), path.state(k)) {
            return Ok((new_moves, k, mark));
        }
        let m = {
            let (cur, first) = (path.at(at), path.at(start));
            match k {
                _ if k == i => match at_i {
                    Some(m) => d.translate(&same, m, first, cur),
                    None => continue,
                },
                _ if k == j => match at_j {
                    Some(m) => d.translate(&same, m, first, cur),
                    None => continue,
                },
                _ => d.translate(&same, path.moves[k], path.state(k), cur),
            }
        };
        let Some(m) = m.filter(|&m| d.legal(path.at(at), m)) else { return fail(path, k) };
        let (next, played) = path.made(d, at, m);
        new_moves.push(played);
        at = next;
    }
    if d.won(path.at(at)) {
        Ok((new_moves, path.moves.len(), mark))
    } else {
        fail(path, path.moves.len())
    }
}
