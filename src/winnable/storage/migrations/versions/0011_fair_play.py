"""Fair play (issue 30): the server's time of every move, and a deadline for every
challenge.

``games.move_times``: milliseconds from the game's clock start (``started_at``) to each
stored move, one per move, written by the server when the move is stored (never sent by
a client); what tells a person's pace from a bot's (:mod:`winnable.web.play.pace`). Null
for a game stored before this revision (its pace is unknown and not judged).

``challenges.closes_at``: when the challenge closes. While it is open no game of its
cards gets the solver's help; afterwards its copies are ordinary games. Challenges made
before this revision close one lifetime after they were made.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

LIFETIME = dt.timedelta(days=7)
"""As :data:`winnable.web.players.challenges.LIFETIME` when this revision was written."""


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("move_times", sa.JSON(), nullable=True))
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True))
    challenges = sa.table(
        "challenges",
        sa.column("id", sa.String),
        sa.column("created_at", sa.DateTime(timezone=True)),
        sa.column("closes_at", sa.DateTime(timezone=True)),
    )
    connection = op.get_bind()
    for token, created in connection.execute(sa.select(challenges.c.id, challenges.c.created_at)).all():
        connection.execute(challenges.update().where(challenges.c.id == token).values(closes_at=created + LIFETIME))
    with op.batch_alter_table("challenges") as batch:
        batch.alter_column("closes_at", existing_type=sa.DateTime(timezone=True), nullable=False)
    op.create_index("ix_challenges_closes_at", "challenges", ["closes_at"])


def downgrade() -> None:
    op.drop_index("ix_challenges_closes_at", table_name="challenges")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("closes_at")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("move_times")
