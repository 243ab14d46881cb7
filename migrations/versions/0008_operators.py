"""the operator's console: admins, suspensions, the audit log of operators' actions, players' reports

- ``players.admin``: the player may use the operator's console (``/api/admin``); granted and revoked
  on the server's command line only (``cardroom admin grant NAME``).
- ``suspensions``: a player barred from signing in and from the tables, why, by whom, since when and,
  once lifted, when and by whom. At most one suspension of a player is in force (not lifted).
- ``audit_log``: every operator's action: who (null for the command line), what, on which player or
  room, why and when, written in the transaction of the action's own change.
- ``reports``: a player's report of another, with the match context the server recorded (room, match,
  seat) and the chat line it is about, if any.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 19:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("players", sa.Column("admin", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "suspensions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("by_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("lifted_at", sa.DateTime(), nullable=True),
        sa.Column("lifted_by_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
    )
    op.create_index("ix_suspensions_player", "suspensions", ["player_id", "lifted_at"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("actor_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("target_player_id", sa.String(32), nullable=True),
        sa.Column("target_room_id", sa.String(32), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_audit_log_at", "audit_log", ["at", "id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reported_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("chat_text", sa.String(500), nullable=True),
        sa.Column("chat_at", sa.DateTime(), nullable=True),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_reports_at", "reports", ["at", "id"])


def downgrade() -> None:
    op.drop_index("ix_reports_at", "reports")
    op.drop_table("reports")
    op.drop_index("ix_audit_log_at", "audit_log")
    op.drop_table("audit_log")
    op.drop_index("ix_suspensions_player", "suspensions")
    op.drop_table("suspensions")
    # A plain ALTER TABLE (SQLite 3.35+ has DROP COLUMN): a batch copy of ``players`` would drop the
    # table that other tables' foreign keys point at.
    op.drop_column("players", "admin")
