"""Accounts and sessions: sign up, sign in, sign out, delete, download one's data.

* Passwords are normalised (NFKC, :mod:`winnable.web.security.passwords`) and hashed with
  argon2id (``pwdlib``); nothing else about a player is kept but the name. A wrong name
  and a wrong password get the same answer, after the same work (a hash is verified
  either way).
* A session is a random token in an HttpOnly, ``SameSite=Lax`` cookie (``Secure`` over
  HTTPS); the database keeps only its SHA-256 digest and when it expires. A browser
  that stores a game without signing in gets a *guest* session, written with that
  game (a refused request writes nothing): its games are "this browser's games".
  Signing up or in makes a new session (the token before it is worth nothing after it)
  and moves the guest's games to the account. Expired sessions, and guest sessions that
  never kept a game, are purged in the background (:meth:`AccountService.purge`).
* A browser that signed in keeps a device token (:mod:`winnable.web.security.devices`), which
  spares it the name's shared sign-in limit.
* A worker trusts a guest session it has read for :data:`GUEST_MEMORY` seconds; a
  player's session is read on every request.
* Signing out deletes the session on the server; deleting the account deletes its
  sessions and games, and leaves its Daily results on the leaderboards without a name.

>>> from winnable.storage.engine import make_engine
>>> from winnable.storage.migrate import migrate
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> accounts = AccountService(engine, argon2_memory_kib=1024, argon2_time_cost=1)
>>> guest = accounts.guest_session()
>>> player, token = accounts.signup("ada", "correct horse", old_token=guest)
>>> accounts.viewer(token).name, accounts.viewer(guest).user_id
('ada', None)
>>> device = accounts.issue_device(player.user_id)
>>> accounts.trusted_device("Ada", device) is not None, accounts.trusted_device("bob", device)
(True, None)
>>> accounts.login("ADA", "wrong password")
Traceback (most recent call last):
...
winnable.web.errors.Unauthorized: wrong name or password
>>> check_name("x' OR 1=1 --")
Traceback (most recent call last):
...
winnable.web.errors.Unprocessable: a name is 3 to 24 letters or digits, with single . _ or - between them
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import re
import secrets
import time
from typing import Any, TypedDict, TypeGuard, cast

import sqlalchemy as sa
from sqlalchemy import delete, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from winnable.storage.engine import as_utc, utcnow, write_lock, writer
from winnable.storage.statements import Query, Statement
from winnable.storage.tables import Challenge, ChallengeAttempt, DailyAttempt, GameRow, SessionRow, User
from winnable.web.errors import Conflict, Unauthorized, Unprocessable
from winnable.web.pages.i18n import N_
from winnable.web.play.cache import ByteLRU
from winnable.web.security.devices import Account, DeviceKeys, find
from winnable.web.security.identity import NOBODY, Viewer
from winnable.web.security.passwords import PASSWORD_MAX, PASSWORD_MIN, check_password, normalized  # noqa: F401

COOKIE = "winnable_session"
"""The session cookie's name."""

NAME_MIN, NAME_MAX = 3, 24
_NAME = re.compile(r"[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*")
TOKEN_BYTES = 32
SEEN_EVERY = dt.timedelta(hours=1)
"""A session's last visit is written at most this often (reads stay reads)."""
GUEST_MEMORY = 10.0
"""Seconds a worker trusts a guest session it has read without reading it again. A
guest session is never revoked but by its own browser (signing in, which replaces the
cookie); so a worker that has not heard of that yet answers a request still in flight
with the old cookie as the guest it was, who owns nothing any more. Sessions of players
who sign in are read on every request: signing out or deleting the account stops them at
once on every worker."""


def digest(token: str) -> str:
    """What the database keeps of a session token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def plausible_token(token: str | None) -> TypeGuard[str]:
    return token is not None and len(token) <= 64 and re.fullmatch(r"[A-Za-z0-9_-]+", token) is not None


def check_name(name: Any) -> str:
    """A valid player name, or 422 ``bad_name`` (SQL, markup and spaces are never names)."""
    if not isinstance(name, str) or not NAME_MIN <= len(name) <= NAME_MAX or not _NAME.fullmatch(name):
        raise Unprocessable(
            N_("a name is {low} to {high} letters or digits, with single . _ or - between them", low=NAME_MIN, high=NAME_MAX),
            code="bad_name",
        )
    return name


class ExportedAccount(TypedDict):
    """The account itself, as the export gives it."""

    name: str
    created_at: str | None
    sessions: int
    language: str | None
    settings: dict[str, Any]


class ExportedGame(TypedDict):
    """One of the player's games, with its moves, as the export gives it."""

    id: str
    game: str
    undo: str
    deal: int | None
    undo_used: int
    hints_used: int
    moves: list[str]
    status: str
    think_seconds: int | None
    restarts: int
    daily: str | None
    created_at: str | None
    started_at: str | None
    finished_at: str | None


class ExportedAttempt(TypedDict):
    """One of the player's Daily attempts."""

    game: str
    day: str
    game_id: str


class AccountExport(TypedDict):
    """Everything kept about a player (the API's ``AccountExport``)."""

    account: ExportedAccount
    games: list[ExportedGame]
    daily_attempts: list[ExportedAttempt]


@dataclasses.dataclass(frozen=True, slots=True)
class PendingGuest:
    """A guest session made for a request, stored only if the request stores something."""

    token: str
    viewer: Viewer


class AccountService:
    """Players and sessions in the database behind ``engine``."""

    def __init__(
        self,
        engine: Engine,
        session_days: float = 30.0,
        guest_days: float = 365.0,
        argon2_memory_kib: int = 65536,
        argon2_time_cost: int = 3,
        device_secret: bytes | None = None,
    ) -> None:
        from pwdlib import PasswordHash
        from pwdlib.hashers.argon2 import Argon2Hasher

        self.engine = engine
        self.write_engine = writer(engine)
        self.session_life = dt.timedelta(days=session_days)
        self.guest_life = dt.timedelta(days=guest_days)
        self.hasher = PasswordHash((Argon2Hasher(time_cost=argon2_time_cost, memory_cost=argon2_memory_kib),))
        self._dummy: str | None = None
        self._guests = ByteLRU(4 << 20)  # session digest -> (Viewer, trusted until; monotonic)
        # Every request with a cookie reads its session: one statement compiled once.
        self._read_session = Query(
            engine,
            select(SessionRow.user_id, SessionRow.expires_at, SessionRow.seen_at, User.name)
            .outerjoin(User, User.id == SessionRow.user_id)
            .where(SessionRow.id == sa.bindparam("id")),
        )
        self._insert_session = Statement(engine, cast(sa.Table, SessionRow.__table__).insert())  # a mapped Table
        self.devices = DeviceKeys(device_secret or secrets.token_bytes(32))

    # -- sessions ---------------------------------------------------------------------
    def _new_session(self, session: Session, user_id: int | None) -> str:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = utcnow()
        life = self.session_life if user_id is not None else self.guest_life
        session.add(SessionRow(id=digest(token), user_id=user_id, created_at=now, seen_at=now, expires_at=now + life))
        return token

    def guest_session(self) -> str:
        """A new guest session, stored now; its token."""
        with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
            return self._new_session(session, None)

    def pending_guest(self) -> "PendingGuest":
        """A guest session for a browser that has none, not stored yet: it is stored
        with the first thing the guest keeps (:meth:`store_guest`, in that transaction),
        so that a refused request writes nothing."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        return PendingGuest(token, Viewer(digest(token)))

    def store_guest(self, cursor: Any, pending: "PendingGuest") -> None:
        """Store ``pending`` on ``cursor`` (a transaction of :func:`winnable.storage.statements.transaction`)."""
        now = utcnow()
        self._insert_session.run(
            cursor, id=pending.viewer.session, user_id=None, created_at=now, seen_at=now, expires_at=now + self.guest_life
        )

    def viewer(self, token: str | None) -> Viewer:
        """Who holds the session ``token`` (:data:`NOBODY` if it is unknown or expired)."""
        if not plausible_token(token):
            return NOBODY
        key = digest(token)
        known: tuple[Viewer, float] | None = self._guests.get(key)
        if known is not None and time.monotonic() < known[1]:
            return known[0]
        found = self._read_session.first(id=key)
        if found is None:
            return NOBODY
        user_id, expires, seen, name = found["user_id"], found["expires_at"], found["seen_at"], found["name"]
        now = utcnow()
        left = (as_utc(expires) - now).total_seconds()
        if left <= 0 or (user_id is not None and name is None):
            return NOBODY
        if now - as_utc(seen) > SEEN_EVERY:  # sliding expiry, written once an hour at most
            life = self.session_life if user_id is not None else self.guest_life
            with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
                session.execute(update(SessionRow).where(SessionRow.id == key).values(seen_at=now, expires_at=now + life))
        viewer = Viewer(key, user_id, name)
        if user_id is None:
            self._guests.put(key, (viewer, time.monotonic() + min(GUEST_MEMORY, left)), 2 * len(key) + 200)
        return viewer

    def _forget(self, key: str) -> None:
        """This worker stops trusting the session ``key`` (a digest) at once."""
        self._guests.pop(key)

    def _rotate(self, session: Session, old_token: str | None, user_id: int) -> str:
        """End the session before sign-in (its guest games become the player's) and
        start a fresh one: a token planted before sign-in is worth nothing after it."""
        if plausible_token(old_token):
            self._forget(digest(old_token))
            old = session.get(SessionRow, digest(old_token))
            if old is not None:
                if old.user_id is None:
                    session.execute(update(GameRow).where(GameRow.guest == old.id).values(user_id=user_id, guest=None))
                session.delete(old)
        return self._new_session(session, user_id)

    # -- accounts ---------------------------------------------------------------------
    def signup(self, name: str, password: str, old_token: str | None = None) -> tuple[Viewer, str]:
        """A new account, signed in; 409 ``name_taken`` if the name (in any case) is."""
        check_name(name)
        hashed = self.hasher.hash(check_password(password))
        try:
            with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
                user = User(name=name, name_key=name.lower(), password_hash=hashed, password_nfkc=True, created_at=utcnow())
                session.add(user)
                session.flush()
                token = self._rotate(session, old_token, user.id)
                viewer = Viewer(digest(token), user.id, user.name)
        except IntegrityError:
            raise Conflict(N_("this name cannot be used for a new account; choose another"), code="name_taken") from None
        return viewer, token

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy

    def _check(self, name: Any, password: Any) -> User:
        """The account if ``password`` is its password; the same 401 otherwise, after
        the same work whether or not the name exists (one hash verified).

        The password is compared in NFKC (see :mod:`winnable.web.security.passwords`); a hash
        made before passwords were normalised is compared with the password as typed,
        as it was made, and replaced by the normalised one's once it matches."""
        wrong = Unauthorized(N_("wrong name or password"), code="bad_credentials")
        form = normalized(password)
        if not isinstance(name, str) or form is None:
            raise wrong
        user = self._user(name)
        given = form if user is None or user.password_nfkc else password
        try:
            valid, better = self.hasher.verify_and_update(given, user.password_hash if user else self._dummy_hash())
        except (ValueError, UnicodeError):
            valid, better = False, None
        if user is None or not valid:
            raise wrong
        if not user.password_nfkc:  # an old hash, of the password as typed: from now on, of its NFKC form
            if form != password:
                better = self.hasher.hash(form)
            elif better is None:
                better = user.password_hash  # the same password: only the mark changes
        if better is not None:  # the hash's parameters were raised since, or its form: store the new one
            with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
                session.execute(update(User).where(User.id == user.id).values(password_hash=better, password_nfkc=True))
        return user

    def _user(self, name: str) -> User | None:
        if len(name) > NAME_MAX or not _NAME.fullmatch(name):
            return None
        with Session(self.engine, expire_on_commit=False) as session:
            return session.scalars(select(User).where(User.name_key == name.lower())).first()

    def login(self, name: Any, password: Any, old_token: str | None = None) -> tuple[Viewer, str]:
        """Sign in: a new session (the old one ends); 401 ``bad_credentials`` otherwise."""
        user = self._check(name, password)
        with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
            token = self._rotate(session, old_token, user.id)
        return Viewer(digest(token), user.id, user.name), token

    # -- device cookies (winnable.web.security.devices) ---------------------------------------
    @staticmethod
    def _account(user: User) -> Account:
        created = as_utc(user.created_at)
        return Account(user.id, user.name_key, int(created.timestamp()) * 1_000_000 + created.microsecond)

    def trusted_device(self, name: Any, cookie: str | None) -> str | None:
        """The device (what its sign-ins are counted by) if the device cookie holds a
        valid token of the account ``name``; None for an untrusted client."""
        if not cookie or not isinstance(name, str):
            return None
        user = self._user(name)
        if user is None:
            return None
        return self.devices.device(find(cookie, user.id), self._account(user))

    def issue_device(self, user_id: int) -> str | None:
        """A new device token for the account (after it signed in or up on this device)."""
        with Session(self.engine) as session:
            user = session.get(User, user_id)
            return None if user is None else self.devices.issue(self._account(user))

    # -- expired sessions --------------------------------------------------------------
    def purge(self, batch: int = 200, pause: float = 0.05, empty_after: dt.timedelta = dt.timedelta(hours=1)) -> int:
        """Delete expired sessions, and guest sessions that never kept a game (older than
        ``empty_after``), ``batch`` rows a transaction with a ``pause`` between: no
        request waits behind it for the write lock longer than behind a move or two
        (``docs/tuning.md``). How many went."""
        gone = 0
        now = utcnow()
        games = select(GameRow.id).where(GameRow.guest == SessionRow.id).exists()
        doomed = sa.or_(
            SessionRow.expires_at < now, sa.and_(SessionRow.user_id.is_(None), SessionRow.created_at < now - empty_after, ~games)
        )
        while True:
            with Session(self.engine) as session:
                ids = session.scalars(select(SessionRow.id).where(doomed).limit(batch)).all()
            if not ids:
                return gone
            for key in ids:
                self._forget(key)
            with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
                session.execute(delete(SessionRow).where(SessionRow.id.in_(ids), doomed))
            gone += len(ids)
            if len(ids) < batch:
                return gone
            time.sleep(pause)

    # -- the player's language -------------------------------------------------------
    def language(self, user_id: int | None) -> str | None:
        """The language the player chose (``en``, ``fr``, ``nl``), or None."""
        if user_id is None:
            return None
        with Session(self.engine) as session:
            return session.scalar(select(User.language).where(User.id == user_id))

    def set_language(self, user_id: int | None, language: str) -> None:
        """Keep the player's choice of language (signing in on another device restores it)."""
        if user_id is not None:
            with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
                session.execute(update(User).where(User.id == user_id).values(language=language))

    # -- the player's settings (display and sound) --------------------------------------
    def settings(self, viewer: Viewer) -> dict[str, Any]:
        """The settings the signed-in player saved (``{}``: none yet)."""
        if not viewer.signed_in:
            raise Unauthorized(N_("sign in to keep your settings with your account"), code="sign_in_required")
        with Session(self.engine) as session:
            found = session.scalar(select(User.settings).where(User.id == viewer.user_id))
        return dict(found) if isinstance(found, dict) else {}

    def set_settings(self, viewer: Viewer, values: dict[str, Any]) -> dict[str, Any]:
        """Keep ``values`` (checked by the route: known keys, known values) as the
        signed-in player's settings, in place of those kept before."""
        if not viewer.signed_in:
            raise Unauthorized(N_("sign in to keep your settings with your account"), code="sign_in_required")
        with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
            session.execute(update(User).where(User.id == viewer.user_id).values(settings=values))
        return values

    def logout(self, token: str | None) -> None:
        """End the session on the server (the cookie is worth nothing after)."""
        if plausible_token(token):
            self._forget(digest(token))
            with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
                session.execute(delete(SessionRow).where(SessionRow.id == digest(token)))

    def delete(self, viewer: Viewer, password: Any) -> None:
        """Delete the account (password asked again): its sessions, its games and its
        name go; its Daily and challenge results stay on the leaderboards, without a
        name, and the name cannot play today's Dailies nor those challenges ranked again."""
        if not viewer.signed_in:
            raise Unauthorized(N_("sign in to delete your account"), code="sign_in_required")
        user = self._check(viewer.name, password)
        with write_lock(self.engine), Session(self.write_engine) as session, session.begin():
            daily = select(DailyAttempt.game_id).where(DailyAttempt.user_id == user.id).scalar_subquery()
            # Ranked attempts (the Daily's, a challenge's) stay, nobody's, on their boards.
            session.execute(
                update(GameRow)
                .where(GameRow.user_id == user.id, or_(GameRow.id.in_(daily), GameRow.challenge.is_not(None)))
                .values(user_id=None, guest=None)
            )
            session.execute(delete(GameRow).where(GameRow.user_id == user.id))
            session.execute(update(DailyAttempt).where(DailyAttempt.user_id == user.id).values(user_id=None))
            session.execute(update(ChallengeAttempt).where(ChallengeAttempt.user_id == user.id).values(user_id=None))
            session.execute(update(Challenge).where(Challenge.creator_id == user.id).values(creator_id=None))
            # The name's digest stays on today's attempts only (one attempt per name and
            # day, whatever happens to the account; a day's margin for clocks), and goes
            # from older ones, this account's and those deleted before.
            session.execute(
                update(DailyAttempt)
                .where(
                    DailyAttempt.user_id.is_(None),
                    DailyAttempt.name_key.is_not(None),
                    DailyAttempt.day < utcnow().date() - dt.timedelta(days=1),
                )
                .values(name_key=None)
            )
            session.execute(delete(SessionRow).where(SessionRow.user_id == user.id))
            session.execute(delete(User).where(User.id == user.id))

    def export(self, viewer: Viewer) -> AccountExport:
        """Everything kept about the signed-in player, as JSON."""
        if not viewer.signed_in:
            raise Unauthorized(N_("sign in to download your data"), code="sign_in_required")
        with Session(self.engine) as session:
            user = cast(User, session.get(User, viewer.user_id))  # signed in: a deleted account's sessions went with it
            games = session.scalars(select(GameRow).where(GameRow.user_id == viewer.user_id).order_by(GameRow.created_at)).all()
            attempts = session.scalars(select(DailyAttempt).where(DailyAttempt.user_id == viewer.user_id).order_by(DailyAttempt.day)).all()
            sessions = session.scalar(select(sa.func.count()).select_from(SessionRow).where(SessionRow.user_id == viewer.user_id))

        def moment(value: dt.datetime | None) -> str | None:
            return None if value is None else as_utc(value).isoformat().replace("+00:00", "Z")

        return {
            "account": {
                "name": user.name,
                "created_at": moment(user.created_at),
                "sessions": sessions or 0,
                "language": user.language,
                "settings": dict(user.settings) if isinstance(user.settings, dict) else {},
            },
            "games": [
                {
                    "id": row.id,
                    "game": row.game,
                    "undo": row.undo_mode,
                    # A Daily has no number; its cards are its moves' own business until
                    # the day is over (then on the leaderboard), so none here.
                    "deal": None if row.deal is None or (row.daily_day and row.daily_day >= utcnow().date()) else int(row.deal),
                    "undo_used": row.undo_used,
                    "hints_used": row.hints_used or 0,
                    "moves": list(row.moves),
                    "status": row.status,
                    "think_seconds": row.think_seconds,
                    "restarts": row.restarts,
                    "daily": row.daily_day.isoformat() if row.daily_day else None,
                    "created_at": moment(row.created_at),
                    "started_at": moment(row.started_at),
                    "finished_at": moment(row.finished_at),
                }
                for row in games
            ],
            "daily_attempts": [{"game": item.game, "day": item.day.isoformat(), "game_id": item.game_id} for item in attempts],
        }
