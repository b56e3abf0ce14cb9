"""Indexes for closing the games nobody makes a move in (`Database.expire_untouched`): the games
by their status and when they were made, and each game's actions by when they were made, so
that neither the games still playing nor a game's actions are read one by one.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("games_expiry", "games", ["status", "created_at"])
    op.create_index("actions_expiry", "actions", ["game_id", "created_at"])


def downgrade() -> None:
    op.drop_index("actions_expiry", table_name="actions")
    op.drop_index("games_expiry", table_name="games")
