"""Players: accounts and sessions, the Daily (its deals and attempts), and what every
game records for scores and statistics (owner, hints used, timed play, cards left).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.UniqueConstraint("name_key", name="uq_users_name_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=True),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.Column("seen_at", MOMENT, nullable=False),
        sa.Column("expires_at", MOMENT, nullable=False),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_index("ix_sessions_expires_at", "sessions", ["expires_at"])
    op.create_table(
        "daily_deals",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("deal", sa.String(24), nullable=False),
        sa.Column("created_at", MOMENT, nullable=False),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.UniqueConstraint("game", "day", "user_id", name="uq_daily_attempts_player"),
        sa.UniqueConstraint("game_id", name="uq_daily_attempts_game_id"),
    )
    op.create_index("ix_daily_attempts_user_id", "daily_attempts", ["user_id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("user_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("guest", sa.String(64), nullable=True))
        batch.add_column(sa.Column("hints_used", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("move_count", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("cards_left", sa.Integer, nullable=True))
        batch.add_column(sa.Column("think_seconds", sa.Integer, nullable=True))
        batch.add_column(sa.Column("last_move_at", MOMENT, nullable=True))
        batch.add_column(sa.Column("timed_out_at", MOMENT, nullable=True))
        batch.add_column(sa.Column("daily_day", sa.Date, nullable=True))
        batch.create_index("ix_games_user_id", ["user_id"])
        batch.create_index("ix_games_guest", ["guest"])
    # Games stored before: their move count from their moves (cards left stay unknown).
    length = "json_array_length(moves)" if op.get_bind().dialect.name in ("sqlite", "postgresql") else None
    if length is not None:
        op.execute(f"UPDATE games SET move_count = {length}")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_guest")
        batch.drop_index("ix_games_user_id")
        for column in (
            "daily_day",
            "timed_out_at",
            "last_move_at",
            "think_seconds",
            "cards_left",
            "move_count",
            "hints_used",
            "guest",
            "user_id",
        ):
            batch.drop_column(column)
    op.drop_table("daily_attempts")
    op.drop_table("daily_deals")
    op.drop_table("sessions")
    op.drop_table("users")
