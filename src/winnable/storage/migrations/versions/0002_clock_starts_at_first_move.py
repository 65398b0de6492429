"""The clock starts with the first move: games.started_at is empty until then.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.alter_column("started_at", existing_type=sa.DateTime(timezone=True), nullable=True)
    # Games with no move yet had their clock set at creation: stop it until they start.
    op.execute("UPDATE games SET started_at = NULL WHERE CAST(moves AS TEXT) = '[]' AND finished_at IS NULL")


def downgrade() -> None:
    op.execute("UPDATE games SET started_at = created_at WHERE started_at IS NULL")
    with op.batch_alter_table("games") as batch:
        batch.alter_column("started_at", existing_type=sa.DateTime(timezone=True), nullable=False)
