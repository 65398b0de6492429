"""The hints' line, kept with each game: the winning line a player's hints follow (the
position it starts from and its moves), shared by every worker and kept across restarts,
so that following the hints wins and the moves to win never grow. Null: none yet.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("hint_line", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("hint_line")
