"""The games people play in the browser: create, move, undo, restart, all checked by the rules.

The server is authoritative. A stored game is only its preset, deal number (or, for a
Daily, a secret deck order: :class:`~winnable.decks.Deck`) and moves;
the position is rebuilt by replaying the moves with the game's Python rules (the
latest positions are kept in memory, so a move costs one ``play``). Every change is
validated first and written in one transaction, so a refused request changes nothing
and an accepted one is stored before it is answered.

Everything here is generic over the registry (:func:`winnable.games.game_ids`) and the
:class:`~winnable.game.Position` contract.

>>> from winnable.storage.engine import make_engine
>>> from winnable.storage.migrate import migrate
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> games = GameService(engine)
>>> state = games.create("black-hole", 2, undo="one")
>>> [choice["move"] for choice in state["legal"]]
['2S', '2H', 'KH']
>>> state = games.play(state["id"], "KH")
>>> state["moves"], state["position"]["cards_left"], state["undo_left"]
(['KH'], 50, 1)
>>> try:
...     games.play(state["id"], "7D")
... except ServiceError as refused:
...     print(refused.status, refused)
409 7D is not one rank above or below KH (suits do not matter; K-A-2 wraps)
>>> state = games.undo(state["id"])
>>> state["moves"], state["undo_left"]
([], 0)
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import random
import re
import secrets
import threading
from functools import lru_cache
from typing import Any, Sequence

import sqlalchemy as sa
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from winnable.deals import MAX_DEAL, parse_deal_number
from winnable.decks import Deck
from winnable.errors import IllegalMoveError, UnknownGameError, WinnableError
from winnable.game import Position
from winnable.games import game_class, game_ids, picture, registered
from winnable.storage.engine import as_utc, utcnow, write_lock, writer
from winnable.storage.statements import Query, Statement, transaction
from winnable.storage.tables import GameRow
from winnable.web.cache import ByteLRU, deep_size, position_size
from winnable.web.errors import ApiError, BadRequest, Conflict, Forbidden, NotFound, Unavailable, quote
from winnable.web.i18n import N_
from winnable.web.scores import THINK_CHOICES, speed_score
from winnable.web.views import click_choices, player_view

ServiceError = ApiError  # the name other modules knew
__all__ = ["GameService", "Positions", "ServiceError", "BadRequest", "Conflict", "NotFound", "Unavailable"]

UNDO_MODES = ("unlimited", "one", "none")
"""Play modes for undo: as often as wanted, once a game (beginner), never (purist)."""

RANDOM_DEALS = 10**6
"""A new game without a deal number gets a random one from 1 to this."""

MAX_MOVES = 10_000
"""A guard against runaway clients: no game needs more moves than this."""


def valid_id(game_id: str) -> bool:
    """Game ids are short URL-safe tokens; anything else is refused before the database
    sees it (NUL bytes, surrogates, megabytes of text)."""
    return 0 < len(game_id) <= 32 and _ID.fullmatch(game_id) is not None


_ID = re.compile(r"[A-Za-z0-9_-]+")


def short(message: str, limit: int = 160) -> str:
    """A rules' message, cut short and safe to encode (it may quote what the client sent)."""
    message = message if len(message) <= limit else message[:limit] + "…"
    return message.encode("utf-8", "backslashreplace").decode("utf-8")


def game_not_found(game_id: str) -> NotFound:
    return NotFound(N_("no game with id {id} (it may have been made on another server)", id=quote(game_id)), code="game_not_found")


# -- the games on offer ---------------------------------------------------------------
def hides_cards(cls: type[Position]) -> bool:
    """True for games with face-down cards (the solver knows them, the player does not)."""
    return cls.hidden_cards


def lookup_game(game_id: str) -> type[Position]:
    try:
        return game_class(game_id)
    except UnknownGameError:
        raise NotFound(N_("unknown game {name} (see /api/catalog for the games)", name=quote(game_id)), code="unknown_game") from None


def catalog() -> list[dict[str, Any]]:
    """Every game the web app plays, in the registry's order, for the lobby (titles and
    summaries in English: the catalogue's route translates them)."""
    entries = []
    for game_id in game_ids():
        game = registered(game_id)
        cls = game.cls
        entries.append(
            {
                "id": game_id,
                "title": cls.title,
                "family": game.family,
                "variant_of": game.variant_of,
                "picture": list(picture(game_id)),
                "summary": cls.summary,
                "undo_modes": list(UNDO_MODES),
                "hidden_cards": hides_cards(cls),
                "links": {"play": f"/play/{game_id}", "rules": f"/rules/{game_id}"},
            }
        )
    return entries


def parse_deal(value: Any) -> int:
    """A deal number from JSON (a number or its text), with a short reason if it is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or (isinstance(value, str) and len(value) > 30):
        raise BadRequest(N_("not a deal number: {value}", value=quote(value)), code="bad_deal")
    if isinstance(value, int) and not 1 <= value <= MAX_DEAL:
        raise BadRequest(N_("deal number out of range: {value} (1 to {last})", value=quote(value), last=MAX_DEAL), code="bad_deal")
    try:
        return parse_deal_number(value)
    except WinnableError as error:
        raise BadRequest(str(error), code="bad_deal") from None


# -- positions in memory --------------------------------------------------------------
Source = int | Deck
"""What a game is dealt from: a deal number, or a deck order (a Daily's layout)."""


@lru_cache(maxsize=256)
def deck_of(layout: str) -> Deck:
    """A stored layout back to its :class:`Deck` (the same object for the same text, so
    that cache keys compare at once)."""
    return Deck.parse(layout)


def source_of(row) -> Source:
    """What the stored game ``row`` was dealt from."""
    return deck_of(row.layout) if getattr(row, "layout", None) else int(row.deal)


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

    def after(self, game: str, deal: int, moves: Sequence[str]) -> Position:
        key, before = moves_key(moves)
        position = self.cache.get((game, deal, key))
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

    def _replay(self, game: str, deal: int, moves: Sequence[str], key: bytes) -> Position:
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

    def remember(self, game: str, deal: int, moves: Sequence[str], position: Position) -> None:
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
    legal: list[dict[str, Any]]
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
    alive after the positions' cache let go of it. (Four times the position's size
    before: two to eight times too much, so that the memo held fewer positions than
    200 players have games, and worked most views out twice.)"""
    cls = type(entry.position)
    size = _shown_sizes.get(cls)
    if size is None:
        size = _shown_sizes[cls] = 2 * deep_size((entry.view, entry.legal, entry.safe, entry.finish))
    return size + position_size(entry.position)


def shown(position: Position) -> Shown:
    """The status, the player's view and the described legal moves of ``position``
    (memoised: positions are immutable and a game's position is asked for often)."""
    entry = _shown.get(id(position))
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


def iso(moment: dt.datetime | None) -> str | None:
    moment = as_utc(moment)
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """A stored game and its current position, as the solver features need it."""

    id: str
    game: str
    deal: Source
    """The deal number, or the deck order of a game dealt from one (a Daily)."""
    moves: tuple[str, ...]
    position: Position
    status: str
    daily_day: dt.date | None = None

    @property
    def cls(self) -> type[Position]:
        return type(self.position)


def think_deadline(row) -> dt.datetime | None:
    """When a timed game's current move must be played by (None: untimed)."""
    if not row.think_seconds or row.last_move_at is None:
        return None
    return as_utc(row.last_move_at) + dt.timedelta(seconds=row.think_seconds)


def effective_status(row, status: str, now: dt.datetime) -> str:
    """The game's status on the server's clock: a timed game whose thinking time ran out
    is lost, whether or not a request has written that down yet."""
    if row.timed_out_at is not None:
        return "lost"
    deadline = think_deadline(row)
    if status == "playing" and deadline is not None and now > deadline:
        return "lost"
    return status


def today(now: dt.datetime) -> dt.date:
    return now.astimezone(dt.timezone.utc).date()


# -- the service ----------------------------------------------------------------------
_GAMES = GameRow.__table__
# Every column but the hints' line, which only hints and analyses read (``kept_line``).
_READ_GAME = select(*[column for column in _GAMES.c if column.name != "hint_line"]).where(_GAMES.c.id == sa.bindparam("id"))
_READ_LINE = select(_GAMES.c.hint_line).where(_GAMES.c.id == sa.bindparam("id"))
_KEEP_LINE = _GAMES.update().where(_GAMES.c.id == sa.bindparam("game_id")).values(hint_line=sa.bindparam("hint_line"))
_LOCK_GAME = _READ_GAME.with_for_update()
_INSERT_GAME = _GAMES.insert()
_CHANGED = ("moves", "undo_used", "restarts", "started_at", "status", "updated_at", "finished_at", "move_count",
            "cards_left", "last_move_at", "timed_out_at")
# Built once: building a statement per request cost more than running it.
_UPDATE_GAME = (_GAMES.update().where(_GAMES.c.id == sa.bindparam("game_id"))
                .values({name: sa.bindparam(name) for name in _CHANGED}))
_COUNT_HINT = (_GAMES.update().where(_GAMES.c.id == sa.bindparam("game_id"))
               .values(hints_used=func.coalesce(_GAMES.c.hints_used, 0) + 1))
_COUNT_HINT_KEEP = (_GAMES.update().where(_GAMES.c.id == sa.bindparam("game_id"))
                    .values(hints_used=func.coalesce(_GAMES.c.hints_used, 0) + 1, hint_line=sa.bindparam("hint_line")))


@dataclasses.dataclass
class Stored:
    """One row of ``games``, as a transaction reads and changes it."""

    id: str
    game: str
    deal: str | None
    undo_mode: str
    undo_used: int
    moves: list[str]
    winnable_deal: bool
    restarts: int
    created_at: dt.datetime
    started_at: dt.datetime | None
    updated_at: dt.datetime
    finished_at: dt.datetime | None
    status: str
    user_id: int | None = None
    """The account that plays it (None: a guest's game, or an anonymised Daily attempt)."""
    guest: str | None = None
    """The guest session that started it, until the guest signs in."""
    hints_used: int = 0
    move_count: int = 0
    cards_left: int | None = None
    think_seconds: int | None = None
    last_move_at: dt.datetime | None = None
    timed_out_at: dt.datetime | None = None
    daily_day: dt.date | None = None
    layout: str | None = None
    """A Daily's deck order (then ``deal`` is None)."""
    hint_line: dict | None = None
    """The hints' line (see :class:`~winnable.storage.tables.GameRow`): set when a game is made
    with a known line, else only by :meth:`GameService.keep_line`."""

    @property
    def deal_number(self) -> Source:
        """What the game is dealt from (a deal number, or a Daily's :class:`Deck`)."""
        return source_of(self)

    def columns(self) -> dict[str, Any]:
        """The row's values by column (shallow: ``dataclasses.asdict`` deep-copies every
        list and date, a quarter of a new game's CPU time)."""
        return dict(self.__dict__)


class GameService:
    """Create and play games stored in the database behind ``engine``."""

    def __init__(self, engine: Engine, positions: Positions | None = None) -> None:
        self.engine = engine
        self.write_engine = writer(engine)  # for SQLAlchemy transactions of other services (the Daily)
        self._read_game = Query(engine, _READ_GAME)
        self._lock_game = Statement(engine, _LOCK_GAME)
        self._insert_game = Statement(engine, _INSERT_GAME)
        self._update_game = Statement(engine, _UPDATE_GAME)
        self._read_line = Query(engine, _READ_LINE)
        self.positions = positions or Positions()
        self._locks = [threading.Lock() for _ in range(64)]
        self.clock = utcnow
        """The server's clock (tests move it; nothing a client sends does)."""

    @staticmethod
    def _check_owner(row, game_id: str, viewer) -> None:
        """An account's games are its own: anyone else is told there is no such game.
        A guest's game is reached by its id, as before accounts (``viewer`` None: the
        server itself). A Daily attempt whose account was deleted is nobody's: it stays
        on the leaderboard, and no one plays it on."""
        if viewer is not None and row.user_id is not None and row.user_id != viewer.user_id:
            raise game_not_found(game_id)
        if viewer is not None and row.user_id is None and row.daily_day is not None:
            raise game_not_found(game_id)

    def _lock(self, game_id: str) -> threading.Lock:
        return self._locks[hash(game_id) % len(self._locks)]

    # -- reading ---------------------------------------------------------------------
    def _read(self, game_id: str) -> Stored:
        """The stored game (reads skip SQLAlchemy's ORM and Result: they are most requests)."""
        row = self._read_game.first(id=game_id) if valid_id(game_id) else None
        if row is None:
            raise game_not_found(game_id)
        return Stored(**row)

    def _position(self, row: GameRow) -> Position:
        lookup_game(row.game)
        return self.positions.after(row.game, source_of(row), row.moves)

    def snapshot(self, game_id: str, viewer=None, purpose: str | None = None) -> Snapshot:
        """The game for the solver; ``purpose`` ("hint", "analysis") is refused with 403
        ``daily_no_help`` on a Daily attempt while its day lasts."""
        row = self._read(game_id)
        self._check_owner(row, game_id, viewer)
        if purpose is not None and row.daily_day is not None and row.daily_day >= today(self.clock()):
            raise Forbidden(N_("hints are off in the Daily until its day is over (undo is allowed, and counted)")
                            if purpose == "hint" else
                            N_("the solver is off in the Daily until its day is over (undo is allowed, and counted)"),
                            code="daily_no_help")
        position = self._position(row)
        status = effective_status(row, status_of(position), self.clock())
        return Snapshot(row.id, row.game, source_of(row), tuple(row.moves), position, status, row.daily_day)

    def count_hint(self, game_id: str, keep: dict | None = None) -> None:
        """One more hint used in this game (the game counts as assisted if won); with
        ``keep``, the line the hint came from becomes the game's hints' line, in the same
        transaction."""
        with write_lock(self.engine), self.write_engine.begin() as connection:
            if keep is None:
                connection.execute(_COUNT_HINT, {"game_id": game_id})
            else:
                connection.execute(_COUNT_HINT_KEEP, {"game_id": game_id, "hint_line": keep})

    def kept_line(self, game_id: str) -> dict | None:
        """The game's hints' line as stored (``{"from": text, "moves": [...]}``), or None."""
        row = self._read_line.first(id=game_id) if valid_id(game_id) else None
        line = None if row is None else row["hint_line"]
        return line if isinstance(line, dict) else None

    def keep_line(self, game_id: str, line: dict) -> None:
        """Make ``line`` the game's hints' line (an analysis that found one from the
        current position, off the line kept before)."""
        with write_lock(self.engine), self.write_engine.begin() as connection:
            connection.execute(_KEEP_LINE, {"game_id": game_id, "hint_line": line})

    def state(self, game_id: str, viewer=None) -> dict[str, Any]:
        row = self._read(game_id)
        self._check_owner(row, game_id, viewer)
        return self.render(row, self._position(row))

    def position_at(self, game_id: str, at: int, viewer=None) -> dict[str, Any]:
        """The position after the first ``at`` moves of a game (for replays)."""
        row = self._read(game_id)
        self._check_owner(row, game_id, viewer)
        moves = list(row.moves)
        if not 0 <= at <= len(moves):
            raise NotFound(N_("at must be between 0 and {n} (the moves played)", n=len(moves)), code="bad_position")
        view = shown(self.positions.after(row.game, source_of(row), moves[:at]))
        return {
            "id": game_id,
            "at": at,
            "moves": moves[:at],
            "next_move": moves[at] if at < len(moves) else None,
            "position": view.view,
            "legal": view.legal,
            "status": view.status,
        }

    def count(self) -> int:
        with Session(self.engine) as session:
            return session.scalar(select(func.count()).select_from(GameRow)) or 0

    def render(self, row: GameRow, position: Position) -> dict[str, Any]:
        """The game state the browser draws."""
        cls = type(position)
        view = shown(position)
        now = self.clock()
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
            "moves": moves,
            "move_count": len(moves),
            "position": view.view,
            "legal": view.legal if not timed_out else [],
            "safe": view.safe if not timed_out else [],
            "finish": view.finish if not timed_out else None,
            "status": status,
            "winnable_deal": row.winnable_deal,
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
                "speed": speed_score(status == "won", len(moves), elapsed) if cls.family == "freecell" else None,
            },
            "undo_used": row.undo_used,
            "hints_used": hints,
            "assisted": hints > 0,
            "think_seconds": row.think_seconds,
            "think_deadline": iso(deadline) if status == "playing" else None,
            "think_left": round(max(0.0, (deadline - now).total_seconds()), 3) if status == "playing" and deadline else None,
            "timed_out": timed_out,
            "daily": row.daily_day.isoformat() if row.daily_day is not None else None,
            "hint_allowed": status == "playing" and not daily_open,
            "restart_allowed": row.daily_day is None,
            "links": ({"deal": f"/play/{row.game}?deal={deal}"} if deal is not None else {}) | {
                "resume": f"/play/{row.game}?id={row.id}",
                "rules": f"/rules/{row.game}",
                "self": f"/api/games/{row.id}",
            },
        }

    # -- writing ---------------------------------------------------------------------
    def new_row(self, game: str, deal: Any = None, undo: str = "unlimited", winnable_deal: bool = False,
                owner=None, think_seconds: int | None = None, daily_day: dt.date | None = None,
                layout: Deck | None = None) -> tuple[Stored, Position]:
        """A new game's row (not stored yet) and its position, after every check.

        ``owner`` is the :class:`~winnable.web.accounts.Viewer` who starts it (the game is
        the account's, or the guest session's); ``think_seconds`` makes a timed Black Hole
        game; ``daily_day`` a Daily attempt, whose clock runs from the deal; ``layout``
        deals it from that deck order instead of a deal number (the Daily's)."""
        cls = lookup_game(game)
        if undo not in UNDO_MODES:
            raise BadRequest(N_("unknown undo mode {mode} (modes: {modes})", mode=quote(undo), modes=", ".join(UNDO_MODES)), code="bad_request")
        if think_seconds is not None and (cls.family != "blackhole" or think_seconds not in THINK_CHOICES):
            # 409 for another game: the schema takes the number, the game has no timed play
            error = Conflict if think_seconds in THINK_CHOICES else BadRequest
            raise error(N_("timed play is for Black Hole, with {choices} seconds a move",
                           choices=", ".join(map(str, THINK_CHOICES))), code="bad_think")
        if layout is not None:
            number, position = None, initial(cls.game_id, layout)
        else:
            number = random.randint(1, RANDOM_DEALS) if deal is None else parse_deal(deal)
            try:
                position = initial(cls.game_id, number)
            except WinnableError as error:
                raise BadRequest(f"cannot deal {cls.title} deal {number}: {error}", code="bad_deal") from None
        now = self.clock()
        row = Stored(
            id=secrets.token_urlsafe(9),
            game=cls.game_id,
            deal=None if number is None else str(number),
            undo_mode=undo,
            undo_used=0,
            moves=[],
            winnable_deal=winnable_deal,
            restarts=0,
            created_at=now,
            started_at=now if daily_day is not None else None,
            updated_at=now,
            finished_at=None,
            status=status_of(position),
            user_id=getattr(owner, "user_id", None),
            guest=None if owner is None or owner.user_id is not None else owner.session,
            hints_used=0,
            move_count=0,
            cards_left=position.cards_left(),
            think_seconds=think_seconds,
            last_move_at=now if think_seconds else None,
            timed_out_at=None,
            daily_day=daily_day,
            layout=None if layout is None else str(layout),
        )
        return row, position

    @staticmethod
    def insert(connection: sa.Connection, row: Stored) -> None:
        """Store a new game's row in the caller's transaction."""
        connection.execute(_INSERT_GAME, row.columns())

    def create(self, game: str, deal: Any = None, undo: str = "unlimited", winnable_deal: bool = False,
               owner=None, think_seconds: int | None = None, before=None,
               line: Sequence[str] | None = None) -> dict[str, Any]:
        """Store a new game (after every check of :meth:`new_row`); ``before(cursor)``
        writes what goes with it in its transaction (a new guest's session); ``line``, a
        winning line from the deal already proved (the pool's), becomes its hints' line."""
        row, position = self.new_row(game, deal, undo, winnable_deal, owner, think_seconds)
        if line:
            row.hint_line = {"from": position.to_text(), "moves": list(line)}
        with transaction(self.engine) as cursor:
            if before is not None:
                before(cursor)
            self._insert_game.run(cursor, **row.columns())
        return self.render(row, position)

    def _change(self, game_id: str, change, viewer=None, what: str = "move") -> dict[str, Any]:
        """Run ``change(row, position) -> new position`` in one transaction, one request
        per game at a time; anything it raises leaves the stored game as it was.
        (Statements compiled once and run on the DBAPI cursor, not the ORM: a move's
        transaction costs a fraction of the CPU.)

        Before it, the server's clock has its say: a timed game whose thinking time ran
        out is written down as lost (and the move or undo refused with 409 ``time_out``);
        a Daily attempt of a day that is over takes no more moves."""
        if not valid_id(game_id):
            raise game_not_found(game_id)
        refusal: ApiError | None = None
        with self._lock(game_id):
            with transaction(self.engine) as cursor:
                found = self._lock_game.run(cursor, id=game_id)
                if found is None:
                    raise game_not_found(game_id)
                row = Stored(**found)
                self._check_owner(row, game_id, viewer)
                now = self.clock()
                if row.daily_day is not None:
                    if what == "restart":
                        raise Conflict(N_("the Daily is one attempt: it cannot be restarted (undo is allowed, and counted)"),
                                       code="daily_no_restart")
                    if row.daily_day < today(now):
                        raise Conflict(N_("the Daily of {day} is over: its result is final", day=row.daily_day.isoformat()),
                                       code="daily_over")
                position = self._position(row)
                deadline = think_deadline(row)
                if (what != "restart" and row.timed_out_at is None and deadline is not None and now > deadline
                        and status_of(position) == "playing"):
                    row.timed_out_at = deadline
                    refusal = Conflict(N_("time ran out: a move had to be played within {n} seconds; "
                                          "this game is lost (restart it or deal again)", n=row.think_seconds), code="time_out")
                elif what != "restart" and row.timed_out_at is not None:
                    raise Conflict(N_("time ran out in this game: it is lost; restart it or deal again"), code="time_out")
                else:
                    position = change(row, position)
                    if row.think_seconds:
                        row.last_move_at = now
                status = "lost" if row.timed_out_at is not None else status_of(position)
                row.status = status
                row.updated_at = now
                row.move_count = len(row.moves)
                row.cards_left = position.cards_left()
                if status == "playing":
                    row.finished_at = None
                elif row.finished_at is None:
                    row.finished_at = row.timed_out_at or now
                self._update_game.run(cursor, game_id=game_id, **{name: getattr(row, name) for name in _CHANGED})
            if refusal is not None:
                raise refusal
            return self.render(row, position)

    def play(self, game_id: str, text: str, auto: bool = False, viewer=None) -> dict[str, Any]:
        """Play one move given in the game's notation; with ``auto``, then every safe
        move to the foundations it opens (stored as moves of their own; an undo with
        ``auto`` takes them back together with the move)."""
        if not isinstance(text, str) or not text.strip():
            raise BadRequest(N_("a move is a non-empty string in the game's notation"), code="bad_move")
        if len(text) > 64:
            raise BadRequest(N_("a move's notation is a few characters, not a long text"), code="bad_move")

        def change(row: GameRow, position: Position) -> Position:
            status = status_of(position)
            if status != "playing":
                raise Conflict(N_("the game is over: no more moves; undo, restart or deal again") if status != "won" else N_("the game is won: no more moves; restart or deal again"), code="game_over")
            if len(row.moves) >= MAX_MOVES:
                raise Conflict(N_("this game has reached {n} moves; restart or deal again", n=MAX_MOVES), code="move_limit")
            try:
                move = position.parse_move(text)
                after = position.play(move)
            except IllegalMoveError as error:
                raise Conflict(short(str(error)), code="illegal_move") from None
            except (WinnableError, ValueError, LookupError, TypeError) as error:
                # The rules' parsers raise ParseError; anything else they let through
                # on strange text (any Unicode) is still the text's fault, not a 500.
                # 409: the text is a string the schema takes; this game's notation refuses it
                raise Conflict(f"not a move of {position.title}: {short(str(error))}", code="bad_move") from None
            moves = list(row.moves) + [str(move)]
            while auto and len(moves) < MAX_MOVES and status_of(after) == "playing":
                safe = safe_moves_home(after)
                if not safe:
                    break
                after = after.play(safe[0])
                moves.append(safe[0])
            row.moves = moves
            if row.started_at is None:
                row.started_at = self.clock()
            self.positions.remember(row.game, row.deal_number, moves, after)
            return after

        return self._change(game_id, change, viewer, "move")

    def undo(self, game_id: str, auto: bool = False, viewer=None) -> dict[str, Any]:
        """Take back the last move, if the game's undo mode allows it. With ``auto``
        (safe moves home are played by themselves), the last move the player chose goes
        back together with the safe moves home played after it, as one undo."""

        def change(row: GameRow, position: Position) -> Position:
            if row.undo_mode == "none":
                raise Conflict(N_("this game is played without undo"), code="undo_refused")
            if row.undo_mode == "one" and row.undo_used >= 1:
                raise Conflict(N_("the one undo of this game is used up"), code="undo_refused")
            if not row.moves:
                raise Conflict(N_("nothing to undo: no move has been played"), code="undo_refused")
            if position.is_won():
                raise Conflict(N_("the game is won: there is nothing to undo"), code="undo_refused")
            keep = len(row.moves) - 1
            if auto:
                while keep >= 0 and row.moves[keep] in safe_moves_home(self.positions.after(row.game, row.deal_number, row.moves[:keep])):
                    keep -= 1
                if keep < 0:
                    raise Conflict(N_("nothing to undo: only safe moves home have been played"), code="undo_refused")
            row.moves = list(row.moves)[:keep]
            row.undo_used += 1
            return self.positions.after(row.game, row.deal_number, row.moves)

        return self._change(game_id, change, viewer, "undo")

    def restart(self, game_id: str, viewer=None) -> dict[str, Any]:
        """Start the same deal again (same id, same undo mode, clock reset)."""

        def change(row: GameRow, position: Position) -> Position:
            row.moves = []
            row.undo_used = 0
            row.restarts += 1
            row.started_at = None
            row.timed_out_at = None
            return initial(row.game, row.deal_number)

        return self._change(game_id, change, viewer, "restart")
