"""Statistics per player and game, from the stored games (the server's results only).

A game counts as *played* once a move was made. *Won* counts wins without hints;
wins with hints are *assisted* and kept apart (they neither count as wins nor set
records). Streaks run over played games in the order they were started: a win extends
the streak, anything else (a loss, an assisted win, a game left unfinished for a later
one) ends it; the latest game, while it is still being played, does not count yet.
Best time and fewest moves are over wins; Black Hole and Fourteen Out keep their best
time per undo rule; the free-cell family (Penguin) its average and best partial score
(cards home, of 52) and its best speed score (:mod:`winnable.web.play.scores`); Fourteen
Out the average and the most cards taken out (of 52). Every deal played
more than once has its record: its games side by side (:func:`deal_records`).

>>> import datetime as dt
>>> from types import SimpleNamespace as Row
>>> at = dt.datetime(2026, 11, 30, tzinfo=dt.timezone.utc)
>>> def game(status, moves=40, hints=0, seconds=60.0, minute=0):
...     start = at + dt.timedelta(minutes=minute)
...     return Row(id=str(minute), game="black-hole", status=status, move_count=moves, hints_used=hints, undo_mode="none",
...                undo_used=0, cards_left=0 if status == "won" else 9, created_at=start, started_at=start,
...                finished_at=start + dt.timedelta(seconds=seconds), timed_out_at=None, think_seconds=None,
...                last_move_at=None, daily_day=None)
>>> rows = [game("won", minute=1), game("won", 30, minute=2), game("lost", minute=3),
...         game("won", hints=2, minute=4), game("won", 35, seconds=50, minute=5)]
>>> stats = player_statistics(rows, at + dt.timedelta(hours=1))["games"][0]
>>> stats["played"], stats["won"], stats["assisted_wins"], stats["best_streak"], stats["current_streak"]
(5, 3, 1, 2, 1)
>>> stats["best_seconds"], stats["fewest_moves"], stats["best_seconds_by_undo"]
(50.0, 30, {'none': 50.0})
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Iterable, TypedDict

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, load_only

from winnable.errors import UnknownGameError, WinnableError
from winnable.games import RankingRule, ScoreKind, game_class, traits_of
from winnable.storage.engine import as_utc
from winnable.storage.tables import GameRow
from winnable.web.play.lookup import game_not_found, source_of, valid_id
from winnable.web.play.positions import cards_in_play
from winnable.web.play.scores import speed_score
from winnable.web.play.store import effective_status
from winnable.web.security.identity import Viewer

HISTORY = 500
"""Games of each player listed for the plot (the latest)."""


def seconds_of(row: Any, status: str) -> float | None:  # a games row (GameRow or a selected Row)
    started: dt.datetime | None = as_utc(row.started_at)
    finished: dt.datetime | None = as_utc(row.finished_at) or as_utc(row.timed_out_at)
    if status not in ("won", "lost") or started is None or finished is None:
        return None
    return round(max(0.0, (finished - started).total_seconds()), 1)


def moment(row: Any) -> str:
    """When a game's result was reached (or it was last played)."""
    when: dt.datetime = as_utc(row.finished_at) or as_utc(getattr(row, "updated_at", None)) or as_utc(row.created_at)
    return when.isoformat().replace("+00:00", "Z")


def out_of(row: Any) -> int | None:
    """Cards the game's deal has to bring home (None if the deal cannot be dealt)."""
    try:
        return cards_in_play(row.game, source_of(row))
    except (WinnableError, ValueError, AttributeError, TypeError):
        return None


def family_of(game: str) -> str | None:
    try:
        return game_class(game).family
    except UnknownGameError:
        return None


class GameStatistics(TypedDict):
    """One game's figures (the API's ``GameStatistics``)."""

    game: str
    title: str
    played: int
    won: int
    assisted_wins: int
    lost: int
    win_rate: float
    current_streak: int
    best_streak: int
    best_seconds: float | None
    fewest_moves: int | None
    best_seconds_by_undo: dict[str, float] | None
    partial_average: float | None
    partial_best: int | None
    speed_best: int | None
    removed_average: float | None
    removed_best: int | None


class HistoryEntry(TypedDict):
    """One played game's result (the API's ``HistoryEntry``)."""

    game: str
    at: str
    status: str
    assisted: bool
    seconds: float | None
    moves: int
    cards_left: int | None
    out_of: int | None
    daily: str | None


class PlayerStatistics(TypedDict):
    """What :func:`player_statistics` works out of a player's games."""

    games: list[GameStatistics]
    history: list[HistoryEntry]


class DealAttempt(TypedDict):
    """One game of a deal's record (the API's ``DealAttempt``)."""

    id: str
    at: str
    status: str
    seconds: float | None
    moves: int
    undos: int
    hints: int
    undo_rule: str
    current: bool


class DealRecord(TypedDict):
    """Your games of one deal (the API's ``DealRecord``)."""

    game: str
    title: str
    deal: int | None
    daily: str | None
    played: int
    attempts: list[DealAttempt]


class Statistics(TypedDict):
    """A player's statistics (the API's ``Statistics``)."""

    player: str | None
    signed_in: bool
    games: list[GameStatistics]
    history: list[HistoryEntry]
    records: list[DealRecord]


def player_statistics(rows: Iterable[Any], now: dt.datetime) -> PlayerStatistics:
    """Statistics of every game in ``rows`` (a player's stored games), and the history."""
    played = [row for row in rows if (row.move_count or 0) > 0 and family_of(row.game) is not None]
    played.sort(key=lambda row: (as_utc(row.created_at), row.id))
    by_game: dict[str, list[tuple[Any, str]]] = {}
    history: list[HistoryEntry] = []
    for row in played:
        status = effective_status(row, row.status, now)
        by_game.setdefault(row.game, []).append((row, status))
        history.append(
            {
                "game": row.game,
                "at": moment(row),
                "status": status,
                "assisted": status == "won" and (row.hints_used or 0) > 0,
                "seconds": seconds_of(row, status),
                "moves": row.move_count or 0,
                "cards_left": row.cards_left,
                "out_of": out_of(row),
                "daily": row.daily_day.isoformat() if row.daily_day else None,
            }
        )
    games = [game_statistics(game, entries) for game, entries in sorted(by_game.items())]
    return {"games": games, "history": history[-HISTORY:]}


def game_statistics(game: str, entries: list[tuple[Any, str]]) -> GameStatistics:
    """One game's figures from its played games ``(row, status)``, oldest first."""
    traits = traits_of(game)
    speedy = traits.ranking is RankingRule.SPEED
    penguin = traits.score is ScoreKind.FOUNDATIONS  # scored by the cards brought home
    pairing = traits.score is ScoreKind.TAKEN_OUT  # scored by the cards taken out
    won = assisted = lost = 0
    streak = best_streak = 0
    best_seconds: float | None = None
    fewest: int | None = None
    best_speed: int | None = None
    by_undo: dict[str, float] = {}
    partials = []
    for index, (row, status) in enumerate(entries):
        hints = (row.hints_used or 0) > 0
        last = index == len(entries) - 1
        if status == "won" and not hints:
            won += 1
            streak += 1
            best_streak = max(best_streak, streak)
            seconds = seconds_of(row, status)
            moves = row.move_count or 0
            if seconds is not None:
                best_seconds = seconds if best_seconds is None else min(best_seconds, seconds)
                by_undo[row.undo_mode] = min(by_undo.get(row.undo_mode, seconds), seconds)
                if speedy:
                    speed = speed_score(True, moves, seconds)
                    best_speed = speed if best_speed is None else max(best_speed, speed)
            fewest = moves if fewest is None else min(fewest, moves)
        elif status == "playing" and last:
            pass  # still being played: it neither extends nor ends the streak yet
        else:
            assisted += status == "won"
            lost += status == "lost"
            streak = 0
        if (penguin or pairing) and row.cards_left is not None:
            partials.append(52 - row.cards_left if status != "won" else 52)
    played = len(entries)
    out: GameStatistics = {
        "game": game,
        "title": game_class(game).title,
        "played": played,
        "won": won,
        "assisted_wins": assisted,
        "lost": lost,
        "win_rate": round(won / played, 4) if played else 0.0,
        "current_streak": streak,
        "best_streak": best_streak,
        "best_seconds": best_seconds,
        "fewest_moves": fewest,
        "best_seconds_by_undo": by_undo if traits.times_by_undo else None,
        "partial_average": round(sum(partials) / len(partials), 1) if partials and penguin else None,
        "partial_best": max(partials) if partials and penguin else None,
        "speed_best": best_speed,
        "removed_average": round(sum(partials) / len(partials), 1) if partials and pairing else None,
        "removed_best": max(partials) if partials and pairing else None,
    }
    return out


COLUMNS = (
    GameRow.id,
    GameRow.game,
    GameRow.deal,
    GameRow.status,
    GameRow.move_count,
    GameRow.hints_used,
    GameRow.undo_mode,
    GameRow.undo_used,
    GameRow.cards_left,
    GameRow.created_at,
    GameRow.started_at,
    GameRow.finished_at,
    GameRow.updated_at,
    GameRow.timed_out_at,
    GameRow.think_seconds,
    GameRow.last_move_at,
    GameRow.daily_day,
    GameRow.layout,
)


def deal_key(row: Any) -> tuple[str, str]:  # a games row, as seconds_of
    """What makes two games the same deal: the game id and its deal number, or the deck
    order it was dealt from (a Daily's, a challenge's)."""
    return row.game, (f"#{row.deal}" if row.deal is not None else f"@{row.layout}")


def attempt_of(row: Any, now: dt.datetime, current: str | None = None) -> DealAttempt:
    """One game of a deal's record, as the server's figures give it."""
    status = effective_status(row, row.status, now)
    return {
        "id": row.id,
        "at": moment(row),
        "status": status,
        "seconds": seconds_of(row, status),
        "moves": row.move_count or 0,
        "undos": row.undo_used or 0,
        "hints": row.hints_used or 0,
        "undo_rule": row.undo_mode,
        "current": row.id == current,
    }


def deal_records(rows: Iterable[Any], now: dt.datetime, current: str | None = None, least: int = 2) -> list[DealRecord]:
    """Your record of each deal played at least ``least`` times: its games side by side,
    oldest first (date, result, time, moves, undos, hints); the deals most played first.
    The game ``current`` (the one a page shows) is listed even before its first move.
    A deal dealt from a deck order (a Daily, a challenge) has no number to show; a
    Daily's day is named instead."""
    by_deal: dict[tuple[str, str], list[Any]] = {}
    for row in rows:
        if ((row.move_count or 0) > 0 or row.id == current) and family_of(row.game) is not None:
            by_deal.setdefault(deal_key(row), []).append(row)
    records: list[DealRecord] = []
    for (game, _), games in by_deal.items():
        played = sum(1 for row in games if (row.move_count or 0) > 0)
        if played < least:
            continue
        games.sort(key=lambda row: (as_utc(row.created_at), row.id))
        first = games[0]
        daily = next((row.daily_day for row in games if row.daily_day is not None), None)
        records.append(
            {
                "game": game,
                "title": game_class(game).title,
                "deal": int(first.deal) if first.deal is not None and daily is None else None,
                "daily": daily.isoformat() if daily is not None else None,
                "played": played,
                "attempts": [attempt_of(row, now, current) for row in games],
            }
        )
    records.sort(key=lambda record: (-record["played"], record["game"], record["attempts"][-1]["at"]))
    return records


def record_for(engine: Engine, viewer: Viewer, game_id: str, now: dt.datetime) -> DealRecord:
    """Your record of the deal of your game ``game_id``: every game of yours of that
    deal (played, or this one), side by side. Someone else's game is no such game."""
    with Session(engine) as session:
        row = (
            session.scalars(
                select(GameRow).options(load_only(*COLUMNS, GameRow.user_id, GameRow.guest)).where(GameRow.id == game_id)
            ).first()
            if valid_id(game_id)
            else None
        )
        if row is None or not viewer.owns(row.user_id, row.guest):
            raise game_not_found(game_id)
        owner = GameRow.user_id == viewer.user_id if viewer.signed_in else GameRow.guest == viewer.session
        same = GameRow.deal == row.deal if row.deal is not None else GameRow.layout == row.layout
        rows = session.scalars(
            select(GameRow)
            .options(load_only(*COLUMNS))
            .where(owner, GameRow.game == row.game, same, (GameRow.move_count > 0) | (GameRow.id == row.id))
        ).all()
        found = deal_records(list(rows), now, current=row.id, least=1)
    record = next((entry for entry in found if any(attempt["current"] for attempt in entry["attempts"])), None)
    if record is None:  # this game not played yet, and no other game of the deal
        record = {"game": row.game, "title": game_class(row.game).title, "deal": None, "daily": None, "played": 0, "attempts": []}
    return record


def statistics_for(engine: Engine, viewer: Viewer, now: dt.datetime) -> Statistics:
    """The statistics of the signed-in player, or of this browser's guest session."""
    if viewer.signed_in:
        owner = GameRow.user_id == viewer.user_id
    elif viewer.session is not None:
        owner = GameRow.guest == viewer.session
    else:
        return {"player": None, "signed_in": False, "games": [], "history": [], "records": []}
    with Session(engine) as session:
        rows = session.scalars(select(GameRow).options(load_only(*COLUMNS)).where(owner, GameRow.move_count > 0)).all()
        result = player_statistics(rows, now)
        records = deal_records(rows, now)
    return {
        "player": viewer.name,
        "signed_in": viewer.signed_in,
        "games": result["games"],
        "history": result["history"],
        "records": records,
    }
