"""One ranked attempt per player at the same cards: the Daily's and a challenge's.

An attempt is a game row plus a row of an attempts table (``daily_attempts`` keyed by
game and day, ``challenge_attempts`` by challenge) that names the player twice: by
account and by a digest of the name (:func:`name_digest`), both unique. Asking again,
from any tab or server, finds it; a name that played and whose account was deleted and
made again gets no second attempt (409, the service's own code); two tabs that start it
at once store one (the unique keys decide, the loser reads the winner's).
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Mapping, cast

import sqlalchemy as sa
from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError

from winnable.storage.engine import write_lock, writer
from winnable.storage.tables import ChallengeAttempt, DailyAttempt
from winnable.web.errors import Conflict
from winnable.web.play.games import GameService
from winnable.web.security.identity import Viewer

Key = Mapping[str, Any]
"""What is attempted, as the attempts table's columns: ``{"game": ..., "day": ...}``
for a Daily, ``{"challenge_id": ...}`` for a challenge."""


def name_digest(name: str) -> str:
    """What an attempt keeps of its player's name: a digest of the name as accounts fold
    it (lower case: ``Ada`` and ``ada`` are one account), so that the name, not the
    account, has one attempt.

    >>> name_digest("Ada") == name_digest("ada") != name_digest("Bob")
    True
    """
    return hashlib.sha256(name.lower().encode("utf-8")).hexdigest()


class Attempts:
    """The attempts of one table: found by player or name, started once."""

    def __init__(self, games: GameService, model: type[DailyAttempt] | type[ChallengeAttempt], played: Callable[[Key], Conflict]) -> None:
        self.games = games
        self.engine = games.engine
        self.write_engine = writer(self.engine)
        self.model: Any = model  # either table's class: the columns used are in both
        self.table = cast(sa.Table, model.__table__)  # a declarative class maps a Table
        self.played = played
        """The 409 for a name that played under an account since deleted."""

    def find(self, key: Key, user_id: int | None, name: str, connection: sa.Connection | None = None) -> str | None:
        """The player's attempt's game id, if any (``played(key)`` raised when only the
        name has one)."""
        model = self.model
        query = select(model.game_id, model.user_id).where(
            *(getattr(model, column) == value for column, value in key.items()), or_(model.user_id == user_id, model.name_key == name)
        )
        if connection is not None:
            found = connection.execute(query).all()
        else:
            with self.engine.connect() as own:
                found = own.execute(query).all()
        mine = next((row.game_id for row in found if row.user_id == user_id), None)
        if mine is None and found:
            raise self.played(key)
        return cast(str | None, mine)

    def start(self, key: Key, viewer: Viewer, name: str, row: Any) -> str:
        """Store ``row`` (a new game, :meth:`GameService.new_row`) as the player's attempt
        unless one is there already; the attempt's game id (ours, or the other tab's)."""
        try:
            with write_lock(self.engine), self.write_engine.begin() as connection:
                if self.find(key, viewer.user_id, name, connection) is None:
                    self.games.store.insert(connection, row)
                    connection.execute(
                        self.table.insert().values(**key, user_id=viewer.user_id, name_key=name, game_id=row.id, created_at=row.created_at)
                    )
        except IntegrityError:  # the same player's other tab started it first
            pass
        return cast(str, self.find(key, viewer.user_id, name))
