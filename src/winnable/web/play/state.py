"""The game state the browser draws: one stored game and its position as JSON (the
player's view, the legal moves described, status, score, undo, clock and links)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, TypedDict

from winnable.game import Position
from winnable.games import RankingRule, family_named
from winnable.storage.engine import as_utc
from winnable.web.play.lookup import hides_cards, source_of
from winnable.web.play.pace import NotRanked, pace
from winnable.web.play.positions import cards_in_play, shown
from winnable.web.play.scores import speed_score
from winnable.web.play.store import Stored, effective_status, iso, think_deadline, today
from winnable.web.views.moves import MoveDescription


class Score(TypedDict):
    """The API's ``Score``."""

    won: bool
    partial: int
    out_of: int
    cards_left: int
    moves: int
    seconds: float
    speed: int | None


class GameState(TypedDict):
    """The game state as :func:`render` makes it (the API's ``GameState``). The
    ``position`` is the family's own (:func:`winnable.web.views.player_view`)."""

    id: str
    game: str
    title: str
    family: str
    deal: int | None
    undo: str
    undo_left: int | None
    redo_left: int
    moves: list[str]
    move_count: int
    position: dict[str, Any]
    legal: list[MoveDescription]
    safe: list[str]
    finish: list[str] | None
    status: str
    winnable_deal: bool
    grade: str | None
    hidden_cards: bool
    restarts: int
    created_at: str | None
    started_at: str | None
    finished_at: str | None
    elapsed_seconds: float
    score: Score
    undo_used: int
    hints_used: int
    assisted: bool
    think_seconds: int | None
    think_deadline: str | None
    think_left: float | None
    timed_out: bool
    daily: str | None
    challenge: str | None
    hint_allowed: bool
    not_ranked: NotRanked | None
    restart_allowed: bool
    links: dict[str, str]


def render(
    row: Stored, position: Position, now: dt.datetime, helped: Callable[[Stored, str], bool] | None = None, judge_pace: bool = True
) -> GameState:
    """The game state the browser draws, on the server's clock ``now``; ``helped(row,
    status)`` is the gate of the solver's help (:meth:`winnable.web.play.help.HelpGate.allowed`)."""
    cls = type(position)
    view = shown(position)
    status = effective_status(row, view.status, now)
    timed_out = status == "lost" and view.status == "playing"
    deadline = think_deadline(row)
    started, finished = as_utc(row.started_at), as_utc(row.finished_at)
    if timed_out and finished is None:
        finished = as_utc(row.timed_out_at) or deadline
    # The clock starts with the first move (and again after a restart); a Daily's
    # starts when it is dealt.
    elapsed = 0.0 if started is None else ((finished or now) - started).total_seconds()
    hints = row.hints_used or 0
    daily_open = row.daily_day is not None and row.daily_day >= today(now)
    moves = list(row.moves)
    source = source_of(row)
    # A game dealt from a deck order has no number: nothing shows a Daily's cards
    # but its own position.
    deal = source if isinstance(source, int) and not daily_open else None  # (a Daily from before 0008)
    out_of = cards_in_play(row.game, source)
    if row.undo_mode == "unlimited":
        undo_left = None
    else:
        undo_left = max(0, (1 if row.undo_mode == "one" else 0) - row.undo_used)
    return {
        "id": row.id,
        "game": row.game,
        "title": cls.title,
        "family": cls.family,
        "deal": deal,
        "undo": row.undo_mode,
        "undo_left": undo_left,
        "redo_left": len(row.redo or ()),
        "moves": moves,
        "move_count": len(moves),
        "position": view.view,
        "legal": view.legal if not timed_out else [],
        "safe": view.safe if not timed_out else [],
        "finish": view.finish if not timed_out else None,
        "status": status,
        "winnable_deal": row.winnable_deal,
        "grade": row.grade,
        "hidden_cards": hides_cards(cls),
        "restarts": row.restarts,
        "created_at": iso(row.created_at),
        "started_at": iso(row.started_at),
        "finished_at": iso(finished),
        "elapsed_seconds": round(max(0.0, elapsed), 3),
        "score": {
            "won": status == "won",
            "partial": out_of - position.cards_left(),
            "out_of": out_of,
            "cards_left": position.cards_left(),
            "moves": len(moves),
            "seconds": round(max(0.0, elapsed), 3),
            "speed": speed_score(status == "won", len(moves), elapsed)
            if family_named(cls.family).traits.ranking is RankingRule.SPEED
            else None,
        },
        "undo_used": row.undo_used,
        "hints_used": hints,
        "assisted": hints > 0,
        "think_seconds": row.think_seconds,
        "think_deadline": iso(deadline) if status == "playing" else None,
        "think_left": round(max(0.0, (deadline - now).total_seconds()), 3) if status == "playing" and deadline else None,
        "timed_out": timed_out,
        "daily": row.daily_day.isoformat() if row.daily_day is not None else None,
        "challenge": row.challenge,
        "hint_allowed": (helped(row, status) if helped is not None else status == "playing" and not daily_open and row.challenge is None),
        # A ranked attempt whose moves came faster than a person plays: kept, not ranked.
        "not_ranked": ranked_pace(row) if judge_pace else None,
        "restart_allowed": row.daily_day is None and row.challenge is None,
        "links": ({"deal": f"/play/{row.game}?deal={deal}"} if deal is not None else {})
        | {
            "resume": f"/play/{row.game}?id={row.id}",
            "rules": f"/rules/{row.game}",
            "self": f"/api/games/{row.id}",
        },
    }


def ranked_pace(row: Stored) -> NotRanked | None:
    """Why a Daily or ranked challenge attempt is kept out of the rankings (its pace, see
    :mod:`winnable.web.play.pace`), or None (ranked, or not a ranked attempt)."""
    if row.daily_day is None and row.challenge is None:
        return None
    found = pace(row.move_times)
    return None if found is None else found.as_json()
