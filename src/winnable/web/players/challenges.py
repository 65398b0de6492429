"""Challenges: a deal sent to friends, with its settings, and its own leaderboard.

* **Made from a game.** A signed-in player makes a challenge from one of their own games,
  started or finished (:meth:`ChallengeService.create`): the same cards (the deal's deck
  order), the same undo rule and thinking time, the same game (the variant is the game
  id). Asking again from the same game gives the same challenge. A Daily attempt
  becomes a challenge only once its day is over (409 ``challenge_daily``): a challenge
  never shows a Daily's cards while the day lasts. A game that is not the player's is
  "no such game" (404), so no challenge reads someone else's game.
* **A random link.** Its id is a random token (:data:`TOKEN_BYTES` bytes from the
  operating system, not a counter), the page ``/challenge/{id}``.
* **What a challenge shows**: the game, the settings, who made it, the ranked attempts;
  never the cards, the moves of an attempt or an attempt's game id (but the viewer's
  own). The deal number, when the challenge came from a numbered deal, is shown to its
  creator only: the attempts are dealt from the deck order, so the number cannot be
  opened as an ordinary game to get hints.
* **One ranked attempt.** A signed-in player's first attempt is ranked (:meth:`attempt`):
  its clock runs from the deal, hints and analyses are refused while it is played (403
  ``challenge_no_help``), restarts always (409 ``challenge_no_restart``). Asking again
  resumes it while it is played; once it is over, a ranked attempt is refused (409
  ``challenge_played``) and the player may play the deal again unranked. The attempt
  is kept per account and per digest of the lower-cased name (as the Daily's), so a name
  whose account was deleted and made again gets no second ranked attempt. A guest plays
  unranked (and is asked to sign in to be ranked); the creator too, having seen the cards;
  and so does an account that has a game of these cards already (a guest's game moves to
  the account that signs in: seen first as a guest, the cards rank no more). While the
  ranked attempt is played, no unranked copy is dealt beside it (409
  ``challenge_in_play``): it would be the attempt's hints.
* **Open for a week** (:data:`LIFETIME`, stored as ``closes_at``, shown to its creator
  and on its page). While it is open no game of its cards gets the solver's help, for
  anyone (403 ``challenge_open``: the creator's game, guests' and unranked copies, the
  deal dealt by its number; :mod:`winnable.web.play.help`), and a ranked attempt still
  in play does not become a challenge (409 ``challenge_ranked``). Once it closes, the
  ranked attempts are final (a move in one is 409 ``challenge_closed``), everyone is
  dealt an ordinary copy, and its copies get hints like any game.
* **Results** come from the stored moves and the server's clock, ranked as the Daily's
  (:func:`winnable.web.players.ranking.ranked_entries`): wins by time then moves
  (Penguin: by speed score), then the rest by cards left (partial score), then moves.
  No endpoint takes a result from a client. A result at a pace no person reaches
  (:mod:`winnable.web.play.pace`) is kept and shown to its player, never ranked.
* **Limits**: making one counts against the ``create`` rate limit of the client's
  address, and an account makes at most :data:`PER_DAY` challenges in 24 hours
  (429 ``challenge_limit``).

>>> from winnable.storage.engine import make_engine
>>> from winnable.storage.migrate import migrate
>>> from winnable.web.security.identity import Viewer
>>> from winnable.web.play.games import GameService
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> games = GameService(engine)
>>> challenges = ChallengeService(games)
>>> with engine.begin() as connection:
...     _ = connection.execute(User.__table__.insert().values(id=1, name="Ada", name_key="ada", password_hash="x"))
...     _ = connection.execute(User.__table__.insert().values(id=2, name="Bob", name_key="bob", password_hash="x"))
>>> ada, bob = Viewer("s1", 1, "Ada"), Viewer("s2", 2, "Bob")
>>> mine = games.create("black-hole", 7, undo="one", owner=ada)
>>> made = challenges.create(ada, mine["id"])
>>> made["creator"], made["undo"], made["deal"], len(made["id"]) >= 16
('Ada', 'one', 7, True)
>>> state = challenges.attempt(bob, made["id"])
>>> same_cards = state["position"]["piles"] == mine["position"]["piles"]
>>> state["challenge"] == made["id"], state["deal"], state["undo"], same_cards
(True, None, 'one', True)
>>> challenges.view(made["id"], bob)["entries"][0]["player"], challenges.view(made["id"], bob)["deal"]
('Bob', None)
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any, Callable, TypedDict, cast

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from winnable.decks import Deck
from winnable.storage.engine import as_utc, write_lock, writer
from winnable.storage.statements import transaction
from winnable.storage.tables import Challenge, ChallengeAttempt, GameRow, User
from winnable.web.errors import Conflict, NotFound, TooManyRequests, Unauthorized, quote
from winnable.web.pages.i18n import N_
from winnable.web.play.games import GameService
from winnable.web.play.lookup import deck_of, game_not_found, lookup_game, source_of, valid_id
from winnable.web.play.pace import NotRanked
from winnable.web.play.state import GameState
from winnable.web.play.store import iso, today
from winnable.web.players.attempts import Attempts, Key, name_digest
from winnable.web.players.ranking import RESULT_COLUMNS, LeaderboardEntry, public, ranked_entries, shown
from winnable.web.security.identity import Viewer


class ChallengeAttemptSummary(TypedDict):
    """The viewer's ranked attempt (the API's ``ChallengeAttemptSummary``)."""

    id: str
    status: str
    rank: int | None
    not_ranked: NotRanked | None


class ChallengeView(TypedDict):
    """A challenge as :meth:`Challenges.view` shows it (the API's ``ChallengeView``)."""

    id: str
    game: str
    title: str
    family: str
    undo: str
    think_seconds: int | None
    created_at: str | None
    closes_at: str | None
    open: bool
    creator: str | None
    yours: bool
    deal: int | None
    signed_in: bool
    players: int
    your_rank: int | None
    your_attempt: ChallengeAttemptSummary | None
    entries: list[LeaderboardEntry]
    links: dict[str, str]


class ChallengeListed(TypedDict):
    """One of the viewer's challenges (the API's ``ChallengeListed``)."""

    id: str
    game: str
    title: str
    undo: str
    created_at: str | None
    closes_at: str | None
    players: int
    links: dict[str, str]


class ChallengeList(TypedDict):
    """The viewer's challenges (the API's ``ChallengeList``)."""

    challenges: list[ChallengeListed]


TOKEN_BYTES = 12
"""A challenge's id: 12 random bytes (96 bits), 16 URL-safe characters."""
PER_DAY = 50
"""Challenges an account may make in 24 hours."""
SHOWN = 200
"""Entries of a challenge's leaderboard shown at most (the ranks count every attempt)."""
LIFETIME = dt.timedelta(days=7)
"""How long a challenge is open: a week for friends to find the link and play, and no
longer than that without the solver's help on its cards (see :mod:`winnable.web.play.help`)."""


def challenge_not_found(token: str) -> NotFound:
    return NotFound(N_("no challenge at this link {id} (check the address)", id=quote(token, 40)), code="challenge_not_found")


def challenge_played(_key: Key) -> Conflict:
    return Conflict(N_("this name has played this challenge already: one ranked attempt per name"), code="challenge_played")


class ChallengeService:
    """The challenges, stored beside the games they deal."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.engine = games.engine
        self.write_engine = writer(self.engine)
        self.attempts = Attempts(games, ChallengeAttempt, challenge_played)
        """One ranked attempt per player and name (409 ``challenge_played`` for a name
        that played under an account since deleted)."""

    def now(self) -> dt.datetime:
        return self.games.clock()

    # -- making one ----------------------------------------------------------------------
    def create(self, viewer: Viewer, game_id: str) -> ChallengeView:
        """A challenge from the viewer's game ``game_id`` (the same one if asked again)."""
        if not viewer.signed_in:
            raise Unauthorized(N_("sign in to make a challenge: its leaderboard ranks signed-in players"), code="sign_in_required")
        row = self.games.store.read(game_id)
        if not viewer.owns(row.user_id, row.guest):
            raise game_not_found(game_id)  # someone else's game: no such game, as everywhere
        now = self.now()
        if row.daily_day is not None and row.daily_day >= today(now):
            raise Conflict(N_("a Daily becomes a challenge once its day is over (its cards are secret until then)"), code="challenge_daily")
        if row.challenge is not None and self.games.state(game_id, viewer)["status"] == "playing":
            # Its copies would be the hints of the ranked attempt being played.
            raise Conflict(N_("a ranked challenge attempt becomes a challenge once it is over"), code="challenge_ranked")
        with Session(self.engine) as session:
            known = session.scalar(select(Challenge.id).where(Challenge.creator_id == viewer.user_id, Challenge.source_game == row.id))
            if known is not None:
                return self.view(known, viewer)
            made = (
                session.scalar(
                    select(func.count())
                    .select_from(Challenge)
                    .where(Challenge.creator_id == viewer.user_id, Challenge.created_at >= now - dt.timedelta(days=1))
                )
                or 0
            )
        if made >= PER_DAY:
            raise TooManyRequests(
                N_(
                    "you have made {n} challenges in the last 24 hours, the most there may be; share one of them, or try again tomorrow",
                    n=PER_DAY,
                ),
                code="challenge_limit",
                retry_after=3600,
            )
        cls = lookup_game(row.game)
        source = source_of(row)
        deck = source if isinstance(source, Deck) else Deck.of_deal(source, cls.decks)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
            session.add(
                Challenge(
                    id=token,
                    game=cls.game_id,
                    deal=row.deal if row.daily_day is None else None,
                    layout=str(deck),
                    undo_mode=row.undo_mode,
                    think_seconds=row.think_seconds,
                    creator_id=viewer.user_id,
                    source_game=row.id,
                    created_at=now,
                    closes_at=now + LIFETIME,
                )
            )
        self.games.store.help.forget()
        return self.view(token, viewer)

    def _load(self, token: str) -> Challenge:
        if not isinstance(token, str) or not valid_id(token):
            raise challenge_not_found(str(token)[:40])
        with Session(self.engine) as session:
            found = session.get(Challenge, token)
            if found is None:
                raise challenge_not_found(token)
            session.expunge(found)
        return found

    # -- playing it ----------------------------------------------------------------------
    def attempt(
        self, viewer: Viewer, token: str, ranked: bool = True, owner: Viewer | None = None, before: Callable[[Any], None] | None = None
    ) -> GameState:
        """Deal the challenge to ``viewer``: the signed-in player's one ranked attempt
        (started, or resumed while it is played), else an unranked game of the same
        cards and settings (a guest's, the creator's, or anyone's with ``ranked`` false).
        ``owner`` and ``before`` are a new guest's session and what stores it (as for a
        new game)."""
        challenge = self._load(token)
        deck = deck_of(challenge.layout)
        # Once it is closed, everyone gets an ordinary copy (the ranked attempts are final).
        if viewer.signed_in and viewer.user_id != challenge.creator_id and not self._closed(challenge):
            name = name_digest(viewer.name or "")
            try:
                existing = self.attempts.find({"challenge_id": token}, viewer.user_id, name)
            except Conflict:  # the name played it ranked under a deleted account
                if ranked:
                    raise
                existing = None
            if existing is not None and not ranked and self.games.state(existing, viewer)["status"] == "playing":
                # An unranked copy beside the ranked attempt would be its hints.
                raise Conflict(
                    N_("finish your ranked attempt at this challenge first; then play it again unranked"), code="challenge_in_play"
                )
            if ranked:
                return self._ranked(challenge, viewer, name, existing)
        row, position = self.games.new_row(
            challenge.game, None, challenge.undo_mode, owner=owner or viewer, think_seconds=challenge.think_seconds, layout=deck
        )
        with transaction(self.engine) as cursor:
            if before is not None:
                before(cursor)
            self.games.store.insert_game.run(cursor, **row.columns())
        return self.games.render(row, position)

    def _closed(self, challenge: Challenge) -> bool:
        return self.now() >= as_utc(challenge.closes_at)

    def _seen(self, challenge: Challenge, user_id: int) -> bool:
        """Whether the account has a game of the challenge's cards already (played as a
        guest before signing in, unranked, or from the deal's number)."""
        cards = GameRow.layout == challenge.layout
        if challenge.deal is not None:
            cards = cards | (GameRow.deal == challenge.deal)
        with Session(self.engine) as session:
            return (
                session.scalar(select(GameRow.id).where(GameRow.user_id == user_id, GameRow.game == challenge.game, cards).limit(1))
                is not None
            )

    def _ranked(self, challenge: Challenge, viewer: Viewer, name: str, existing: str | None) -> GameState:
        """The signed-in player's one ranked attempt: started, or resumed while played."""
        token = challenge.id
        deck = deck_of(challenge.layout)
        user_id = cast(int, viewer.user_id)  # signed in: attempt calls this only then
        if existing is None and self._seen(challenge, user_id):
            existing = self.attempts.find({"challenge_id": token}, viewer.user_id, name)  # the player's other tab dealt it just now?
        if existing is None and self._seen(challenge, user_id):
            raise Conflict(
                N_("you have played these cards already, so you cannot be ranked on them; play the challenge unranked"),
                code="challenge_played",
            )
        if existing is None:
            row, _ = self.games.new_row(
                challenge.game, None, challenge.undo_mode, owner=viewer, think_seconds=challenge.think_seconds, layout=deck, challenge=token
            )
            # Inserted just now, by this request or by the player's other tab.
            return self.games.state(self.attempts.start({"challenge_id": token}, viewer, name, row), viewer)
        state = self.games.state(existing, viewer)
        if state["status"] != "playing":
            raise Conflict(
                N_("you have played this challenge: one ranked attempt per player; play it again unranked"), code="challenge_played"
            )
        return state

    # -- what it shows -------------------------------------------------------------------
    def view(self, token: str, viewer: Viewer) -> ChallengeView:
        """The challenge: its game and settings, who made it, its ranked attempts (the
        viewer's marked), and the viewer's own attempt."""
        challenge = self._load(token)
        cls = lookup_game(challenge.game)
        now = self.now()
        with Session(self.engine) as session:
            creator = session.scalar(select(User.name).where(User.id == challenge.creator_id)) if challenge.creator_id is not None else None
            rows = session.execute(
                select(ChallengeAttempt.user_id, ChallengeAttempt.game_id, User.name, *RESULT_COLUMNS)
                .join(GameRow, GameRow.id == ChallengeAttempt.game_id)
                .outerjoin(User, User.id == ChallengeAttempt.user_id)
                .where(ChallengeAttempt.challenge_id == token)
            ).all()
        closed = self._closed(challenge)
        entries = ranked_entries(rows, challenge.game, now, over=closed, judge_pace=self.games.judge_pace)
        ranked = public(entries)  # a result at a pace no person reaches is its player's only
        mine = viewer.user_id is not None
        yours = next((entry for entry in entries if mine and entry["user_id"] == viewer.user_id), None)
        attempt: ChallengeAttemptSummary | None = None
        if yours is not None:
            game_id = next(row.game_id for row in rows if row.user_id == viewer.user_id)
            attempt = {"id": game_id, "status": yours["status"], "rank": yours["rank"], "not_ranked": yours["not_ranked"]}
        made_it = mine and viewer.user_id == challenge.creator_id
        return {
            "id": challenge.id,
            "game": cls.game_id,
            "title": cls.title,
            "family": cls.family,
            "undo": challenge.undo_mode,
            "think_seconds": challenge.think_seconds,
            "created_at": iso(challenge.created_at),
            "closes_at": iso(challenge.closes_at),
            "open": not closed,
            "creator": creator,
            "yours": made_it,
            "deal": int(challenge.deal) if made_it and challenge.deal is not None else None,
            "signed_in": viewer.signed_in,
            "players": len(ranked),
            "your_rank": yours["rank"] if yours else None,
            "your_attempt": attempt,
            "entries": [shown(entry, yours) for entry in ranked[:SHOWN]],
            "links": {"self": f"/api/challenges/{challenge.id}", "page": f"/challenge/{challenge.id}"},
        }

    def made_by(self, viewer: Viewer, limit: int = 50) -> list[ChallengeListed]:
        """The viewer's challenges, newest first, with how many played each."""
        if not viewer.signed_in:
            return []
        with Session(self.engine) as session:
            played = select(ChallengeAttempt.challenge_id, func.count().label("players")).group_by(ChallengeAttempt.challenge_id).subquery()
            rows = session.execute(
                select(Challenge.id, Challenge.game, Challenge.undo_mode, Challenge.created_at, Challenge.closes_at, played.c.players)
                .outerjoin(played, played.c.challenge_id == Challenge.id)
                .where(Challenge.creator_id == viewer.user_id)
                .order_by(Challenge.created_at.desc())
                .limit(limit)
            ).all()
        return [
            {
                "id": row.id,
                "game": row.game,
                "title": lookup_game(row.game).title,
                "undo": row.undo_mode,
                "created_at": iso(row.created_at),
                "closes_at": iso(row.closes_at),
                "players": row.players or 0,
                "links": {"page": f"/challenge/{row.id}"},
            }
            for row in rows
        ]
