"""Positions in memory: a stored game's position rebuilt by replaying its moves with the
rules (the latest positions kept, and checkpoints of long games), and what the browser
gets of a position (:func:`shown`), worked out once per position.
"""

from __future__ import annotations

import dataclasses
import hashlib
from functools import lru_cache
from typing import Any, Sequence

from winnable.decks import Deck
from winnable.errors import WinnableError
from winnable.game import Position
from winnable.web.errors import Conflict
from winnable.web.play.cache import ByteLRU, deep_size, position_size
from winnable.web.play.lookup import Source, lookup_game
from winnable.web.views import click_choices, player_view
from winnable.web.views.moves import MoveDescription


def moves_key(moves: Sequence[str]) -> tuple[bytes, bytes]:
    """Digests of ``moves`` and of ``moves[:-1]``: a cache key costs 16 bytes however
    long the game (a key holding the move list made a 10,000-move game cost gigabytes).

    >>> moves_key(["KH", "AD"])[1] == moves_key(["KH"])[0] and moves_key([])[0] == moves_key(["KH"])[1]
    True
    """
    text = "\n".join(moves).encode("utf-8", "surrogatepass")
    full = hashlib.blake2b(text, digest_size=16).digest()
    if not moves:
        return full, full
    cut = max(0, len(text) - len(moves[-1].encode("utf-8", "surrogatepass")) - 1)
    return full, hashlib.blake2b(text[:cut], digest_size=16).digest()


CHECKPOINT = 256
"""A long game's positions are kept every this many moves (see :meth:`Positions._replay`)."""


class Positions:
    """Positions by (game, deal, moves), rebuilt by replay when not in memory; the cache
    holds at most ``budget`` bytes."""

    def __init__(self, budget: int = 64 << 20) -> None:
        self.cache = ByteLRU(budget)

    def after(self, game: str, deal: Source, moves: Sequence[str]) -> Position:
        key, before = moves_key(moves)
        position: Position | None = self.cache.get((game, deal, key))
        if position is not None:
            return position
        start, position = 0, None
        if moves:  # undo and a replay of one move more are the common misses
            position = self.cache.get((game, deal, before))
            start = len(moves) - 1
        if position is None:
            return self._replay(game, deal, moves, key)
        try:
            position = position.play_line(moves[start:])
        except WinnableError as error:
            raise Conflict(f"this stored game no longer replays under the current rules: {error}", code="stale_game") from None
        self.cache.put((game, deal, key), position, position_size(position))
        return position

    def _replay(self, game: str, deal: Source, moves: Sequence[str], key: bytes) -> Position:
        """Replay from the latest cached checkpoint (every ``CHECKPOINT`` moves), leaving
        checkpoints behind: reading any point of a long game costs at most that many
        moves of replay once its checkpoints are in memory, not the whole game's."""
        checkpoints = []
        hasher = hashlib.blake2b(digest_size=16)
        for index, move in enumerate(moves):
            if index:
                hasher.update(b"\n")
            hasher.update(move.encode("utf-8", "surrogatepass"))
            if (index + 1) % CHECKPOINT == 0:
                checkpoints.append((index + 1, hasher.digest()))
        start, position = 0, None
        for at, digest in reversed(checkpoints):
            position = self.cache.get((game, deal, digest))
            if position is not None:
                start = at
                break
        if position is None:
            position = initial(game, deal)
        marks = dict(checkpoints)
        try:
            for index in range(start, len(moves)):
                position = position.play(moves[index])
                if index + 1 in marks:
                    self.cache.put((game, deal, marks[index + 1]), position, position_size(position))
        except WinnableError as error:
            raise Conflict(f"this stored game no longer replays under the current rules: {error}", code="stale_game") from None
        self.cache.put((game, deal, key), position, position_size(position))
        return position

    def remember(self, game: str, deal: Source, moves: Sequence[str], position: Position) -> None:
        self.cache.put((game, deal, moves_key(moves)[0]), position, position_size(position))


@lru_cache(maxsize=512)
def initial(game: str, deal: Source) -> Position:
    """The deal's position: a deal number's, or a deck order's (a Daily's layout)."""
    cls = lookup_game(game)
    return cls.from_deck(deal) if isinstance(deal, Deck) else cls.deal(deal)


@lru_cache(maxsize=512)
def cards_in_play(game: str, deal: Source) -> int:
    """Cards a player can bring home in this deal (for the partial score)."""
    return initial(game, deal).cards_total()


def status_of(position: Position) -> str:
    return shown(position).status


@dataclasses.dataclass(frozen=True)
class Shown:
    """What the browser gets for one position, worked out once per position."""

    position: Position
    status: str
    view: dict[str, Any]
    legal: list[MoveDescription]
    safe: list[str] = dataclasses.field(default_factory=list)
    """Moves to the foundations that lose nothing (played for the player who wants it)."""
    finish: list[str] | None = None
    """When the rest is a plain run home: its moves (the page's Finish control)."""


def safe_moves_home(position: Position) -> list[str]:
    """The game's safe moves home, for games that have them (the free-cell family)."""
    method = getattr(position, "safe_moves_home", None)
    return [str(move) for move in method()] if method else []


def finishing_line(position: Position) -> list[str] | None:
    method = getattr(position, "finishing_line", None)
    line = method() if method else None
    return None if not line else [str(move) for move in line]


_shown = ByteLRU(16 << 20)
_shown_sizes: dict[type, int] = {}


def shown_size(entry: Shown) -> int:
    """Bytes a memoised :class:`Shown` costs: its own view and moves (measured once per
    game, doubled, as :func:`position_size` does) and its position, which it may keep
    alive after the positions' cache let go of it."""
    cls = type(entry.position)
    size = _shown_sizes.get(cls)
    if size is None:
        size = _shown_sizes[cls] = 2 * deep_size((entry.view, entry.legal, entry.safe, entry.finish))
    return size + position_size(entry.position)


def shown(position: Position) -> Shown:
    """The status, the player's view and the described legal moves of ``position``
    (memoised: positions are immutable and a game's position is asked for often)."""
    entry: Shown | None = _shown.get(id(position))
    if entry is not None and entry.position is position:
        return entry
    status = "won" if position.is_won() else "lost" if position.is_lost() else "playing"
    playing = status == "playing"
    entry = Shown(
        position,
        status,
        player_view(position),
        click_choices(position) if playing else [],
        safe_moves_home(position) if playing else [],
        finishing_line(position) if playing else None,
    )
    _shown.put(id(position), entry, shown_size(entry))
    return entry
