"""the language a player chose for the interface

- ``players.language``: the code of the language the player chose in the header (``en``, ``bn``,
  ...), null until he chooses one; a claimed account brings it to every browser it signs in from.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03 07:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("players", sa.Column("language", sa.String(16), nullable=True))


def downgrade() -> None:
    op.drop_column("players", "language")
