"""Storage: the database every part of Winnable shares, below the web app and the surveys.

What lives here, one module each:

- :mod:`~winnable.storage.engine`: the database URL (SQLite in the user's data folder by
  default), the engine, SQLite's one writer at a time (:func:`~winnable.storage.engine.write_lock`)
  and why a database cannot be opened;
- :mod:`~winnable.storage.tables`: the tables (games, players, sessions, Dailies, leases,
  server keys), the schema Alembic's migrations build;
- :mod:`~winnable.storage.migrate` and ``migrations/``: the schema's history (Alembic),
  run when a server starts and by ``winnable survey --database``;
- :mod:`~winnable.storage.verdicts`: the verdicts table, what the solver proved about each
  deal, written by surveys and the web app's filler;
- :mod:`~winnable.storage.leases`: work one process runs per database;
- :mod:`~winnable.storage.keys`: secrets every server on the database shares;
- :mod:`~winnable.storage.statements`: statements run straight on DBAPI cursors, for the
  web app's hot paths.

Storage imports the rules (the engine's version, for the verdicts table) and never the
web app nor the surveys: both import it (the import contract in ``pyproject.toml``,
checked by ``lint-imports`` in ``make test``).
"""
