"""Games (preset, deal, moves) and the pool of proved-winnable deals.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("deal", sa.String(24), nullable=False),
        sa.Column("undo_mode", sa.String(16), nullable=False),
        sa.Column("undo_used", sa.Integer, nullable=False),
        sa.Column("moves", sa.JSON, nullable=False),
        sa.Column("winnable_deal", sa.Boolean, nullable=False),
        sa.Column("restarts", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
    )
    op.create_index("ix_games_game", "games", ["game"])
    op.create_table(
        "winnable_deals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("deal", sa.String(24), nullable=False),
        sa.Column("line", sa.JSON, nullable=False),
        sa.Column("positions", sa.BigInteger, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("game", "deal", name="uq_winnable_deals_game_deal"),
    )
    op.create_index("ix_winnable_deals_game", "winnable_deals", ["game"])
    op.create_index("ix_winnable_deals_used_at", "winnable_deals", ["used_at"])


def downgrade() -> None:
    op.drop_table("winnable_deals")
    op.drop_table("games")
