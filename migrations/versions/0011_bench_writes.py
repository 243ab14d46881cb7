"""the durable baseline's rows, for the benchmark only

- ``bench_writes``: one row per frame the bench-only WebSocket ``/ws/bench/durable/{group}`` receives
  (served only with ``CARDROOM_BENCH_ENDPOINTS=1``, see ``bench/load.py``): the group the frame came
  from and when. No game, player or ledger row refers to it; it stays empty on a server that does not
  serve the bench endpoints, and may be emptied at any time.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03 12:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bench_writes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("group_id", sa.String(64), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bench_writes")
