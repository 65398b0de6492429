"""One verdicts table for surveys and the web app: winnable_deals moves into verdicts.

Every deal the pool had proved becomes a ``won`` verdict (source ``pool``, its line,
positions, time and whether it was dealt); surveys and the filler add the rest.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

BATCH = 1000


def upgrade() -> None:
    verdicts = op.create_table(
        "verdicts",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("deal", sa.String(24), nullable=False),
        sa.Column("verdict", sa.String(8), nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("line", sa.JSON, nullable=False),
        sa.Column("positions", sa.BigInteger, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("cpu_seconds", sa.Float, nullable=True),
        sa.Column("budget_nodes", sa.BigInteger, nullable=True),
        sa.Column("budget_seconds", sa.Float, nullable=True),
        sa.Column("engine", sa.String(64), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("game", "deal", name="uq_verdicts_game_deal"),
    )
    op.create_index("ix_verdicts_game_verdict_used", "verdicts", ["game", "verdict", "used_at", "id"])
    op.create_index("ix_verdicts_game_verdict_id", "verdicts", ["game", "verdict", "id"])
    old = sa.table(
        "winnable_deals",
        sa.column("id", sa.Integer),
        sa.column("game", sa.String),
        sa.column("deal", sa.String),
        sa.column("line", sa.JSON),
        sa.column("positions", sa.BigInteger),
        sa.column("seconds", sa.Float),
        sa.column("created_at", sa.DateTime(timezone=True)),
        sa.column("used_at", sa.DateTime(timezone=True)),
    )
    connection = op.get_bind()
    last = -1
    while True:  # in batches, in the pool's order, so that the oldest are dealt first still
        rows = connection.execute(sa.select(old).where(old.c.id > last).order_by(old.c.id).limit(BATCH)).mappings().all()
        if not rows:
            break
        last = rows[-1]["id"]
        connection.execute(
            verdicts.insert(),
            [
                {
                    "game": row["game"],
                    "deal": row["deal"],
                    "verdict": "won",
                    "moves": len(row["line"] or []),
                    "line": list(row["line"] or []),
                    "positions": row["positions"] or 0,
                    "seconds": row["seconds"] or 0.0,
                    "cpu_seconds": None,
                    "budget_nodes": None,
                    "budget_seconds": None,
                    "engine": "",
                    "source": "pool",
                    "created_at": row["created_at"],
                    "used_at": row["used_at"],
                }
                for row in rows
            ],
        )
    op.drop_table("winnable_deals")


def downgrade() -> None:
    pool = op.create_table(
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
    verdicts = sa.table(
        "verdicts",
        sa.column("id", sa.Integer),
        sa.column("game", sa.String),
        sa.column("deal", sa.String),
        sa.column("verdict", sa.String),
        sa.column("line", sa.JSON),
        sa.column("positions", sa.BigInteger),
        sa.column("seconds", sa.Float),
        sa.column("created_at", sa.DateTime(timezone=True)),
        sa.column("used_at", sa.DateTime(timezone=True)),
    )
    connection = op.get_bind()
    last = -1
    while True:
        rows = (
            connection.execute(
                sa.select(verdicts).where(verdicts.c.id > last, verdicts.c.verdict == "won").order_by(verdicts.c.id).limit(BATCH)
            )
            .mappings()
            .all()
        )
        if not rows:
            break
        last = rows[-1]["id"]
        connection.execute(
            pool.insert(),
            [{key: row[key] for key in ("game", "deal", "line", "positions", "seconds", "created_at", "used_at")} for row in rows],
        )
    op.drop_index("ix_verdicts_game_verdict_id", "verdicts")
    op.drop_index("ix_verdicts_game_verdict_used", "verdicts")
    op.drop_table("verdicts")
