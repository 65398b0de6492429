"""Grades (issue 33): how hard a proved-winnable deal is, easy, medium, hard or expert
(:mod:`winnable.grading`), kept beside what the solver proved of it.

``verdicts.grade``: the grade of a won deal (null: not graded yet, such as a survey's
deals before the filler grades them; never set on a lost deal), with an index that
hands out an unused deal of one grade as cheaply as any unused deal.
``daily_deals.grade``: the grade the Daily of a game and day was drawn at (null: a Daily
drawn before this revision). ``games.grade``: the grade of the deal a game was dealt
from, written when it is dealt (what its state shows).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("verdicts") as batch:
        batch.add_column(sa.Column("grade", sa.String(8), nullable=True))
    op.create_index("ix_verdicts_game_grade_used", "verdicts", ["game", "verdict", "grade", "used_at", "id"])
    with op.batch_alter_table("daily_deals") as batch:
        batch.add_column(sa.Column("grade", sa.String(8), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("grade", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("grade")
    with op.batch_alter_table("daily_deals") as batch:
        batch.drop_column("grade")
    op.drop_index("ix_verdicts_game_grade_used", table_name="verdicts")
    with op.batch_alter_table("verdicts") as batch:
        batch.drop_column("grade")
