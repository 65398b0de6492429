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
    let mut found = Vec::new();
    // Tried in vain, in the line as it now is: (i, j, the move the edited line failed at).
    let mut failed: Vec<(usize, usize, usize)> = Vec::new();
    let mut any = false;
    loop {
        pairs(d, &path.moves, 0, &mut found);
        found.retain(|&(i, j, _)| !failed.iter().any(|&(a, b, _)| (a, b) == (i, j)));
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
            let Some((new_moves, end)) = try_pair(d, path, i, j, joined).map_err(|at| failed.push((i, j, at))).ok() else { continue };
            let (removed, added) = (end - i, new_moves.len());
            path.splice(d, i, end, new_moves);
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
fn try_pair<D: Domain>(d: &mut D, path: &Path<D>, i: usize, j: usize, joined: Joined<D::Move>) -> Result<Edit<D>, usize> {
    let moves = &path.moves;
    match joined {
        Joined::Apart => Err(i),
        Joined::Back => edited(d, path, i, j, None, None),
        // The cards moved at once where the second move takes them (fails at once when
        // that place does not take them yet), or left where they were until then: only
        // if the rules moved nothing else after the first move, and no move between uses
        // the place they would stay in.
        Joined::Into(m) => edited(d, path, i, j, Some(m), None).or_else(|first| {
            if (i + 1..j).any(|k| d.touches(moves[k], moves[i])) {
                return Err(first);
            }
            if !d.alone(path.state(i), moves[i], path.state(i + 1)) {
                return Err(first);
            }
            edited(d, path, i, j, None, Some(m)).map_err(|second| first.max(second))
        }),
    }
}

/// What replaces moves `i..end` of a line: the moves, and `end`.
type Edit<D> = (Vec<<D as Domain>::Move>, usize);

/// The moves that replace moves `i..end` of the line when move `i` is replaced by
/// `at_i` and move `j` by `at_j` (i < j; `None`: left out; both made as in position
/// `i`), with the position after each, if the line still plays and wins. Once the
/// edited line is back on the old one, place for place, the rest is kept. `Err(k)`: the
/// edited line fails at move `k` of the old line (`moves.len()`: it does not win), so a
/// change of the line from move `k + 1` on may let it play.
fn edited<D: Domain>(d: &mut D, path: &Path<D>, i: usize, j: usize, at_i: Option<D::Move>, at_j: Option<D::Move>) -> Result<Edit<D>, usize> {
    let (moves, start) = (&path.moves, path.state(i));
    let same = d.identity();
    if let Some(m) = at_i {
        // Most joins fail at once: the place does not take the cards yet.
        let m = d.translate(&same, m, start, start).ok_or(i)?;
        if !d.legal(start, m) {
            return Err(i);
        }
    }
    let mut new_moves: Vec<D::Move> = Vec::with_capacity(j + 2 - i);
    let mut cur = start.clone(); // the edited line
    for k in i..moves.len() {
        let old = path.state(k); // the old line
        if k > j && d.same(&cur, old) {
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
            _ => d.translate(&same, moves[k], old, &cur).ok_or(k)?,
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
