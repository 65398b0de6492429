# Alembic's scripts run only inside Alembic: keep pytest's doctest collection out of them.
collect_ignore = ["migrations"]
