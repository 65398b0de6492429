"""Hints and analyses: the solver's answers on a stored game.

Both ask the one gate of the solver's help first (:mod:`winnable.web.play.help`, through
``GameStore.snapshot(..., purpose)``): 403 ``daily_no_help`` in a Daily while its day
lasts, ``challenge_no_help`` in a ranked challenge attempt, ``challenge_open`` on any
game of an open challenge's cards.

Every hint counts against the client's plain ``hint`` rate limit (429 past it, a
generous one). A hint from the game's kept line (see :mod:`winnable.web.play.solving`)
costs nothing more: no search, no solver quota, no share of the solver and no place in
its queue. A hint that must search is admitted to the solver's shares first (429 past
the client's share), then counted against the client's ``solver`` rate limit (429 past
it). An analysis is admitted to the shares (hints go before analyses) before its game is
read, so a refusal costs nothing: a client over its share gets 429.
A search runs through the solver queue within a time budget (the server's default, or
``?seconds=`` up to the server's cap: above it 422 ``budget_too_large``) and counts
against the ``solver`` rate limit; when the crowded queue has no time for it (light
clients go first) the answer is what is known, a 200 whose ``answered`` says how.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Callable, ContextManager, Iterator, TypeVar

from fastapi import APIRouter, Depends, Query, Request

from winnable.web.deps import ClientDep, ServicesDep, ViewerDep, database, rate_limit, services_of
from winnable.web.errors import Unprocessable
from winnable.web.models import schemas
from winnable.web.pages.i18n import N_, locale_of, translate
from winnable.web.play.queue import ANALYSIS, HINT
from winnable.web.play.solving import Analysis, Hint, Solver, analysis, hint
from winnable.web.settings import Settings

if TYPE_CHECKING:
    from winnable.game import Position
    from winnable.web.play.store import Snapshot

router = APIRouter(prefix="/api/games", tags=["solver"])


def solver_quota(request: Request, client: str) -> Callable[[], None]:
    """What a search calls first: the client's ``solver`` rate limit (429 past it)."""
    limits = services_of(request).limits
    return lambda: limits.check("solver", client)


def budget(seconds: float | None, default: float, cap: float, what: str) -> float:
    if seconds is None:
        return default
    if seconds > cap:
        raise Unprocessable(
            N_("seconds must be at most {cap} (the server's cap for {what})", cap=format(cap, "g"), what=what), code="budget_too_large"
        )
    return seconds


Seconds = Query(
    None,
    gt=0,
    allow_inf_nan=False,
    description="Time budget in seconds (default: the server's; at most the `maximum` here, the server's cap).",
)


def declare_caps(openapi: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """``openapi`` with the server's caps on ``seconds`` as the parameters' ``maximum``
    (they are settings, so the routes cannot say them when they are declared)."""
    for name, cap in (("hint", settings.hint_max_seconds), ("analysis", settings.analysis_max_seconds)):
        operation = openapi["paths"][f"{router.prefix}/{{game_id}}/{name}"]["get"]
        for parameter in operation.get("parameters", ()):
            if parameter["name"] == "seconds":
                for branch in parameter["schema"].get("anyOf", [parameter["schema"]]):
                    if branch.get("type") == "number":
                        branch["maximum"] = cap
    return openapi


@router.get("/{game_id}/hint", response_model=schemas.Hint, dependencies=[Depends(rate_limit("hint"))])
async def get_hint(
    game_id: str, app: ServicesDep, client: ClientDep, viewer: ViewerDep, request: Request, seconds: float | None = Seconds
) -> Hint:
    """The next move of a winning line from here, or the verdict (lost / unknown). A
    player who follows the hints follows one line, kept with the game: it wins, and its
    ``line_length`` (moves to win) never grows. Every hint is counted: a game won with
    hints is assisted. Off in the Daily (403 ``daily_no_help``), a ranked challenge
    attempt (``challenge_no_help``) and any game of an open challenge's cards
    (``challenge_open``). When no line is found within the budget, a longer search of
    the position may go on in the background (``searching``: ask again in a moment; that
    hint is not counted)."""
    games, settings = app.games, app.settings
    seconds = budget(seconds, settings.hint_seconds, settings.hint_max_seconds, N_("a hint"))

    def load() -> tuple[Snapshot, Position | None, dict[str, Any] | None]:
        game = games.store.snapshot(game_id, viewer, "hint")
        parent = games.positions.after(game.game, game.deal, game.moves[:-1]) if game.moves else None
        return game, parent, games.store.kept_line(game_id)

    game, parent, line = await database(settings, load)

    def prefix(k: int) -> Position:
        return games.positions.after(game.game, game.deal, game.moves[:k])

    with hint_search(request, app.solver, client, viewer.signed_in) as searching:
        answer = await hint(app.solver, game, seconds, parent, client, line, prefix, searching)
    if game.status == "playing" and not answer.body["searching"]:  # "ask again in a moment" told the player nothing yet
        await database(settings, games.store.count_hint, game_id, answer.keep)
    return in_language(answer.body, request)


@router.get("/{game_id}/analysis", response_model=schemas.Analysis)
async def get_analysis(
    game_id: str, app: ServicesDep, client: ClientDep, viewer: ViewerDep, request: Request, seconds: float | None = Seconds
) -> Analysis:
    """Still winnable? After a loss: the move that lost it and a better one. Off where
    hints are (403 ``daily_no_help``, ``challenge_no_help``, ``challenge_open``)."""
    games, settings = app.games, app.settings
    seconds = budget(seconds, settings.analysis_seconds, settings.analysis_max_seconds, N_("an analysis"))
    with admitted(app.solver, client, ANALYSIS, viewer.signed_in):
        game = await database(settings, games.store.snapshot, game_id, viewer, "analysis")

        def prefix(k: int) -> Position:
            return games.positions.after(game.game, game.deal, game.moves[:k])

        line = await database(settings, games.store.kept_line, game_id)
        answer = await analysis(app.solver, game, prefix, seconds, client, line, solver_quota(request, client))
    if answer.keep is not None and game.status == "playing":
        await database(settings, games.store.keep_line, game_id, answer.keep)
    return in_language(answer.body, request)


def admitted(solver: Solver, client: str, kind: str, signed_in: bool) -> ContextManager[None]:
    """The request's place in the solver queue's shares (see
    :meth:`winnable.web.play.queue.SolverQueue.admit`), taken before any work."""
    if solver.queue is None:
        return contextlib.nullcontext()
    return solver.queue.admit(client, kind, anonymous=not signed_in)


@contextlib.contextmanager
def hint_search(request: Request, solver: Solver, client: str, signed_in: bool) -> Iterator[Callable[[], None]]:
    """What a hint's (or a shown line's) search takes, only when it does search: a share
    of the solver (held until the block ends), then the ``solver`` quota. The block gets
    the callback to run before searching; an answer from the kept line runs none."""
    with contextlib.ExitStack() as held:
        quota = solver_quota(request, client)

        def searching() -> None:
            held.enter_context(admitted(solver, client, HINT, signed_in))
            quota()

        yield searching


Worded = TypeVar("Worded", Hint, Analysis)


def in_language(answer: Worded, request: Request) -> Worded:
    """The answer with its ``message`` (and a hint's ``why``) in the request's language
    (moves stay in notation)."""
    locale = locale_of(request)
    if "message" in answer:
        answer["message"] = translate(answer["message"], locale)
    said = answer.get("why")
    if isinstance(said, str):
        answer["why"] = translate(said, locale)  # type: ignore[typeddict-unknown-key]  # a WinningHint's
    return answer
