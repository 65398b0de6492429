"""Winnable in the browser: ``winnable serve`` starts it (FastAPI + uvicorn).

A game is its preset, its deal number and its moves, stored in SQLite (the user's data
folder by default) or any database SQLAlchemy speaks; the server replays the moves with
the rules, checks every new one, and answers hints and analyses with the engine.
The JSON API is documented at ``/docs`` on the running server.

The package is in rooms, each folder's ``__init__`` saying what lives there: ``routes/``
(one router per resource), ``models/`` (the API's JSON), ``players/`` (accounts, the
Daily, statistics), ``play/`` (games, positions, the solver's answers), ``security/``
(the gate, CSRF, limits, passwords), ``pages/`` (templates, scripts, languages); at the
top the wiring: ``app.py``, ``settings.py``, ``deps.py``, ``errors.py``.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI


def create_app(database_url: str | None = None, **settings: Any) -> FastAPI:
    """The FastAPI app (see :func:`winnable.web.app.create_app`)."""
    from winnable.web.app import create_app as build

    return build(database_url, **settings)


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | None = None,
    workers: int = 1,
    allowed_hosts: list[str] | None = None,
    metrics: bool | None = None,
    forwarded_allow_ips: str | None = None,
    limit_concurrency: int = 1000,
    solver_scheduler: str | None = None,
) -> None:
    """Migrate the database and serve the app until interrupted, in ``workers`` processes.

    Settings come from ``WINNABLE_*`` variables (see :class:`winnable.web.settings.Settings`);
    the arguments here (``winnable serve``'s flags) win over them. The one
    :class:`~winnable.web.settings.Settings` object made here is handed to the app (and,
    serialised whole, to each worker process).
    """
    import tempfile

    import uvicorn

    from winnable.storage.engine import database_problem, default_database_url, make_engine
    from winnable.storage.keys import server_key
    from winnable.storage.migrate import migrate
    from winnable.web.protocol import HttpProtocol
    from winnable.web.settings import LOOPBACK_HOSTS, SETTINGS_VARIABLE, Settings, problem

    overrides: dict[str, Any] = {}
    if database:
        overrides["database_url"] = database
    if allowed_hosts:
        overrides["allowed_hosts"] = allowed_hosts
    elif "WINNABLE_ALLOWED_HOSTS" not in os.environ:
        if host in ("0.0.0.0", "::", ""):
            print(
                "winnable: note: listening on every address and answering any Host header; "
                "name the site with --allowed-host NAME (DNS rebinding)",
                file=sys.stderr,
            )
            overrides["allowed_hosts"] = ["*"]
        else:
            overrides["allowed_hosts"] = sorted(set(LOOPBACK_HOSTS + [host.strip("[]")]))
    if metrics is not None:
        overrides["metrics"] = metrics
    if solver_scheduler:
        overrides["solver_scheduler"] = solver_scheduler
    try:
        settings = Settings(**overrides)  # the flags win over the WINNABLE_* environment
        url = settings.database_url or default_database_url()
        settings = settings.with_overrides(database_url=url)
    except Exception as error:
        print(f"winnable: error: {problem(error)}", file=sys.stderr)
        raise SystemExit(2) from None
    shown = url if "@" not in url else url.split("://", 1)[0] + "://...@" + url.rsplit("@", 1)[1]
    try:
        engine = make_engine(url)
        if workers > 1 and engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:"):
            print(
                "winnable: error: several workers need a database they can share (a file or PostgreSQL), not an in-memory SQLite",
                file=sys.stderr,
            )
            raise SystemExit(2)
        migrate(engine)
        server_key(engine, "csrf")
        engine.dispose()
    except SystemExit:
        raise
    except Exception as error:  # a bad URL, a missing driver, an unreachable server
        print(f"winnable: error: cannot use the database {shown}: {database_problem(error)}", file=sys.stderr)
        raise SystemExit(2) from None
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": os.environ.get("WINNABLE_LOG_LEVEL", "warning"),
        "access_log": os.environ.get("WINNABLE_LOG_LEVEL", "warning").lower() in ("info", "debug", "trace"),
        "server_header": False,
        "http": HttpProtocol,  # each response in one send (see winnable.web.protocol)
        "proxy_headers": forwarded_allow_ips is not None,
        "forwarded_allow_ips": forwarded_allow_ips or "",
        "limit_concurrency": limit_concurrency,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        # uvicorn kills a worker that does not answer its supervisor within 5 s: on a
        # busy machine a worker starting up (imports) or under a burst misses that, is
        # restarted, starts up again under the same load... and drops every request.
        "timeout_worker_healthcheck": 60,
    }
    print(
        f"Winnable: http://{host}:{port}/  (API docs: /docs; database: {shown}; {workers} worker{'s' if workers != 1 else ''})", flush=True
    )
    if workers <= 1:
        from winnable.web.app import create_app as build

        uvicorn.run(build(url, settings), **options)
        return
    if settings.metrics and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        import atexit
        import shutil

        folder = tempfile.mkdtemp(prefix="winnable-metrics-")  # the workers' figures, summed at /metrics
        atexit.register(shutil.rmtree, folder, True)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    # Worker processes are started by uvicorn from an import string: the settings object
    # travels to them whole, serialised in one variable (read back by ``app_from_env``).
    os.environ[SETTINGS_VARIABLE] = settings.model_dump_json()
    uvicorn.run("winnable.web.app:app_from_env", factory=True, workers=workers, **options)
