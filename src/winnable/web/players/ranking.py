"""One ranking for every leaderboard (the Daily's, a challenge's): attempts read from
their game rows, results computed by the server from the stored moves and its clock,
ordered by :meth:`winnable.web.play.scores.Result.key` (wins by time then moves, for the
free-cell family by speed score; then the others by cards left, i.e. partial score,
then moves).

>>> import datetime as dt
>>> from types import SimpleNamespace as Row
>>> at = dt.datetime(2026, 12, 1, tzinfo=dt.timezone.utc)
>>> def attempt(player, status, seconds, moves, left):
...     return Row(user_id=None, name=player, status=status, move_count=moves, cards_left=left, undo_used=0,
...                started_at=at, finished_at=at + dt.timedelta(seconds=seconds) if status != "playing" else None,
...                timed_out_at=None, think_seconds=None, last_move_at=None)
>>> rows = [attempt("slow", "won", 90, 51, 0), attempt("fast", "won", 60, 51, 0), attempt("stuck", "lost", 30, 20, 31)]
>>> [(entry["rank"], entry["player"]) for entry in ranked_entries(rows, "black-hole", at)]
[(1, 'fast'), (2, 'slow'), (3, 'stuck')]

A result whose moves came faster than a person plays (:mod:`winnable.web.play.pace`) is
kept, never at a rank: it comes after every ranked one, with ``rank`` None and
``not_ranked`` saying why (the leaderboards show it to its player only).

>>> bot = attempt("bot", "won", 1, 51, 0)
>>> bot.move_times = [20 * k for k in range(51)]
>>> [(entry["rank"], entry["player"], (entry["not_ranked"] or {}).get("code"))
...  for entry in ranked_entries(rows + [bot], "black-hole", at)]
[(1, 'fast', None), (2, 'slow', None), (3, 'stuck', None), (None, 'bot', 'pace_median')]
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Iterable, TypedDict, cast

from winnable.games import RankingRule, ScoreKind, traits_of
from winnable.storage.engine import as_utc
from winnable.storage.tables import GameRow
from winnable.web.play.lookup import lookup_game
from winnable.web.play.pace import NotRanked, pace
from winnable.web.play.scores import Result, speed_score
from winnable.web.play.store import effective_status, iso

RESULT_COLUMNS = (
    GameRow.status,
    GameRow.move_count,
    GameRow.cards_left,
    GameRow.undo_used,
    GameRow.started_at,
    GameRow.finished_at,
    GameRow.timed_out_at,
    GameRow.think_seconds,
    GameRow.last_move_at,
    GameRow.move_times,
)
"""What a result needs of a game (not its moves): read as plain rows, not objects."""


class _Result(TypedDict):
    player: str | None
    status: str
    seconds: float | None
    moves: int
    undos: int
    cards_left: int
    partial: int | None
    speed: int | None
    finished_at: str | None
    not_ranked: NotRanked | None
    rank: int | None


class RankedEntry(_Result):
    """An entry as :func:`ranked_entries` makes it: with its player's id, which
    :func:`shown` replaces before it goes out."""

    user_id: int | None


class LeaderboardEntry(_Result):
    """One result on a leaderboard, as it goes out (the API's ``LeaderboardEntry``)."""

    you: bool


def shown(entry: RankedEntry, yours: RankedEntry | None) -> LeaderboardEntry:
    """``entry`` as it goes out: without its player's id, marked if it is the viewer's
    (``yours``)."""
    out = {key: value for key, value in entry.items() if key != "user_id"}
    out["you"] = entry is yours
    return cast(LeaderboardEntry, out)


def ranked_entries(rows: Iterable[Any], game: str, now: dt.datetime, over: bool = False, judge_pace: bool = True) -> list[RankedEntry]:
    """The leaderboard's entries of ``rows`` (each with ``user_id``, ``name`` and the
    :data:`RESULT_COLUMNS`), ranked, best first. ``over``: the attempts are final (an
    attempt still in play is ``unfinished``). Each entry keeps its ``user_id`` for the
    caller to mark the viewer's and drop it. Results at a pace no person reaches come
    last, not ranked (``rank`` None, ``not_ranked`` why)."""
    lookup_game(game)  # an unknown game: 404
    traits = traits_of(game)
    speedy = traits.ranking is RankingRule.SPEED
    partial = traits.score is ScoreKind.FOUNDATIONS
    ranked: list[tuple[tuple[bool, tuple[int, float, float, int]], dt.datetime, RankedEntry]] = []
    for row in rows:
        status = effective_status(row, row.status, now)
        if status == "playing" and over:
            status = "unfinished"
        started, finished = as_utc(row.started_at), as_utc(row.finished_at or row.timed_out_at)
        seconds = (finished - started).total_seconds() if status == "won" and started and finished else None
        left = row.cards_left if row.cards_left is not None else 0
        moves = row.move_count or 0
        speed = speed_score(True, moves, seconds) if speedy and seconds is not None else None
        result = Result(status, seconds, moves, left, speed)
        too_fast = pace(getattr(row, "move_times", None)) if judge_pace else None
        ranked.append(
            (
                (too_fast is not None, result.key()),
                (as_utc(row.finished_at) or now),
                {
                    "user_id": row.user_id,
                    "player": row.name,
                    "status": status,
                    "seconds": None if seconds is None else round(seconds, 1),
                    "moves": moves,
                    "undos": row.undo_used,
                    "cards_left": left,
                    "partial": (52 - left) if partial else None,
                    "speed": speed,
                    "finished_at": iso(row.finished_at),
                    "not_ranked": None if too_fast is None else too_fast.as_json(),
                    "rank": None,  # below, once sorted
                },
            )
        )
    ranked.sort(key=lambda item: (item[0], item[1]))
    entries = []
    for rank, (_, _, entry) in enumerate(ranked, 1):
        entry["rank"] = None if entry["not_ranked"] else rank
        entries.append(entry)
    return entries


def public(entries: list[RankedEntry]) -> list[RankedEntry]:
    """What a leaderboard shows everyone: the ranked entries (not the results kept out)."""
    return [entry for entry in entries if entry["rank"] is not None]
