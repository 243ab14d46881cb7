"""The rules about money hold under concurrent requests, on SQLite and on PostgreSQL, because the
database enforces them in the transaction that moves the chips: a wallet never goes below zero,
a player holds at most one chip seat, a top-up is granted once a period."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import func, select
from starlette.testclient import TestClient
from support import Client, make_settings, query

from app.db import migrate, models
from app.db.ids import now
from app.db.ledger import BANK, player_account
from app.db.step_rows import ChipMove, StepRecord
from app.db.store import Store
from app.games.base import Rejection
from app.main import create_app
from app.rooms.connection import Connection
from app.rooms.manager import RoomManager

TABLES = 5
PLAYERS = 10
TOP_UPS = 50


@pytest.fixture
def db_client(database_url: str) -> Iterator[TestClient]:
    """The app on each database, waiting as long as it takes for the write lock: fifty writes in
    flight together on SQLite queue for it, and the lock timeout has its own tests."""
    settings = make_settings(database_url, db_lock_timeout=120.0)
    with TestClient(create_app(settings, run_migrations=False)) as test_client:
        yield test_client


def broke_player(http: TestClient, name: str) -> Client:
    """A guest who lost all but 5 of his chips: below the top-up threshold."""
    player = Client(http, name)
    store: Store = http.app.state.store  # type: ignore[attr-defined]

    async def lose() -> None:
        async with store.sessions.begin() as session:
            session.add(models.ChipTransfer(source=player_account(player.id or ""), target=BANK,
                                            amount=995, kind="loss", at=now()))
    portal = http.portal
    assert portal is not None
    portal.call(lose)
    return player


def wallets(url: str, player_ids: list[str]) -> dict[str, tuple[int, int]]:
    """Each player's ``players.chips`` and his balance summed from the ledger."""
    result = {}
    for player_id in player_ids:
        account = player_account(player_id)
        incoming = query(url, select(func.coalesce(func.sum(models.ChipTransfer.amount), 0))
                         .where(models.ChipTransfer.target == account))[0][0]
        outgoing = query(url, select(func.coalesce(func.sum(models.ChipTransfer.amount), 0))
                         .where(models.ChipTransfer.source == account))[0][0]
        chips = query(url, select(models.Player.chips).where(models.Player.id == player_id))[0][0]
        result[player_id] = (chips, incoming - outgoing)
    return result


def check_wallets(url: str, player_ids: list[str]) -> None:
    for player_id, (chips, ledger) in wallets(url, player_ids).items():
        assert chips == ledger >= 0, f"player {player_id}: wallet {chips}, ledger {ledger}"


async def sit_everywhere(rooms: RoomManager, room_ids: list[str],
                         players: list[Client]) -> list[tuple[Client, str, str | None]]:
    """Every player sits at every table at once (seat = his number, so seats never clash): one
    ``sit`` per player and table, all in flight together. Returns (player, room, error code)."""
    async def sit(player: Client, seat: int, room_id: str) -> tuple[Client, str, str | None]:
        try:
            await rooms.get(room_id).sit(Connection(player.id, player.name), seat)
        except Rejection as refusal:
            return player, room_id, refusal.code
        return player, room_id, None
    return await asyncio.gather(*(sit(player, seat % 6, room_id)
                                  for seat, player in enumerate(players) for room_id in room_ids))


def test_concurrent_sits_give_a_player_one_chip_table(db_client: TestClient, database_url: str) -> None:
    """50 ``sit`` requests in flight together, 10 players at 5 Azi tables: each player is seated at
    exactly one table, every other request is refused with ``room/busy_elsewhere``."""
    owner = Client(db_client, "Owner")
    room_ids = [owner.create_room("azi") for _ in range(TABLES)]
    players = [Client(db_client, f"P{number}") for number in range(PLAYERS)]
    rooms: RoomManager = db_client.app.state.rooms  # type: ignore[attr-defined]
    portal = db_client.portal
    assert portal is not None
    outcomes = portal.call(sit_everywhere, rooms, room_ids, players)
    assert len(outcomes) == TABLES * PLAYERS
    for player in players:
        mine = [(room_id, code) for who, room_id, code in outcomes if who is player]
        seated = [room_id for room_id, code in mine if code is None]
        assert len(seated) == 1, f"{player.name} was seated at {len(seated)} chip tables"
        refused = Counter(code for _, code in mine if code is not None)
        assert set(refused) <= {"room/busy_elsewhere", "room/seat_taken"}, refused
        held = [room_id for room_id in room_ids if rooms.get(room_id).seat_of(player.id) is not None]
        assert held == seated
        assert query(database_url, select(models.ChipSeat.room_id)
                     .where(models.ChipSeat.player_id == player.id)) == [(seated[0],)]
        stored = query(database_url, select(models.RoomSeat.room_id)
                       .where(models.RoomSeat.player_id == player.id))
        assert stored == [(seated[0],)]
    check_wallets(database_url, [player.id for player in players if player.id])


def test_concurrent_top_ups_are_granted_once(db_client: TestClient, database_url: str) -> None:
    """50 ``POST /api/players/{id}/top-up`` in flight together: one is granted, the 49 others get
    ``chips/not_needed`` or ``chips/too_soon``, and the wallet holds the starting chips once."""
    poor = broke_player(db_client, "Poor")
    start = threading.Barrier(TOP_UPS)

    def top_up(_: int) -> tuple[int, Any]:
        start.wait()
        response = db_client.post(f"/api/players/{poor.id}/top-up", headers=poor.auth)
        return response.status_code, response.json()

    with ThreadPoolExecutor(TOP_UPS) as pool:
        answers = list(pool.map(top_up, range(TOP_UPS)))
    granted = [body for status, body in answers if status == 200]
    refused = Counter(body["error"]["code"] for status, body in answers if status == 400)
    assert len(granted) == 1 and granted[0]["chips"] == 1000
    assert sum(refused.values()) == TOP_UPS - 1
    assert set(refused) <= {"chips/not_needed", "chips/too_soon"}, refused
    assert db_client.get(f"/api/players/{poor.id}").json()["chips"] == 1000
    assert poor.id is not None
    check_wallets(database_url, [poor.id])
    top_ups = query(database_url, select(models.ChipTransfer.amount)
                    .where(models.ChipTransfer.kind == "top_up",
                           models.ChipTransfer.target == player_account(poor.id)))
    assert top_ups == [(995,)]


def test_no_top_up_while_holding_a_chip_seat(db_client: TestClient, database_url: str) -> None:
    """Seated at a chip table (its match not yet started), a player's chips are his stake there:
    the top-up is refused with ``chips/at_table`` and changes nothing; standing up frees it."""
    poor, owner = broke_player(db_client, "Poor"), Client(db_client, "Owner")
    room_id = owner.create_room("azi", {"stake": 5, "min_buy_in": 1})
    with poor.connected(room_id):
        poor.send({"type": "sit", "seat": 0})
        poor.state_where(lambda m: m["room"]["seats"][0]["player_id"] == poor.id)
        response = db_client.post(f"/api/players/{poor.id}/top-up", headers=poor.auth)
        assert response.status_code == 400 and response.json()["error"]["code"] == "chips/at_table"
        assert db_client.get(f"/api/players/{poor.id}").json()["chips"] == 5
        poor.send({"type": "stand"})
        poor.state_where(lambda m: m["room"]["seats"][0]["player_id"] is None)
    response = db_client.post(f"/api/players/{poor.id}/top-up", headers=poor.auth)
    assert response.status_code == 200 and response.json()["chips"] == 1000
    assert poor.id is not None
    check_wallets(database_url, [poor.id])


def test_the_database_refuses_a_step_that_overdraws_a_wallet(db_client: TestClient,
                                                              database_url: str) -> None:
    """A step that would put more of a player's chips into a pot than he holds fails as a whole,
    by the database's check, on the path the server writes steps by, and is refused with
    ``chips/insufficient``."""
    player = Client(db_client, "Player")
    assert player.id is not None
    store: Store = db_client.app.state.store  # type: ignore[attr-defined]
    overdraw = StepRecord("a-match", chips=[ChipMove(player_account(player.id), -1001, "bet", 1, 1)])
    portal = db_client.portal
    assert portal is not None
    with pytest.raises(Rejection) as refusal:
        portal.call(store.record_step, overdraw)
    assert refusal.value.code == "chips/insufficient"
    check_wallets(database_url, [player.id])
    assert db_client.get(f"/api/players/{player.id}").json()["chips"] == 1000
    assert query(database_url, select(models.ChipTransfer.id)
                 .where(models.ChipTransfer.match_id == "a-match")) == []


def test_the_migration_fills_wallets_and_chip_seats_from_the_ledger(tmp_path: Path) -> None:
    """Upgrading a database in which the old holes left a player overdrawn and seated at two chip
    tables: his wallet is brought back to zero from the bank (``correction``), every other wallet
    is its ledger balance, and he keeps one chip seat."""
    path = tmp_path / "old.db"
    config = migrate.alembic_config(f"sqlite+aiosqlite:///{path}")
    command.upgrade(config, "0004")
    with sqlite3.connect(path) as db:
        for player in ("broke", "rich"):
            db.execute("INSERT INTO players (id, name, token_hash, created_at) "
                       "VALUES (?, ?, ?, '2026-01-01 00:00:00')", (player, player, player))
        for source, target, amount in (("bank", "player:broke", 1000), ("bank", "player:rich", 1000),
                                       ("player:broke", "player:rich", 2000)):
            db.execute("INSERT INTO chip_transfers (source, target, amount, kind, at) "
                       "VALUES (?, ?, ?, 'grant', '2026-01-01 00:00:00')", (source, target, amount))
        for room in ("r1", "r2"):
            db.execute("INSERT INTO rooms (id, game, options, private, owner_id, status, created_at) "
                       "VALUES (?, 'azi', '{}', 0, 'rich', 'open', '2026-01-01 00:00:00')", (room,))
            db.execute("INSERT INTO room_seats (room_id, seat, player_id) VALUES (?, 0, 'broke')", (room,))
    command.upgrade(config, "head")
    with sqlite3.connect(path) as db:
        chips = db.execute("SELECT id, chips FROM players ORDER BY id").fetchall()
        corrections = db.execute("SELECT target, amount FROM chip_transfers "
                                 "WHERE kind = 'correction'").fetchall()
        seats = db.execute("SELECT player_id, room_id FROM chip_seats").fetchall()
    assert chips == [("broke", 0), ("rich", 3000)]
    assert corrections == [("player:broke", 1000)]
    assert seats == [("broke", "r1")]
