"""The solver as a teacher: the whole winning line from a position ("show me"), frame by
frame as the page draws it, each move said with what it does (:mod:`~winnable.web.play.why`).

The line is the game's kept hints' line when the position is on it (no search, as a
hint from it), else a search within the hint's budget through the solver queue (as a
hint off the line, and kept as the game's hints' line when it starts from the game's
own position). Either way the rules replay it before it is answered, and each frame's
``position`` is the game state's (:func:`winnable.web.views.player_view`), each move
described as the state's ``legal`` items are (:func:`winnable.web.views.describe_move`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence, TypedDict

import anyio.to_thread

from winnable.errors import WinnableError
from winnable.game import Position
from winnable.guide import Line, home_first
from winnable.solver import Status
from winnable.web.errors import Conflict
from winnable.web.pages.i18n import N_, Message
from winnable.web.play.solving import MARGIN, Known, Solver, kept_line, new_line, rest_on_line, stored_line
from winnable.web.play.store import Snapshot, StoredLine
from winnable.web.play.why import why
from winnable.web.views import describe_move, player_view
from winnable.web.views.moves import MoveDescription


class Frame(TypedDict):
    """One position of a shown line (the API's ``SolutionFrame``)."""

    position: dict[str, Any]
    status: str
    move: str | None
    describe: MoveDescription | None
    cards_left: int
    why: str | None
    why_code: str | None


Solution = TypedDict(
    "Solution",
    {"game_id": str, "from": int, "line": list[str], "frames": list[Frame], "source": str, "assisted": bool},
)
"""A winning line shown from a position (the API's ``Solution``)."""


@dataclass(frozen=True)
class Shown:
    """A solution, and the line to keep as the game's hints' line if it changed."""

    body: Solution
    keep: StoredLine | None = None


def frames(start: Position, line: Sequence[str]) -> list[Frame]:
    """The positions of ``line`` from ``start`` as the page draws them, replayed by the
    rules (a move that is not legal raises); the last one must be won."""
    position = start
    out: list[Frame] = [
        {
            "position": player_view(start),
            "status": "won" if start.is_won() else "playing",
            "move": None,
            "describe": None,
            "cards_left": start.cards_left(),
            "why": None,
            "why_code": None,
        }
    ]
    for text in line:
        move = position.parse_move(text)
        said = why(position, text)
        described = describe_move(position, move)
        position = position.play(move)
        out.append(
            {
                "position": player_view(position),
                "status": "won" if position.is_won() else "playing",
                "move": text,
                "describe": described,
                "cards_left": position.cards_left(),
                "why": None if said is None else said[0],
                "why_code": None if said is None else said[1],
            }
        )
    if not position.is_won():
        raise WinnableError(f"the line does not win ({position.cards_left()} cards left)")
    return out


def not_winnable(known: Known, seconds: float, longer: float = 0.0) -> Conflict:
    """409 ``not_winnable``, with why no line is shown (``longer``: the seconds of a
    longer search, see :mod:`winnable.web.play.longer`)."""
    if known.status is Status.LOST:
        reason: Message = N_("no winning line from this position: it is lost")
    elif known.busy or known.shortened:
        reason = N_("the solver is busy with other players' hints; try again in a moment")
    elif known.failure:
        reason = N_("the solver could not work on this position (a bug on our side)")
    elif known.longer == "searching":
        reason = N_(
            "no winning line found from this position within {seconds} s; a longer search goes on in the background: ask again in a moment",
            seconds=format(seconds, "g"),
        )
    elif known.longer == "searched":
        reason = N_(
            "no winning line found from this position, even by a longer search of {seconds} s; one may still exist",
            seconds=format(longer, "g"),
        )
    else:
        reason = N_("no winning line found from this position within {seconds} s; one may still exist", seconds=format(seconds, "g"))
    return Conflict(reason, code="not_winnable")


async def solution(
    solver: Solver,
    game: Snapshot,
    at: int,
    prefixes: Callable[[int], Position],
    seconds: float,
    client: str = "",
    line: dict[str, Any] | None = None,
    on_search: Callable[[], None] | None = None,
) -> Shown:
    """The winning line from the game's position after ``at`` moves: the rest of the
    kept line ``line`` (as stored) when that position is on it, else the solver's
    (``on_search`` called before a search); 409 ``not_winnable`` when there is none
    within ``seconds``. Only a line from the game's current position is kept."""
    started = time.monotonic()
    current = at == len(game.moves)
    position = game.position if current else await anyio.to_thread.run_sync(prefixes, at)
    parent = await anyio.to_thread.run_sync(prefixes, at - 1) if at else None

    def on_line() -> tuple[Line | None, tuple[str, ...] | None]:
        kept = kept_line(game.cls, line)
        if kept is None:
            return None, None
        return kept, rest_on_line(kept, game, prefixes) if current else kept.rest(position)

    kept, rest = await anyio.to_thread.run_sync(on_line) if line else (None, None)
    keep: StoredLine | None = None
    if rest is not None:
        moves, source = rest, "kept"
        if current and kept is not None and kept.at(position) is None:  # picked up past moves home: keep it from here
            keep = stored_line(await anyio.to_thread.run_sync(Line.of, position, rest))
    elif position.is_won():
        moves, source = (), "kept"
    else:
        last_move = game.moves[at - 1] if at else None
        known = await solver.verdict(position, started + seconds * MARGIN, client, parent, last_move, on_search)
        if known.status is not Status.WON:
            raise not_winnable(known, seconds, solver.longer_seconds)
        if current:
            found = await anyio.to_thread.run_sync(new_line, position, parent, known.line, kept)
            keep = stored_line(found)
        else:
            found = await anyio.to_thread.run_sync(lambda: home_first(Line.of(position, known.line)))
        moves, source = found.moves, "searched"
    shown = await anyio.to_thread.run_sync(frames, position, moves)
    return Shown(
        {"game_id": game.id, "from": at, "line": list(moves), "frames": shown, "source": source, "assisted": True},
        keep,
    )
