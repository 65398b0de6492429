"""Leases in the database: work that must run once per database (the pool's filler),
whatever the number of worker processes and machines, is done by the holder of a named
lease. A holder renews its lease well before it expires; a holder that dies stops
renewing, and another takes the lease over once it has expired.

>>> from winnable.storage.engine import make_engine
>>> from winnable.storage.migrate import migrate
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> acquire(engine, "filler", "server-a", seconds=30), acquire(engine, "filler", "server-b", seconds=30)
(True, False)
>>> acquire(engine, "filler", "server-a", seconds=30)   # renewing
True
>>> release(engine, "filler", "server-a"); acquire(engine, "filler", "server-b", seconds=30)
True
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from winnable.storage.engine import as_utc, utcnow, write_lock, writer
from winnable.storage.tables import Lease


def acquire(engine: Engine, name: str, holder: str, seconds: float) -> bool:
    """Take or renew the lease ``name`` for ``holder`` for ``seconds``; False if another
    holder has it and it has not expired."""
    now = utcnow()
    until = now + dt.timedelta(seconds=seconds)
    try:
        with write_lock(engine), Session(writer(engine)) as session, session.begin():
            row = session.scalars(select(Lease).where(Lease.name == name).with_for_update()).first()
            if row is None:
                session.add(Lease(name=name, holder=holder, expires_at=until))
                return True
            if row.holder != holder and as_utc(row.expires_at) > now:
                return False
            row.holder, row.expires_at = holder, until
            return True
    except (IntegrityError, OperationalError):  # another took it at the same moment
        return False


def release(engine: Engine, name: str, holder: str) -> None:
    """Give the lease up (if ``holder`` has it), so another may take it at once."""
    with write_lock(engine), Session(writer(engine)) as session, session.begin():
        session.execute(delete(Lease).where(Lease.name == name, Lease.holder == holder))


def holder(engine: Engine, name: str) -> str | None:
    """Who holds the lease now (None if nobody, or it expired)."""
    with Session(engine) as session:
        row = session.get(Lease, name)
        return row.holder if row is not None and as_utc(row.expires_at) > utcnow() else None
