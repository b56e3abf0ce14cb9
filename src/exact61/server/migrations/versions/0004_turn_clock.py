"""A game's turn clock: the seconds a person has for each move, the bot that plays for a person
whose time ran out, and the seats it plays for now.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("clock", sa.Integer, nullable=True))
    op.add_column("games", sa.Column("stand_in", sa.String(40), nullable=True))
    op.add_column("games", sa.Column("away", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:  # SQLite drops a column by copying the table
        batch.drop_column("away")
        batch.drop_column("stand_in")
        batch.drop_column("clock")
