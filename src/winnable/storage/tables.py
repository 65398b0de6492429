"""The tables: a game is its preset, its deal number and the list of moves played.

``games`` holds one row per game a player started; ``verdicts``
(:mod:`winnable.storage.verdicts`, shared with ``winnable survey --database``) what the
solver proved about each deal, with the winning line it found, so the first hint of a
Winnable deal is instant. Positions are never stored: the server
rebuilds them by replaying the moves with the rules. ``leases`` say which server runs
once-per-database work (the pool's filler); ``server_keys`` hold shared secrets.
``users`` and ``sessions`` are the accounts and who is signed in (or a guest);
``daily_deals`` the Daily of each game and day (a secret deck order), ``daily_attempts``
each player's one scored attempt at it (a game row); ``challenges`` a deal sent to
friends with its settings, ``challenge_attempts`` each player's one ranked attempt at it.

The schema belongs to Alembic (``winnable/storage/migrations``);
:func:`winnable.storage.migrate.migrate` brings any database to the newest revision and
runs every time the server starts.

>>> from sqlalchemy.orm import Session
>>> from winnable.storage.engine import make_engine
>>> from winnable.storage.migrate import migrate
>>> engine = make_engine("sqlite://")
>>> migrate(engine)
>>> with Session(engine) as session:
...     session.add(GameRow(id="g1", game="black-hole", deal="7", undo_mode="none"))
...     session.commit()
...     row = session.get(GameRow, "g1")
...     row.deal_number, row.moves, row.undo_used
(7, [], 0)
"""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from winnable.storage.engine import utcnow
from winnable.storage.verdicts import VerdictRow


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """One game: what was dealt and what was played. The position is derived."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(64), index=True)
    # Deal numbers go up to 10**20 - 1, beyond a 64-bit integer: kept as decimal text.
    deal: Mapped[str | None] = mapped_column(sa.String(24), nullable=True)
    """The deal number; None for a game dealt from a ``layout`` (a Daily attempt)."""
    undo_mode: Mapped[str] = mapped_column(sa.String(16), default="unlimited")
    undo_used: Mapped[int] = mapped_column(sa.Integer, default=0)
    moves: Mapped[list[str]] = mapped_column(sa.JSON, default=list)
    winnable_deal: Mapped[bool] = mapped_column(sa.Boolean, default=False)
    restarts: Mapped[int] = mapped_column(sa.Integer, default=0)
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    started_at: Mapped[dt.datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    """When the first move was played (the clock starts then); None before."""
    updated_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[dt.datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    status: Mapped[str] = mapped_column(sa.String(16), default="playing")
    # -- who plays it and how (revision 0004) -----------------------------------------
    user_id: Mapped[int | None] = mapped_column(sa.Integer, nullable=True, index=True)
    """The account that plays it; None for a guest's game (or an anonymised Daily attempt)."""
    guest: Mapped[str | None] = mapped_column(sa.String(64), nullable=True, index=True)
    """The guest session that started it (its id's digest), until the guest signs in."""
    hints_used: Mapped[int] = mapped_column(sa.Integer, default=0)
    move_count: Mapped[int] = mapped_column(sa.Integer, default=0)
    cards_left: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    """Cards not yet home after the last move (kept for the leaderboard and statistics)."""
    think_seconds: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    """Black Hole's timed play: the most seconds a move may take; None: untimed."""
    last_move_at: Mapped[dt.datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    """When the thinking time of the next move started (the deal, the last move or undo)."""
    timed_out_at: Mapped[dt.datetime | None] = mapped_column(sa.DateTime(timezone=True), nullable=True)
    """When a timed game ran out of time (it is lost then)."""
    daily_day: Mapped[dt.date | None] = mapped_column(sa.Date, nullable=True)
    """The Daily this game is an attempt at (None for any other game)."""
    # -- the hints' line (revision 0007) ----------------------------------------------
    hint_line: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, nullable=True)
    """The winning line the hints follow: ``{"from": position text, "moves": [...]}``,
    the position it starts from (in the solver's view: hidden cards included) and its
    moves. Kept with the game so that every worker and server, before and after a
    restart, gives the next move of the same line (:mod:`winnable.web.play.solving`); never
    sent to a client (it would show face-down cards). Not read with the game's other
    columns: only hints and analyses need it."""
    # -- (revision 0008) ------------------------------------------------------------------
    layout: Mapped[str | None] = mapped_column(sa.Text, nullable=True)
    """The cards in dealing order (:class:`winnable.decks.Deck`'s notation) when the game
    was dealt from a secret deck order and has no deal number (a Daily attempt)."""
    # -- (revision 0010) ------------------------------------------------------------------
    challenge: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)
    """The challenge this game is the ranked attempt at (hints and restarts refused)."""
    # -- (revision 0011) ------------------------------------------------------------------
    move_times: Mapped[list[int] | None] = mapped_column(sa.JSON, nullable=True)
    """The server's time of each stored move: milliseconds from ``started_at``, one per
    move (None: a game stored before revision 0011). What the pace of a result is read
    from (:mod:`winnable.web.play.pace`); never taken from a client."""
    # -- (revision 0012) ------------------------------------------------------------------
    redo: Mapped[list[list[str]] | None] = mapped_column(sa.JSON, nullable=True)
    """What a redo plays again: the groups of moves undone (each what one undo took back:
    a move and the safe moves home that came with it), the last undone last; None when
    there is none (any other move, a restart or a take-over clears it)."""
    # -- (revision 0013) ------------------------------------------------------------------
    grade: Mapped[str | None] = mapped_column(sa.String(8), nullable=True)
    """How hard the deal is (:class:`winnable.grading.Grade`'s value), written when it is
    dealt: a Winnable deal's or a Daily's grade; None when the deal is not graded."""

    @property
    def deal_number(self) -> int | None:
        return None if self.deal is None else int(self.deal)


# The verdicts table (what the solver proved about each deal, the pool of Winnable mode
# among them) is shared with the command line and has its own module;
# a copy in this metadata lets the migrations' checks see every table.
cast(sa.Table, VerdictRow.__table__).to_metadata(Base.metadata)  # a declarative class maps a Table


class Lease(Base):
    """A named lease one process holds until ``expires_at`` (see :mod:`winnable.storage.leases`):
    work that must run once per database, whatever the number of servers, takes one."""

    __tablename__ = "leases"

    name: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    holder: Mapped[str] = mapped_column(sa.String(128))
    expires_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True))


class ServerKey(Base):
    """Secrets every server on the database shares (the key that signs CSRF tokens),
    made once by whichever server needs one first."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    value: Mapped[str] = mapped_column(sa.String(256))
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class User(Base):
    """A player's account: a name and an argon2id hash of the password, nothing else."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(sa.String(32))
    name_key: Mapped[str] = mapped_column(sa.String(32), unique=True)
    """The name folded to lower case: two names that differ only in case are one."""
    password_hash: Mapped[str] = mapped_column(sa.String(256))
    password_nfkc: Mapped[bool] = mapped_column(sa.Boolean, default=True, server_default=sa.false())
    """The hash is of the password in NFKC (False: of the password as typed, before
    passwords were normalised; sign-in rehashes it)."""
    language: Mapped[str | None] = mapped_column(sa.String(8), nullable=True)
    """The language the player chose with the switch (en, fr, nl), or None."""
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class SessionRow(Base):
    """A signed-in (``user_id``) or guest session; the cookie holds a random token, the
    database only its SHA-256 digest, so a copy of the database signs nobody in."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True)
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    seen_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), index=True)


class DailyDeal(Base):
    """The Daily of one game on one day (UTC): one row, made by whichever server is asked
    first, so every worker and server hands out the same deal. Its ``layout`` is a
    secret deck order (no deal number reaches it); ``deal`` is set only on Dailies
    stored before revision 0008, which were deal numbers."""

    __tablename__ = "daily_deals"

    game: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    day: Mapped[dt.date] = mapped_column(sa.Date, primary_key=True)
    deal: Mapped[str | None] = mapped_column(sa.String(24), nullable=True)
    layout: Mapped[str | None] = mapped_column(sa.Text, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    grade: Mapped[str | None] = mapped_column(sa.String(8), nullable=True)
    """The grade the Daily was drawn at (revision 0013; None: drawn before grades)."""


class DailyAttempt(Base):
    """A player's one scored attempt at a Daily: the game row holds its moves and clock.
    ``user_id`` becomes None when the account is deleted (the result stays, anonymous);
    ``name_key``, a digest of the player's name, stays until the day is over, so that
    an account made again with the same name gets no second attempt."""

    __tablename__ = "daily_attempts"
    __table_args__ = (
        sa.UniqueConstraint("game", "day", "user_id", name="uq_daily_attempts_player"),
        sa.UniqueConstraint("game", "day", "name_key", name="uq_daily_attempts_name"),
    )

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(sa.String(64))
    day: Mapped[dt.date] = mapped_column(sa.Date)
    user_id: Mapped[int | None] = mapped_column(sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True)
    game_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    name_key: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)


class Challenge(Base):
    """A deal sent to friends: the same cards (a deck order, never shown to anyone) with
    the same settings for whoever opens its link, ``id`` a random token. A challenge made
    from a numbered deal keeps the number for its creator (``deal``); the attempts are
    dealt from the deck order, so the number cannot be looked up for hints."""

    __tablename__ = "challenges"
    __table_args__ = (sa.Index("ix_challenges_creator_id", "creator_id", "created_at"), sa.Index("ix_challenges_closes_at", "closes_at"))

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(64))
    deal: Mapped[str | None] = mapped_column(sa.String(24), nullable=True)
    layout: Mapped[str] = mapped_column(sa.Text)
    undo_mode: Mapped[str] = mapped_column(sa.String(16))
    think_seconds: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)
    creator_id: Mapped[int | None] = mapped_column(sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    source_game: Mapped[str | None] = mapped_column(sa.String(32), nullable=True)
    """The creator's game it was made from (asking again from it gives the same challenge)."""
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    closes_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True))
    """When it closes (revision 0011): until then no game of its cards gets the solver's
    help and ranked attempts are dealt; then its leaderboard is final and its copies are
    ordinary games."""


class ChallengeAttempt(Base):
    """A player's one ranked attempt at a challenge (the game row holds its moves and
    clock). ``user_id`` becomes None when the account is deleted (the result stays,
    anonymous); ``name_key``, a digest of the lower-cased name, stays, so that an account
    made again with the same name gets no second ranked attempt."""

    __tablename__ = "challenge_attempts"
    __table_args__ = (
        sa.UniqueConstraint("challenge_id", "user_id", name="uq_challenge_attempts_player"),
        sa.UniqueConstraint("challenge_id", "name_key", name="uq_challenge_attempts_name"),
    )

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    challenge_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("challenges.id", ondelete="CASCADE"))
    user_id: Mapped[int | None] = mapped_column(sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True)
    name_key: Mapped[str] = mapped_column(sa.String(64))
    game_id: Mapped[str] = mapped_column(sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
