"""The Daily is dealt from a secret deck order, not a deal number: ``daily_deals`` and
``games`` keep a ``layout`` (the cards in dealing order, :class:`winnable.decks.Deck`'s
notation) where a deal number was, and ``deal`` may be null for such a game. Each
Daily attempt keeps a digest of its player's name (``name_key``), unique per game and
day, so that a name plays a Daily once whatever happens to the account. Attempts made
before this revision get the digest of their player's name.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import datetime as dt
import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.alter_column("deal", existing_type=sa.String(24), nullable=True)
        batch.add_column(sa.Column("layout", sa.Text, nullable=True))
    with op.batch_alter_table("daily_deals") as batch:
        batch.alter_column("deal", existing_type=sa.String(24), nullable=True)
        batch.add_column(sa.Column("layout", sa.Text, nullable=True))
    with op.batch_alter_table("daily_attempts") as batch:
        batch.add_column(sa.Column("name_key", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_daily_attempts_name", ["game", "day", "name_key"])
    connection = op.get_bind()
    rows = connection.execute(
        sa.text("SELECT daily_attempts.id, users.name_key FROM daily_attempts JOIN users ON users.id = daily_attempts.user_id")
    ).all()
    for attempt, name_key in rows:  # the same digest as winnable.web.players.daily.name_digest
        connection.execute(
            sa.text("UPDATE daily_attempts SET name_key = :key WHERE id = :id"),
            {"key": hashlib.sha256(name_key.encode("utf-8")).hexdigest(), "id": attempt},
        )
    # Today's Dailies that are deal numbers and nobody has started yet are drawn again,
    # as deck orders, when next asked for (one already started stays what it is).
    connection.execute(
        sa.text(
            "DELETE FROM daily_deals WHERE day >= :today AND NOT EXISTS (SELECT 1 FROM daily_attempts "
            "WHERE daily_attempts.game = daily_deals.game AND daily_attempts.day = daily_deals.day)"
        ),
        {"today": dt.datetime.now(dt.timezone.utc).date()},
    )


def downgrade() -> None:
    with op.batch_alter_table("daily_attempts") as batch:
        batch.drop_constraint("uq_daily_attempts_name", type_="unique")
        batch.drop_column("name_key")
    op.execute("DELETE FROM daily_deals WHERE deal IS NULL")
    with op.batch_alter_table("daily_deals") as batch:
        batch.drop_column("layout")
        batch.alter_column("deal", existing_type=sa.String(24), nullable=False)
    op.execute("DELETE FROM games WHERE deal IS NULL")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("layout")
        batch.alter_column("deal", existing_type=sa.String(24), nullable=False)
