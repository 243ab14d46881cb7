"""the rules about money are kept by the database: wallets that never go below zero, one chip seat
per player, a top-up at most once a period

- ``players.chips``: the player's balance, moved by a trigger on every row of ``chip_transfers`` in
  the transaction that writes the row, under ``ck_players_chips (chips >= 0)``: a move that would
  overdraw a wallet fails with its whole transaction. Balances already below zero are brought back
  to zero from the bank (a ``correction`` transfer) first.
- ``players.topped_up_at``: the last top-up, so that a top-up is one conditional update of the
  player's row.
- ``chip_seats``: the chip table (room) where a player holds a seat; the primary key on
  ``player_id`` lets a player hold at most one. Filled from the seats of unfinished Azi rooms; a
  trigger frees a room's chip seats when the room is finished, however that happens.
- ``ck_chip_transfers_amount (amount >= 0)``: a transfer goes one way only.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 21:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LEDGER_BALANCE = """
    (SELECT coalesce(sum(amount), 0) FROM chip_transfers WHERE target = 'player:' || players.id)
  - (SELECT coalesce(sum(amount), 0) FROM chip_transfers WHERE source = 'player:' || players.id)"""

POSTGRES_TRIGGER = ("""
CREATE FUNCTION chip_transfer_moves_wallets() RETURNS trigger AS $$
BEGIN
    IF substr(NEW.source, 1, 7) = 'player:' THEN
        UPDATE players SET chips = chips - NEW.amount WHERE id = substr(NEW.source, 8);
    END IF;
    IF substr(NEW.target, 1, 7) = 'player:' THEN
        UPDATE players SET chips = chips + NEW.amount WHERE id = substr(NEW.target, 8);
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql
""", """
CREATE TRIGGER tr_chip_transfers_wallets AFTER INSERT ON chip_transfers
    FOR EACH ROW EXECUTE FUNCTION chip_transfer_moves_wallets()
""")

SQLITE_TRIGGER = ("""
CREATE TRIGGER tr_chip_transfers_wallets AFTER INSERT ON chip_transfers
BEGIN
    UPDATE players SET chips = chips - NEW.amount
        WHERE substr(NEW.source, 1, 7) = 'player:' AND id = substr(NEW.source, 8);
    UPDATE players SET chips = chips + NEW.amount
        WHERE substr(NEW.target, 1, 7) = 'player:' AND id = substr(NEW.target, 8);
END
""",)


POSTGRES_FREEING = ("""
CREATE FUNCTION finished_room_frees_chip_seats() RETURNS trigger AS $$
BEGIN
    DELETE FROM chip_seats WHERE room_id = NEW.id;
    RETURN NULL;
END
$$ LANGUAGE plpgsql
""", """
CREATE TRIGGER tr_rooms_finished_chip_seats AFTER UPDATE OF status ON rooms
    FOR EACH ROW WHEN (NEW.status = 'finished') EXECUTE FUNCTION finished_room_frees_chip_seats()
""")

SQLITE_FREEING = ("""
CREATE TRIGGER tr_rooms_finished_chip_seats AFTER UPDATE OF status ON rooms
    WHEN NEW.status = 'finished'
BEGIN
    DELETE FROM chip_seats WHERE room_id = NEW.id;
END
""",)


def upgrade() -> None:
    _correct_overdrawn_wallets()
    op.execute("ALTER TABLE players ADD COLUMN chips INTEGER DEFAULT 0 NOT NULL "
               "CONSTRAINT ck_players_chips CHECK (chips >= 0)")
    op.add_column("players", sa.Column("topped_up_at", sa.DateTime(), nullable=True))
    op.execute(f"UPDATE players SET chips = {LEDGER_BALANCE}")
    op.execute("UPDATE players SET topped_up_at = (SELECT max(at) FROM chip_transfers "
               "WHERE kind = 'top_up' AND target = 'player:' || players.id)")
    with op.batch_alter_table("chip_transfers") as batch_op:
        batch_op.create_check_constraint("ck_chip_transfers_amount", "amount >= 0")
    postgres = op.get_bind().dialect.name == "postgresql"
    for statement in POSTGRES_TRIGGER if postgres else SQLITE_TRIGGER:
        op.execute(statement)
    op.create_table(
        "chip_seats",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"]),
        sa.PrimaryKeyConstraint("player_id"),
    )
    op.create_index("ix_chip_seats_room", "chip_seats", ["room_id"])
    for statement in POSTGRES_FREEING if postgres else SQLITE_FREEING:
        op.execute(statement)
    op.execute("INSERT INTO chip_seats (player_id, room_id) "
               "SELECT room_seats.player_id, min(rooms.id) FROM room_seats "
               "JOIN rooms ON rooms.id = room_seats.room_id "
               "WHERE rooms.game = 'azi' AND rooms.status != 'finished' "
               "AND room_seats.player_id IS NOT NULL GROUP BY room_seats.player_id")


def _correct_overdrawn_wallets() -> None:
    op.execute("INSERT INTO chip_transfers (source, target, amount, kind, at) "
               f"SELECT 'bank', 'player:' || players.id, -({LEDGER_BALANCE}), 'correction', "
               "CURRENT_TIMESTAMP FROM players "
               f"WHERE {LEDGER_BALANCE} < 0")


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    op.execute("DROP TRIGGER tr_rooms_finished_chip_seats" + (" ON rooms" if postgres else ""))
    if postgres:
        op.execute("DROP FUNCTION finished_room_frees_chip_seats()")
    op.drop_index("ix_chip_seats_room", table_name="chip_seats")
    op.drop_table("chip_seats")
    op.execute("DROP TRIGGER tr_chip_transfers_wallets" + (" ON chip_transfers" if postgres else ""))
    if postgres:
        op.execute("DROP FUNCTION chip_transfer_moves_wallets()")
    with op.batch_alter_table("chip_transfers") as batch_op:
        batch_op.drop_constraint("ck_chip_transfers_amount", type_="check")
    # ALTER TABLE ... DROP COLUMN, not a copy of the table, which stored foreign keys would refuse;
    # the check of ``chips`` goes with its column.
    op.drop_column("players", "topped_up_at")
    op.drop_column("players", "chips")
