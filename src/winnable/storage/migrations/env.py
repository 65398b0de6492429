"""Alembic environment for Winnable's database (the web app's and the surveys' tables).

The server calls ``alembic upgrade head`` itself (:func:`winnable.storage.migrate.migrate`) and
passes its open connection in ``config.attributes["connection"]``. Run by hand, the
database URL comes from ``-x url=...`` or the ``WINNABLE_DATABASE`` variable.
"""

from __future__ import annotations

import os

import sqlalchemy as sa
from alembic import context

from winnable.storage.engine import default_database_url
from winnable.storage.tables import Base

target_metadata = Base.metadata


def run_with(connection: sa.Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        run_with(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get("WINNABLE_DATABASE")
    engine = sa.create_engine(url or default_database_url())
    with engine.begin() as own:
        run_with(own)
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("Winnable's migrations run online only (the server runs them on start).")
run_migrations_online()
