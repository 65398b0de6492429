"""Passwords are hashed in Unicode NFKC from now on. Hashes made before were made of the
password as typed: ``password_nfkc`` false marks them, so that sign-in checks such a
hash against the password as typed (as before) and, once it matches, stores the hash of
the normalised form and sets the mark (one hash verified per attempt either way).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("password_nfkc", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("password_nfkc")
