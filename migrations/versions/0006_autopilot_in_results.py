"""who played each seat at the end of a match, and how many decisions the autopilot made for it

- ``actions.autopilot``: the decision was the autopilot's, made for a person who was away or too
  slow (a bot's own decisions are not counted).
- ``match_seats.played_by`` (``player``, ``autopilot`` or ``bot``: who held the seat when the match
  ended) and ``match_seats.autopilot_decisions``, written when the match finishes. A seat the
  autopilot held at the end was abandoned: it wins nothing and gains no rating.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 21:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("actions", sa.Column("autopilot", sa.Boolean(), nullable=False,
                                       server_default=sa.false()))
    op.add_column("match_seats", sa.Column("played_by", sa.String(length=12), nullable=True))
    op.add_column("match_seats", sa.Column("autopilot_decisions", sa.Integer(), nullable=True))


def downgrade() -> None:
    """``ALTER TABLE ... DROP COLUMN``, not copies of tables that stored foreign keys would refuse."""
    op.drop_column("match_seats", "autopilot_decisions")
    op.drop_column("match_seats", "played_by")
    op.drop_column("actions", "autopilot")
