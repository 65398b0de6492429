"""Redo (issue 32): the moves an undo took back, kept with the game until another move.

``games.redo``: a stack of the groups of moves undone (the last undone last), each group
what one undo took back: a move and the safe moves home that came with it. A redo plays
the last group again; any other move, a restart or a take-over empties it (null). Kept in
the row, so a redo works on any server, before and after a restart.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("redo", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("redo")
