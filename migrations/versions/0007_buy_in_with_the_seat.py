"""the buy-in a player chose is stored with his seat, so a restart before the start keeps it

- ``room_seats.buy_in``: at a chip table, the table stack the seat brings when the match starts
  (a bot's is the table's largest buy-in); null when none was chosen, and at other tables.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("room_seats", sa.Column("buy_in", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("room_seats", "buy_in")
