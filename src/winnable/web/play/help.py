"""The one gate of the solver's help (hints, analyses, any line shown): whether a game
may have it now, and why not.

No game gets help while it could carry a ranked result:

* a Daily attempt while its day lasts (403 ``daily_no_help``);
* a ranked challenge attempt while it is played (403 ``challenge_no_help``);
* **any game of an open challenge's cards** (403 ``challenge_open``): its creator's
  game, a guest's copy, an unranked copy, a game dealt by the deal's number, a copy of a
  copy. The cards are compared, not the ways they were dealt: a game's deck order (its
  stored layout, or its deal number's order) against those of the open challenges of
  its family. Once the challenge closes (``challenges.closes_at``), its copies are
  ordinary games.

The solver routes ask :func:`refusal` (through
:meth:`winnable.web.play.store.GameStore.snapshot`) before any work; the game state's
``hint_allowed`` asks :meth:`HelpGate.allowed`, which may lag a new challenge by
:data:`RECENT_SECONDS` in another process (it only greys the button).
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from functools import lru_cache
from typing import Any, Callable

from sqlalchemy import select
from sqlalchemy.engine import Engine

from winnable.decks import Deck
from winnable.storage.engine import as_utc
from winnable.storage.tables import Challenge
from winnable.web.errors import Forbidden
from winnable.web.pages.i18n import N_
from winnable.web.play.lookup import lookup_game

RECENT_SECONDS = 5.0
"""How long a process keeps the open challenges' deck orders for ``hint_allowed``."""


def deck_text(row: Any) -> str:
    """A games row's cards in dealing order (the stored layout, or its number's order)."""
    if getattr(row, "layout", None):
        return str(row.layout)
    return numbered_deck(row.game, int(row.deal))


@lru_cache(maxsize=1024)
def numbered_deck(game: str, number: int) -> str:
    """The deck order of ``game``'s deal ``number`` (shuffled once, then remembered)."""
    return str(Deck.of_deal(number, lookup_game(game).decks))


def refusal(row: Any, status: str, purpose: str, now: dt.datetime, open_challenge: bool) -> Forbidden | None:
    """Why the game ``row`` (status ``status`` on the server's clock ``now``) gets no
    help for ``purpose`` ("hint" or "analysis"), or None. ``open_challenge``: a
    challenge of its cards is open."""
    hint = purpose == "hint"
    if row.daily_day is not None and row.daily_day >= now.astimezone(dt.timezone.utc).date():
        return Forbidden(
            N_("hints are off in the Daily until its day is over (undo is allowed, and counted)")
            if hint
            else N_("the solver is off in the Daily until its day is over (undo is allowed, and counted)"),
            code="daily_no_help",
        )
    if row.challenge is not None and status == "playing":
        return Forbidden(
            N_("hints are off in a ranked challenge attempt until it is over")
            if hint
            else N_("the solver is off in a ranked challenge attempt until it is over"),
            code="challenge_no_help",
        )
    if open_challenge:
        return Forbidden(
            N_("these cards are an open challenge: no hints nor analyses on them, for anyone, until it closes"), code="challenge_open"
        )
    return None


class HelpGate:
    """Which deck orders are open challenges', asked of the database."""

    def __init__(self, engine: Engine, clock: Callable[[], dt.datetime]) -> None:
        self.engine = engine
        self.clock = clock
        self._closes: dict[str, dt.datetime] = {}
        self._recent: tuple[float, dt.datetime, frozenset[tuple[str, str]]] | None = None
        self._lock = threading.Lock()

    def open_challenge(self, row: Any) -> bool:
        """Whether a challenge of the game's cards (in its family) is open now, asked afresh."""
        family = lookup_game(row.game).family
        with self.engine.connect() as connection:
            games = (
                connection.execute(select(Challenge.game).where(Challenge.layout == deck_text(row), Challenge.closes_at > self.clock()))
                .scalars()
                .all()
            )
        return any(lookup_game(game).family == family for game in games)

    def closed(self, token: str, now: dt.datetime) -> bool:
        """Whether the challenge ``token`` has closed (its deadline is kept: it never changes)."""
        closes = self._closes.get(token)
        if closes is None:
            with self.engine.connect() as connection:
                found = connection.execute(select(Challenge.closes_at).where(Challenge.id == token)).scalar()
            if found is None:
                return False
            closes = as_utc(found)
            if len(self._closes) >= 4096:
                self._closes.clear()
            self._closes[token] = closes
        return now >= closes

    def check(self, row: Any, status: str, purpose: str) -> None:
        """Raise the gate's refusal (403) of help for ``purpose`` on the game ``row``."""
        now = self.clock()
        refused = refusal(row, status, purpose, now, False)
        if refused is None and self.open_challenge(row):
            refused = refusal(row, status, purpose, now, True)
        if refused is not None:
            raise refused

    def allowed(self, row: Any, status: str) -> bool:
        """The game state's ``hint_allowed``: the gate's answer, from the open
        challenges' deck orders kept a few seconds (a move must not cost a query more)."""
        if status != "playing" or refusal(row, status, "hint", self.clock(), False) is not None:
            return False
        opened = self.recent()
        return not opened or (lookup_game(row.game).family, deck_text(row)) not in opened

    def recent(self) -> frozenset[tuple[str, str]]:
        """The open challenges' (family, deck order), asked at most every
        :data:`RECENT_SECONDS` (and after :meth:`forget`)."""
        now = self.clock()
        with self._lock:
            kept = self._recent
            if (
                kept is not None
                and time.monotonic() - kept[0] < RECENT_SECONDS
                and dt.timedelta(0) <= now - kept[1] < dt.timedelta(seconds=RECENT_SECONDS)
            ):
                return kept[2]
        with self.engine.connect() as connection:
            rows = connection.execute(select(Challenge.game, Challenge.layout).where(Challenge.closes_at > now)).all()
        found = frozenset((lookup_game(game).family, layout) for game, layout in rows)
        with self._lock:
            self._recent = (time.monotonic(), now, found)
        return found

    def forget(self) -> None:
        """A challenge was made or closed here: ask the database again at the next state."""
        with self._lock:
            self._recent = None
