"""Server keys: secrets every server on the database shares (the key that signs CSRF
tokens), made once by whichever server needs one first.

>>> from winnable.storage.engine import make_engine
>>> from winnable.storage.migrate import migrate
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> server_key(engine, "csrf") == server_key(engine, "csrf")
True
"""

from __future__ import annotations

from typing import cast

from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from winnable.storage.engine import utcnow, write_lock, writer
from winnable.storage.tables import ServerKey


def server_key(engine: Engine, name: str) -> str:
    """The shared secret ``name``: made (random) by the first server that asks, then
    read by every other, so that all workers and servers on the database agree."""
    import secrets

    from sqlalchemy.exc import IntegrityError

    with Session(engine) as session:
        row = session.get(ServerKey, name)
        if row is not None:
            return row.value
    try:
        with write_lock(engine), Session(writer(engine)) as session, session.begin():
            session.add(ServerKey(name=name, value=secrets.token_urlsafe(32), created_at=utcnow()))
    except IntegrityError:  # another server made it at the same moment: use theirs
        pass
    with Session(engine) as session:
        return cast(ServerKey, session.get(ServerKey, name)).value  # there now: ours or another server's
