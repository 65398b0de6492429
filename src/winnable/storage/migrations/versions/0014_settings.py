"""A player's settings (issue 34): the display and sound settings a signed-in player
chose (four-colour deck, theme, card size, left-handed controls, sound), kept with the
account so that another browser gets them. A small JSON object of known keys, checked
by the API (``winnable.web.models.schemas.PlayerSettings``). Null: none chosen.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("settings", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("settings")
