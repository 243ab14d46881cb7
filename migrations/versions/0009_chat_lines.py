"""table chat and reactions, kept with the room and its match

- ``chat_lines``: one row per chat line or reaction, with who said it (player, name, seat or null for
  a spectator) and when; ``match_id`` is null for a line said before the room's match started, and
  ``after_seq`` is how many steps of the match had been played when it was said (for the replay).

Revision ID: 0009
Revises: 0007
Create Date: 2026-12-02 19:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=True),
        sa.Column("after_seq", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(200), nullable=True),
        sa.Column("reaction", sa.String(20), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("(text IS NULL) <> (reaction IS NULL)", name="ck_chat_lines_text_or_reaction"),
    )
    op.create_index("ix_chat_lines_room", "chat_lines", ["room_id", "id"])
    op.create_index("ix_chat_lines_match", "chat_lines", ["match_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_lines_match", table_name="chat_lines")
    op.drop_index("ix_chat_lines_room", table_name="chat_lines")
    op.drop_table("chat_lines")
