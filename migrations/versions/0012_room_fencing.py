"""the database refuses the steps of a room from a server that no longer owns it

- ``rooms.fence``: the fencing number of the room's current owner; a server that takes the room over
  raises it by one (``UPDATE rooms SET fence = fence + 1``).
- ``actions.fence`` and ``deals.fence``: the fence the server that wrote the row held.
- A trigger before each insert into ``actions`` and ``deals`` refuses a row whose fence is not its
  room's (the room of the row's match), with the message ``room fenced: a newer owner holds this
  room``. On PostgreSQL it reads the room's row ``FOR SHARE``: raising the fence waits for a step
  that has passed the check until it commits, and a step checked after the raise committed sees the
  new fence, so the new owner reads every step the old one stored and no later one.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FENCED = "room fenced: a newer owner holds this room"
TABLES = ("rooms", "actions", "deals")
STEP_TABLES = ("actions", "deals")

POSTGRES_CHECK = f"""
CREATE FUNCTION step_row_holds_fence() RETURNS trigger AS $$
DECLARE
    room_fence integer;
BEGIN
    SELECT rooms.fence INTO room_fence FROM matches JOIN rooms ON rooms.id = matches.room_id
        WHERE matches.id = NEW.match_id FOR SHARE OF rooms;
    IF room_fence <> NEW.fence THEN
        RAISE EXCEPTION '{FENCED}' USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql
"""

POSTGRES_TRIGGER = """
CREATE TRIGGER tr_{table}_fence BEFORE INSERT ON {table}
    FOR EACH ROW EXECUTE FUNCTION step_row_holds_fence()
"""

SQLITE_TRIGGER = """
CREATE TRIGGER tr_{table}_fence BEFORE INSERT ON {table}
    WHEN NEW.fence <> (SELECT rooms.fence FROM matches JOIN rooms ON rooms.id = matches.room_id
                       WHERE matches.id = NEW.match_id)
BEGIN
    SELECT RAISE(ABORT, '{fenced}');
END
"""


def upgrade() -> None:
    for table in TABLES:
        op.add_column(table, sa.Column("fence", sa.Integer(), nullable=False, server_default="0"))
    postgres = op.get_bind().dialect.name == "postgresql"
    if postgres:
        op.execute(POSTGRES_CHECK)
    for table in STEP_TABLES:
        op.execute((POSTGRES_TRIGGER if postgres else SQLITE_TRIGGER).format(table=table, fenced=FENCED))


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for table in STEP_TABLES:
        op.execute(f"DROP TRIGGER tr_{table}_fence" + (f" ON {table}" if postgres else ""))
    if postgres:
        op.execute("DROP FUNCTION step_row_holds_fence()")
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35+), not a batch copy: dropping the copied ``rooms``
    # would break the foreign keys that point at it.
    for table in reversed(TABLES):
        op.drop_column(table, "fence")
