"""Challenges: a deal with its settings sent to friends, each signed-in player ranked on
one attempt. ``challenges`` holds what is dealt (a deck order, never shown) and how
(undo rule, thinking time), keyed by a random token; ``challenge_attempts`` each
player's one ranked attempt (a game row), unique per challenge and account and per
challenge and digest of the name (a name deleted and made again gets no second
attempt); ``games.challenge`` marks a game that is a ranked attempt (hints and restarts
are refused in it).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("deal", sa.String(24), nullable=True),
        sa.Column("layout", sa.Text, nullable=False),
        sa.Column("undo_mode", sa.String(16), nullable=False),
        sa.Column("think_seconds", sa.Integer, nullable=True),
        sa.Column("creator_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("source_game", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_challenges_creator_id", "challenges", ["creator_id", "created_at"])
    op.create_table(
        "challenge_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("challenge_id", sa.String(32), sa.ForeignKey("challenges.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("challenge_id", "user_id", name="uq_challenge_attempts_player"),
        sa.UniqueConstraint("challenge_id", "name_key", name="uq_challenge_attempts_name"),
    )
    op.create_index("ix_challenge_attempts_user_id", "challenge_attempts", ["user_id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("challenge", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("challenge")
    op.drop_index("ix_challenge_attempts_user_id", table_name="challenge_attempts")
    op.drop_table("challenge_attempts")
    op.drop_index("ix_challenges_creator_id", table_name="challenges")
    op.drop_table("challenges")
