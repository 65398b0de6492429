"""The games people play in the browser: create, move, undo, restart, all checked by the rules.

The service changes games; :mod:`~winnable.web.play.store` reads and writes their rows,
:mod:`~winnable.web.play.positions` rebuilds their positions and
:mod:`~winnable.web.play.state` writes the state the browser draws.

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

import datetime as dt
import random
import secrets
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypedDict

from winnable.decks import Deck
from winnable.errors import IllegalMoveError, WinnableError
from winnable.game import Position
from winnable.games import family_named
from winnable.storage.engine import as_utc
from winnable.storage.statements import transaction
from winnable.web.errors import ApiError, BadRequest, Conflict, NotFound, Unavailable, quote
from winnable.web.pages.i18n import N_
from winnable.web.play import state
from winnable.web.play.lookup import (
    MAX_MOVES,
    RANDOM_DEALS,
    UNDO_MODES,
    game_not_found,
    lookup_game,
    parse_deal,
    short,
    source_of,
    valid_id,
)
from winnable.web.play.positions import Positions, initial, safe_moves_home, shown, status_of
from winnable.web.play.scores import THINK_CHOICES
from winnable.web.play.state import GameState
from winnable.web.play.store import CHANGED, GameStore, Stored, think_deadline, today
from winnable.web.views.moves import MoveDescription

if TYPE_CHECKING:
    from winnable.web.security.identity import Viewer

ServiceError = ApiError  # the name other modules knew
__all__ = ["GameService", "GameStore", "Positions", "ServiceError", "BadRequest", "Conflict", "NotFound", "Unavailable"]


class PositionAt(TypedDict):
    """A position of a game's replay (the API's ``PositionAt``); ``position`` is the
    family's own, as in :class:`~winnable.web.play.state.GameState`."""

    id: str
    at: int
    moves: list[str]
    next_move: str | None
    position: dict[str, Any]
    legal: list[MoveDescription]
    status: str


class GameService:
    """Create and play games stored in the database behind ``engine``: every change checked
    by the rules and the server's clock, written in one transaction, then answered."""

    def __init__(self, engine: Any, positions: Positions | None = None) -> None:
        self.store = GameStore(engine, positions)
        self.engine = engine
        self.positions = self.store.positions
        self.judge_pace = True
        """Whether a Daily's or challenge's result at a pace no person reaches is kept
        out of the rankings (:mod:`winnable.web.play.pace`; the ``judge_pace`` setting)."""

    @property
    def clock(self) -> Callable[[], dt.datetime]:
        """The server's clock (tests move it; nothing a client sends does)."""
        return self.store.clock

    @clock.setter
    def clock(self, clock: Callable[[], dt.datetime]) -> None:
        self.store.clock = clock

    # -- reading ---------------------------------------------------------------------
    def state(self, game_id: str, viewer: Viewer | None = None) -> GameState:
        row = self.store.read(game_id)
        self.store.check_owner(row, game_id, viewer)
        return self.render(row, self.store.position(row))

    def render(self, row: Stored, position: Position) -> GameState:
        """The game state the browser draws (:func:`winnable.web.play.state.render`)."""
        return state.render(row, position, self.clock(), self.store.help.allowed, self.judge_pace)

    def position_at(self, game_id: str, at: int, viewer: Viewer | None = None) -> PositionAt:
        """The position after the first ``at`` moves of a game (for replays)."""
        row = self.store.read(game_id)
        self.store.check_owner(row, game_id, viewer)
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

    # -- writing ---------------------------------------------------------------------
    def new_row(
        self,
        game: str,
        deal: Any = None,
        undo: str = "unlimited",
        winnable_deal: bool = False,
        owner: Viewer | None = None,
        think_seconds: int | None = None,
        daily_day: dt.date | None = None,
        layout: Deck | None = None,
        challenge: str | None = None,
        grade: str | None = None,
    ) -> tuple[Stored, Position]:
        """A new game's row (not stored yet) and its position, after every check.

        ``owner`` is the :class:`~winnable.web.players.accounts.Viewer` who starts it (the game is
        the account's, or the guest session's); ``think_seconds`` makes a timed Black Hole
        game; ``daily_day`` a Daily attempt, whose clock runs from the deal; ``layout``
        deals it from that deck order instead of a deal number (the Daily's); ``challenge``
        a ranked challenge attempt, whose clock runs from the deal too; ``grade`` how hard
        the deal is (the pool's or the Daily's, :mod:`winnable.grading`), shown in its state."""
        cls = lookup_game(game)
        if undo not in UNDO_MODES:
            raise BadRequest(
                N_("unknown undo mode {mode} (modes: {modes})", mode=quote(undo), modes=", ".join(UNDO_MODES)), code="bad_request"
            )
        if think_seconds is not None and (not family_named(cls.family).traits.timed_play or think_seconds not in THINK_CHOICES):
            # 409 for another game: the schema takes the number, the game has no timed play
            error = Conflict if think_seconds in THINK_CHOICES else BadRequest
            raise error(
                N_("timed play is for Black Hole, with {choices} seconds a move", choices=", ".join(map(str, THINK_CHOICES))),
                code="bad_think",
            )
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
            started_at=now if daily_day is not None or challenge is not None else None,
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
            challenge=challenge,
            move_times=[],
            grade=grade,
        )
        return row, position

    def create(
        self,
        game: str,
        deal: Any = None,
        undo: str = "unlimited",
        winnable_deal: bool = False,
        owner: Viewer | None = None,
        think_seconds: int | None = None,
        before: Callable[[Any], object] | None = None,
        line: Sequence[str] | None = None,
        grade: str | None = None,
    ) -> GameState:
        """Store a new game (after every check of :meth:`new_row`); ``before(cursor)``
        writes what goes with it in its transaction (a new guest's session); ``line``, a
        winning line from the deal already proved (the pool's), becomes its hints' line;
        ``grade`` the deal's grade, if known."""
        row, position = self.new_row(game, deal, undo, winnable_deal, owner, think_seconds, grade=grade)
        if line:
            row.hint_line = {"from": position.to_text(), "moves": list(line)}
        with transaction(self.engine) as cursor:
            if before is not None:
                before(cursor)
            self.store.insert_game.run(cursor, **row.columns())
        return self.render(row, position)

    def _change(
        self, game_id: str, change: Callable[[Stored, Position], Position], viewer: Viewer | None = None, what: str = "move"
    ) -> GameState:
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
        with self.store.lock(game_id):
            with transaction(self.engine) as cursor:
                found = self.store.lock_game.run(cursor, id=game_id)
                if found is None:
                    raise game_not_found(game_id)
                row = Stored(**found)
                self.store.check_owner(row, game_id, viewer)
                now = self.clock()
                if row.daily_day is not None:
                    if what == "restart":
                        raise Conflict(
                            N_("the Daily is one attempt: it cannot be restarted (undo is allowed, and counted)"), code="daily_no_restart"
                        )
                    if row.daily_day < today(now):
                        raise Conflict(
                            N_("the Daily of {day} is over: its result is final", day=row.daily_day.isoformat()), code="daily_over"
                        )
                if row.challenge is not None and what == "restart":
                    raise Conflict(
                        N_("a ranked challenge attempt cannot be restarted: it is one attempt (play the challenge again unranked)"),
                        code="challenge_no_restart",
                    )
                if row.challenge is not None and self.store.help.closed(row.challenge, now):
                    raise Conflict(N_("the challenge has closed: its results are final"), code="challenge_closed")
                position = self.store.position(row)
                deadline = think_deadline(row)
                if (
                    what != "restart"
                    and row.timed_out_at is None
                    and deadline is not None
                    and now > deadline
                    and status_of(position) == "playing"
                ):
                    row.timed_out_at = deadline
                    refusal = Conflict(
                        N_(
                            "time ran out: a move had to be played within {n} seconds; this game is lost (restart it or deal again)",
                            n=row.think_seconds,
                        ),
                        code="time_out",
                    )
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
                self.store.update_game.run(cursor, game_id=game_id, **{name: getattr(row, name) for name in CHANGED})
            if refusal is not None:
                raise refusal
            return self.render(row, position)

    def play(self, game_id: str, text: str, auto: bool = False, viewer: Viewer | None = None) -> GameState:
        """Play one move given in the game's notation; with ``auto``, then every safe
        move to the foundations it opens (stored as moves of their own; an undo with
        ``auto`` takes them back together with the move)."""
        if not isinstance(text, str) or not text.strip():
            raise BadRequest(N_("a move is a non-empty string in the game's notation"), code="bad_move")
        if len(text) > 64:
            raise BadRequest(N_("a move's notation is a few characters, not a long text"), code="bad_move")

        def change(row: Stored, position: Position) -> Position:
            status = status_of(position)
            if status != "playing":
                raise Conflict(
                    N_("the game is over: no more moves; undo, restart or deal again")
                    if status != "won"
                    else N_("the game is won: no more moves; restart or deal again"),
                    code="game_over",
                )
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
            now = self.clock()
            if row.started_at is None:
                row.started_at = now
            row.move_times = timed(row, len(moves), now)
            row.moves = moves
            row.redo = None  # another move: what was undone cannot be redone
            self.positions.remember(row.game, row.deal_number, moves, after)
            return after

        return self._change(game_id, change, viewer, "move")

    def undo(self, game_id: str, auto: bool = False, viewer: Viewer | None = None) -> GameState:
        """Take back the last move, if the game's undo mode allows it. With ``auto``
        (safe moves home are played by themselves), the last move the player chose goes
        back together with the safe moves home played after it, as one undo."""

        def change(row: Stored, position: Position) -> Position:
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
            row.redo = [*(row.redo or ()), list(row.moves)[keep:]]  # exactly what this undo takes back
            row.moves = list(row.moves)[:keep]
            if row.move_times is not None:
                row.move_times = list(row.move_times)[:keep]
            row.undo_used += 1
            return self.positions.after(row.game, row.deal_number, row.moves)

        return self._change(game_id, change, viewer, "undo")

    def restart(self, game_id: str, viewer: Viewer | None = None) -> GameState:
        """Start the same deal again (same id, same undo mode, clock reset)."""

        def change(row: Stored, position: Position) -> Position:
            row.moves = []
            row.undo_used = 0
            row.restarts += 1
            row.started_at = None
            row.timed_out_at = None
            row.move_times = []
            row.redo = None
            return initial(row.game, row.deal_number)

        return self._change(game_id, change, viewer, "restart")

    def redo(self, game_id: str, viewer: Viewer | None = None) -> GameState:
        """Play again what the last undo took back (a move and the safe moves home that
        came with it), checked by the rules; 409 ``nothing_to_redo`` when nothing was
        undone since the last other move. The undo stays counted."""

        def change(row: Stored, position: Position) -> Position:
            if not row.redo:
                raise Conflict(N_("nothing to redo: no move has been undone since the last move"), code="nothing_to_redo")
            *rest, group = row.redo
            after = self._played(row, position, group)
            row.redo = rest or None
            return after

        return self._change(game_id, change, viewer, "redo")

    def take_over(self, game_id: str, start: int, moves: Sequence[str], viewer: Viewer | None = None) -> GameState:
        """Play ``moves`` (the start of a winning line the solver showed from the game's
        position after ``start`` moves) as the player's own, all or none: 409 ``stale``
        when the game has moved on from ``start``, 409 ``illegal_move`` (nothing written)
        when one of them is not legal. Off where hints are (the gate of the solver's help:
        403). What could be redone is cleared."""
        self.store.snapshot(game_id, viewer, "hint")  # the gate: 403 where the line may not be shown

        def change(row: Stored, position: Position) -> Position:
            if start != len(row.moves):
                raise Conflict(
                    N_("the game has moved on since the line was shown (move {n} now, not {k}); ask again", n=len(row.moves), k=start),
                    code="stale",
                )
            after = self._played(row, position, moves)
            row.redo = None
            return after

        return self._change(game_id, change, viewer, "move")

    def _played(self, row: Stored, position: Position, moves: Sequence[str]) -> Position:
        """``row`` with ``moves`` played from ``position`` (its current one) by the rules,
        and the position after them; raises 409 (and the caller's transaction writes
        nothing) on the first move that is not legal, or when the game is over."""
        if status_of(position) != "playing":
            raise Conflict(N_("the game is over: no more moves; undo, restart or deal again"), code="game_over")
        if len(row.moves) + len(moves) > MAX_MOVES:
            raise Conflict(N_("this game has reached {n} moves; restart or deal again", n=MAX_MOVES), code="move_limit")
        after = position
        played = list(row.moves)
        for text in moves:
            try:
                move = after.parse_move(text)
                after = after.play(move)
            except IllegalMoveError as error:
                raise Conflict(short(str(error)), code="illegal_move") from None
            except (WinnableError, ValueError, LookupError, TypeError) as error:
                raise Conflict(f"not a move of {position.title}: {short(str(error))}", code="bad_move") from None
            played.append(str(move))
        now = self.clock()
        if row.started_at is None and played:
            row.started_at = now
        row.move_times = timed(row, len(played), now)
        row.moves = played
        self.positions.remember(row.game, row.deal_number, played, after)
        return after


def timed(row: Stored, moves: int, now: dt.datetime) -> list[int] | None:
    """The game's move times with the moves played now added (milliseconds from the
    clock's start, one time for the move and the safe moves home sent with it); None for
    a game whose earlier moves have no times (stored before the server kept them)."""
    if row.move_times is None or len(row.move_times) != len(row.moves):
        return None
    started = as_utc(row.started_at) or now
    at = max(0, round((now - started).total_seconds() * 1000))
    return list(row.move_times) + [at] * (moves - len(row.moves))
