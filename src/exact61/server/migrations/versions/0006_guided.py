"""A game that is the Learn page's guided match (`exact61.learn.guided`): a few rounds against
the easy bot from the tour's seed, over once its rounds are played, its hints saying why.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("guided", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:  # SQLite drops a column by copying the table
        batch.drop_column("guided")
