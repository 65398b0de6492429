"""Everything the server can be tuned by: ``WINNABLE_*`` environment variables, or the
flags of ``winnable serve`` (which win over the environment).

>>> settings = Settings(hint_seconds=1.5, allowed_hosts=["games.example.org"])
>>> settings.hint_seconds, settings.hint_max_seconds, settings.allowed_hosts
(1.5, 5.0, ['games.example.org'])
>>> Settings(hint_seconds=0)
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings
hint_seconds
  Input should be greater than 0 ...

Lists are written as JSON in the environment (``WINNABLE_ALLOWED_HOSTS='["a.org",
"b.org"]'``) or comma-separated (``a.org,b.org``). Rate limits use the ``limits``
notation: ``"20/minute"``, several separated by ``;`` (``"5/second;120/minute"``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

STATIC = Path(__file__).parent / "pages" / "static"

SETTINGS_VARIABLE = "WINNABLE_SERVE_SETTINGS"
"""Where ``winnable serve --workers N`` puts its settings object (as JSON) for the worker
processes uvicorn starts; nothing else reads it."""

LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "::1"]
"""The Host names a server on this machine answers by default (DNS rebinding: a page of
another site whose name resolves to 127.0.0.1 sends its own name, and is refused)."""

Seconds = Annotated[float, Field(gt=0, allow_inf_nan=False)]
HostList = Annotated[list[str], NoDecode]


class Settings(BaseSettings):
    """The server's settings; every field is also the variable ``WINNABLE_<NAME>``."""

    model_config = SettingsConfigDict(env_prefix="WINNABLE_", extra="ignore", validate_default=True)

    database_url: str | None = Field(
        None,
        validation_alias=AliasChoices("database_url", "WINNABLE_DATABASE", "WINNABLE_DATABASE_URL"),
        description="SQLAlchemy URL (default: SQLite in the user's data folder).",
    )

    # -- the solver ------------------------------------------------------------------
    hint_seconds: Seconds = Field(
        2.0, gt=0, allow_inf_nan=False, validation_alias=AliasChoices("hint_seconds", "WINNABLE_HINT_SECONDS", "WINNABLE_HINT_CPU_SECONDS")
    )
    """Budget of one hint when the client names none, in CPU seconds of the searching
    thread (the same search on a busy server as on a quiet one); the time it waited in
    the queue is taken off it. ``WINNABLE_HINT_CPU_SECONDS`` names it too."""
    hint_max_seconds: Seconds = 5.0
    """The most a client may ask for a hint (``?seconds=`` above it: 422)."""
    hint_longer_seconds: float = Field(30.0, ge=0, le=3600, allow_inf_nan=False)
    """A hint that finds no line within its budget starts a longer search of the position
    in the background with this many CPU seconds (one thread at the lowest priority; the
    next hint there answers from it; 0: none). See :mod:`winnable.web.play.longer`."""
    hint_longer_waiting: int = Field(8, ge=0, le=10_000)
    """Longer searches waiting, all clients together (one a client); beyond it a hint
    that finds nothing starts none."""
    hint_longer_memory_mb: int = Field(1024, ge=64, le=1 << 20)
    """What a longer search may hold (the Spider family's memory bound a pass, megabytes)."""
    hint_presearch: bool = True
    """Search each new game's deal (one that may take hints) in the background at once, as
    a longer search (the same thread, places and budget), so that its first hint and
    "still winnable?" are ready when asked; no effect when longer searches are off."""
    analysis_seconds: Seconds = 2.0
    """Time budget of one analysis (all its searches together)."""
    analysis_max_seconds: Seconds = 10.0
    solver_threads: int | None = Field(None, ge=1, le=64)
    """Searches running at once in each server process (default: 2)."""
    solver_queue: int = Field(32, ge=0, le=10_000)
    """Solver jobs waiting, all clients together; beyond it the job that would run last
    (the heaviest client's) gives its place up and is answered with what is known."""
    solver_queue_per_client: int = Field(4, ge=1, le=1000)
    """Solver jobs one client may have waiting or running; beyond it: 429."""
    solver_running_per_client: int = Field(1, ge=1, le=64)
    """Searches of one client running at once (the others wait their turn)."""
    solver_analysis_threads: int | None = Field(None, ge=1, le=64)
    """Solver threads analyses may hold at once (default: all but one, so that hints,
    which go first, always find a thread; with one thread they share it)."""
    solver_analyses: int = Field(16, ge=1, le=10_000)
    """Analyses' searches ("still winnable?", "where did I lose?") waiting, all clients
    together; beyond it the one that would run last is answered with what is known.
    Keep it below ``solver_queue``: the rest of the queue is the hints'."""
    solver_analyses_per_client: int = Field(2, ge=1, le=1000)
    """Analyses of one client (address) in progress; beyond it: 429."""
    solver_guest_analyses: int = Field(8, ge=1, le=10_000)
    """Analyses' searches waiting of all clients nobody is signed in at, together; beyond
    it the guest's one that would run last is answered with what is known."""
    solver_slice_seconds: Seconds = 1.0
    """A search that starts while other clients' jobs wait gets at most this long (its
    answer says ``shortened``): under load nobody holds a solver thread for long."""
    solver_scheduler: str | None = Field(None, pattern=r"^(tcp|tls)://[^\s/]+:\d{1,5}$")
    """A Dask scheduler (``tcp://HOST:PORT``) whose workers run request-time searches
    (hints, analyses, the pool's); while it or its workers are away, this machine's
    threads solve (see :mod:`winnable.web.play.cluster`)."""
    solver_nice: int = Field(10, ge=0, le=19)
    """The solver threads' CPU priority below the server's (Linux): moves and reads of
    every player come before any search."""

    # -- the pool of proved-winnable deals --------------------------------------------
    pool_size: int = Field(20, ge=0, le=100_000)
    """Proved-winnable deals kept ready per game (0: no background filling)."""
    pool_seconds: Seconds = 2.0
    """Budget per candidate deal when filling the pool."""
    pool_per_grade: int = Field(3, ge=0, le=10_000)
    """Proved deals of each grade (easy, medium, hard, expert) kept ready per game..."""
    pool_most: int = Field(200, ge=0, le=1_000_000)
    """...searched for until a game has this many unused proved deals."""
    pool_background: bool = True
    """Fill the pool in the background (one filler per database, under a lease)."""
    pool_lease_seconds: Seconds = 30.0
    """The filler's lease on the database; another server takes over this long after
    the holder died."""

    # -- memory ----------------------------------------------------------------------
    position_cache_mb: float = Field(64.0, ge=0, allow_inf_nan=False)
    """Replayed positions kept in memory, in megabytes (estimated)."""
    verdict_cache_mb: float = Field(32.0, ge=0, allow_inf_nan=False)
    """Solver verdicts (with their winning lines) kept in memory, in megabytes."""

    # -- requests --------------------------------------------------------------------
    max_body_bytes: int = Field(64 * 1024, ge=1024)
    """Larger request bodies are refused (413) before they are read."""
    max_header_bytes: int = Field(16 * 1024, ge=1024)
    """Larger request headers, all together, are refused (431)."""
    allowed_hosts: HostList = Field(default_factory=lambda: list(LOOPBACK_HOSTS))
    """Host header values the server answers (``*`` for any); others get 400."""
    trusted_origins: HostList = Field(default_factory=list)
    """Origins besides the server's own allowed to make state-changing calls
    (``https://games.example.org``), e.g. behind a proxy that rewrites the Host."""
    secret_key: str | None = Field(None, min_length=16)
    """Signs CSRF tokens and device cookies. Default: one of each made once and kept in the
    database, so every worker and every server on the database shares it."""

    gil_switch_ms: float = Field(0.5, gt=0, le=100, allow_inf_nan=False)
    """How long a thread may hold Python's GIL while another waits for it (Python's
    default: 5 ms). Each database round trip lets the solver's threads take the GIL; the
    event loop, its answer in hand, then waited up to this long to go on: on PostgreSQL
    with hints being searched, most of a move's time (see the README's figures)."""

    database_threads: bool = False
    """Run database work in worker threads instead of the event loop (see
    :func:`winnable.web.deps.database`)."""
    judge_pace: bool = True
    """Keep Daily and challenge results at a pace no person reaches out of the rankings
    (:mod:`winnable.web.play.pace`). Off only for tests that play faster than people."""
    gc_freeze: bool = True
    """At start, collect once and move what is alive out of the collector's sight (shorter
    collection pauses). The tests switch it off: each test's app would pay a full
    collection of the test process."""

    # -- rate limits per client -------------------------------------------------------
    rate_limits: bool = True
    rate_limit_storage: str = "memory://"
    """Where counts are kept: ``memory://`` (per process) or any storage URI of the
    ``limits`` package shared by several servers (``redis://host:6379``)."""
    limit_default: str = "600/minute"
    """Every request of one client (pages, files and API)."""
    limit_play: str = "300/minute"
    """Moves, undos and restarts."""
    limit_create: str = "30/minute"
    """New games."""
    limit_solver: str = "30/minute"
    """Searches: hints and analyses that run the solver (a hint from the game's kept line
    runs none and counts only against ``limit_hint``)."""
    limit_hint: str = "300/minute"
    """Every hint, searched or not: what bounds the hints a client asks for, since those
    from the game's kept line cost no search, no solver quota and no solver share."""

    # -- players ---------------------------------------------------------------------
    limit_signup: str = "5/minute;30/hour"
    """New accounts from one client."""
    limit_login: str = "10/minute;60/hour"
    """Sign-in attempts from one client, whatever the names tried."""
    limit_login_name: str = "5/minute;30/hour"
    """Sign-in attempts for one player name from untrusted clients (any browser without
    a device cookie of that account) all together: password guessing."""
    limit_login_device: str = "5/minute;30/hour"
    """Sign-in attempts from one browser that signed in to the account before (its
    device cookie), counted apart from the name's: guesses from elsewhere lock no owner
    out, and a device cookie that tries too often is locked by itself."""
    altcha_max_number: int = Field(40_000, ge=100, le=10_000_000)
    """The proof of work a name under guessing asks of each sign-in (ALTCHA): the largest
    number a browser may have to try (half of it on average; see the README's figures:
    about a second on a phone)."""
    altcha_seconds: float = Field(300.0, ge=10, le=86400, allow_inf_nan=False)
    """How long a proof-of-work challenge may be solved and used (once)."""
    device_days: float = Field(365.0, gt=0, le=3650, allow_inf_nan=False)
    """A device cookie (the proof that a browser signed in to an account) lasts this long."""
    session_days: float = Field(30.0, gt=0, le=3650, allow_inf_nan=False)
    """A signed-in session ends after this many days without a visit."""
    guest_days: float = Field(365.0, gt=0, le=3650, allow_inf_nan=False)
    """A guest's session (this browser's games) lasts this many days without a visit;
    then it is purged (its games stay, reached by their ids)."""
    purge_minutes: float = Field(60.0, ge=0, le=10080, allow_inf_nan=False)
    """Expired sessions (and guest sessions that never kept a game, after an hour) are
    deleted this often, in small batches in the background (0: never)."""
    argon2_memory_kib: int = Field(65536, ge=1024, le=4 << 20)
    """Argon2id memory cost of a password hash (64 MiB; RFC 9106's second choice)."""
    argon2_time_cost: int = Field(3, ge=1, le=20)

    # -- observability ----------------------------------------------------------------
    metrics: bool = False
    """Serve Prometheus figures at ``/metrics`` (to loopback clients only)."""
    opentelemetry: bool = False
    """Let FastAPI report traces, metrics and logs to an OpenTelemetry SDK the operator
    configured (off: FastAPI would otherwise ask on every request whether one is)."""

    static_dir: Path = STATIC

    @field_validator("allowed_hosts", "trusted_origins", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                import json

                return json.loads(text)
            return [part.strip() for part in text.split(",") if part.strip()]
        return value

    @field_validator(
        "limit_default",
        "limit_play",
        "limit_create",
        "limit_solver",
        "limit_hint",
        "limit_signup",
        "limit_login",
        "limit_login_name",
        "limit_login_device",
    )
    @classmethod
    def _limits(cls, value: str) -> str:
        from limits import parse_many

        try:
            parse_many(value)
        except ValueError:
            raise ValueError(f"not a rate limit like '20/minute' or '5/second;120/minute': {value[:60]!r}") from None
        return value

    @field_validator("trusted_origins")
    @classmethod
    def _origins(cls, value: list[str]) -> list[str]:
        for origin in value:
            if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
                raise ValueError(f"an origin is scheme://host[:port], not {origin[:60]!r}")
        return [origin.lower() for origin in value]

    @property
    def threads(self) -> int:
        return self.solver_threads or 2

    def with_overrides(self, **overrides: Any) -> "Settings":
        """These settings with some fields changed (validated again)."""
        if not overrides:
            return self
        values = self.model_dump() | overrides
        return type(self).model_validate(values)


def problem(error: Exception) -> str:
    """A settings error as one line (for ``winnable serve``)."""
    from pydantic import ValidationError

    if isinstance(error, ValidationError):
        parts = []
        for item in error.errors()[:3]:
            where = ".".join(str(part) for part in item.get("loc", ()))
            parts.append(f"WINNABLE_{where.upper()}: {item.get('msg', 'invalid')}" if where else str(item.get("msg")))
        return "; ".join(parts)
    return str(error)
