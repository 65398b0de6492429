"""The schema's history: Alembic's migrations (``winnable/storage/migrations``), run by
:func:`migrate` every time a server starts and by ``winnable survey --database``.

Revision ids and their order are the databases' history: a database made by any
earlier version upgrades to the newest schema.

>>> from winnable.storage.engine import make_engine
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> schema_revision(engine) is not None
True
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from winnable.storage.engine import write_lock

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(connection: sa.Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def migrate(engine: Engine) -> None:
    """Bring the database to the newest schema (``alembic upgrade head``)."""
    from alembic import command

    # Several workers or servers may start at once: one migrates, the others wait and
    # then find the schema current.
    with write_lock(engine), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7281500913)")
        command.upgrade(alembic_config(connection), "head")


def schema_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
