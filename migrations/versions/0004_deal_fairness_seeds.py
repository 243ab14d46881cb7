"""each deal keeps its server seed, the commitment published before it and the client seeds

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 12:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("deals") as batch_op:
        batch_op.add_column(sa.Column("server_seed", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("commitment", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("client_seeds", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("deals") as batch_op:
        batch_op.drop_column("client_seeds")
        batch_op.drop_column("commitment")
        batch_op.drop_column("server_seed")
