"""Winnable in the browser: ``winnable serve`` starts it (FastAPI + uvicorn).

A game is its preset, its deal number and its moves, stored in SQLite (the user's data
folder by default) or any database SQLAlchemy speaks; the server replays the moves with
the rules, checks every new one, and answers hints and analyses with the engine.
The JSON API is documented at ``/docs`` on the running server.
"""

from __future__ import annotations

import os
import sys


def create_app(database_url: str | None = None, **settings):
    """The FastAPI app (see :func:`winnable.web.app.create_app`)."""
    from winnable.web.app import create_app as build

    return build(database_url, **settings)


def run(host: str = "127.0.0.1", port: int = 8000, database: str | None = None) -> None:
    """Migrate the database and serve the app until interrupted.

    Tuning comes from ``WINNABLE_*`` variables (see :class:`winnable.web.app.Settings`).
    """
    import uvicorn

    from winnable.web.app import Settings, create_app as build
    from winnable.web.db import default_database_url

    settings = Settings.from_env(database)
    url = settings.database_url or default_database_url()
    shown = url if "@" not in url else url.split("://", 1)[0] + "://...@" + url.rsplit("@", 1)[1]
    try:
        app = build(url, settings)
    except Exception as error:  # a bad URL, a missing driver, an unreachable server
        print(f"winnable: error: cannot use the database {shown}: {database_problem(error)}", file=sys.stderr)
        raise SystemExit(2) from None
    print(f"Winnable: http://{host}:{port}/  (API docs: /docs; database: {shown})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=os.environ.get("WINNABLE_LOG_LEVEL", "warning"))


def database_problem(error: Exception) -> str:
    """One line on why a database could not be opened."""
    import sqlalchemy.exc

    if isinstance(error, ModuleNotFoundError) and error.name in ("psycopg", "psycopg2"):
        return "its driver is not installed (pip install 'winnable[postgres]')"
    if isinstance(error, ModuleNotFoundError):
        return f"its driver is not installed (no module {error.name})"
    if isinstance(error, sqlalchemy.exc.NoSuchModuleError):
        return "unknown kind of database (use sqlite:///path or postgresql+psycopg://user@host/name)"
    if isinstance(error, sqlalchemy.exc.ArgumentError):
        return "not a database URL (use sqlite:///path or postgresql+psycopg://user@host/name)"
    if isinstance(error, sqlalchemy.exc.DBAPIError):
        return str(error.orig).strip().splitlines()[0] if error.orig else str(error).splitlines()[0]
    return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
