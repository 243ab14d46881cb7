"""The database refuses a room's writes from a server that no longer owns the room: the steps of a
room carry the fence their writer holds, a trigger refuses a stale one (``RoomFenced``, nothing of the
step stored), the room's own writes check it too, and taking a room over waits for a step that has
passed its check, so the new owner reads every step the old one stored. On SQLite and on
PostgreSQL, and the migration goes down and up again on both."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import pytest
from alembic import command
from sqlalchemy import inspect, select, text, update
from sqlalchemy.engine import Connection
from support import query
from support.db import open_store, running_match

from app.db import migrate, models
from app.db.fencing import RoomFenced
from app.db.ids import new_id, now
from app.db.ledger import player_account
from app.db.session import close_engine, make_engine
from app.db.step_rows import ChipMove, DealtDeck, LoggedAction, StepRecord, StepRows
from app.db.store import SeatRow, Store

FENCED_TABLES = ("rooms", "actions", "deals")
TRIGGERS = {"tr_actions_fence", "tr_deals_fence"}


@dataclass(frozen=True)
class Table:
    """A room with a running match and a player of it."""

    room_id: str
    match_id: str
    player_id: str


@dataclass
class Tables:
    """Rooms with running matches whose logs are no game's: finished after the test, so that no
    server that starts on the session's database rebuilds them."""

    store: Store
    made: list[str] = field(default_factory=list)

    async def new(self) -> Table:
        table = Table(*await running_match(self.store))
        self.made.append(table.room_id)
        return table

    async def finish(self) -> None:
        async with self.store.sessions.begin() as session:
            await session.execute(update(models.Room).where(models.Room.id.in_(self.made))
                                  .values(status="finished"))


@asynccontextmanager
async def finished_after(store: Store) -> AsyncIterator[Tables]:
    made = Tables(store)
    try:
        yield made
    finally:
        await made.finish()


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    async with open_store(database_url) as store:
        yield store


@pytest.fixture
async def tables(store: Store) -> AsyncIterator[Tables]:
    async with finished_after(store) as made:
        yield made


@pytest.fixture
async def postgres_tables(postgres_url: str) -> AsyncIterator[Tables]:
    async with open_store(postgres_url) as store, finished_after(store) as made:
        yield made


def fenced_step(table: Table, seq: int, fence: int, result: dict[str, Any] | None = None) -> StepRecord:
    """A step that deals deal ``seq``, logs one action and puts 10 of the player's chips in the pot."""
    return StepRecord(
        table.match_id, fence=fence, result=result,
        deals=[DealtDeck(number=seq, deck=["AS"], server_seed=None, commitment=None, client_seeds=None)],
        actions=[LoggedAction(seq=seq, deal=seq, seat=0, action={"kind": "fold"}, ref=f"r{seq}", at=now())],
        chips=[ChipMove(player_account(table.player_id), -10, "ante", seq, seq)])


async def stored(store: Store, table: Table) -> tuple[list[int], list[int], int]:
    """The seqs of the match's actions, the numbers of its deals, and how many chip transfers it has."""
    async with store.sessions() as session:
        actions = list(await session.scalars(select(models.Action.seq)
                                             .where(models.Action.match_id == table.match_id)
                                             .order_by(models.Action.seq)))
        deals = list(await session.scalars(select(models.Deal.number)
                                           .where(models.Deal.match_id == table.match_id)
                                           .order_by(models.Deal.number)))
        transfers = list(await session.scalars(select(models.ChipTransfer.id)
                                               .where(models.ChipTransfer.match_id == table.match_id)))
    return actions, deals, len(transfers)


async def test_a_step_with_the_current_fence_is_stored(store: Store, tables: Tables) -> None:
    table = await tables.new()
    await store.record_step(fenced_step(table, 1, fence=0))
    assert await stored(store, table) == ([1], [1], 1)
    async with store.sessions() as session:
        action = await session.get(models.Action, (table.match_id, 1))
        deal = await session.get(models.Deal, (table.match_id, 1))
    assert action is not None and deal is not None
    assert (action.fence, deal.fence) == (0, 0)


@pytest.mark.parametrize("result", [None, {"winners": [0]}], ids=["step", "last_step"])
async def test_after_a_take_over_a_step_with_the_old_fence_is_refused_whole(
        store: Store, tables: Tables, result: dict[str, Any] | None) -> None:
    """On PostgreSQL a step is written straight through asyncpg, the match's last step through
    SQLAlchemy: both refusals are recognised."""
    table = await tables.new()
    await store.record_step(fenced_step(table, 1, fence=0))
    assert await store.take_room(table.room_id) == 1
    with pytest.raises(RoomFenced) as refusal:
        await store.record_step(fenced_step(table, 2, fence=0, result=result))
    assert refusal.value.code == "room/moved"
    assert await stored(store, table) == ([1], [1], 1)
    assert await store.balance(player_account(table.player_id)) == 90
    await store.record_step(fenced_step(table, 2, fence=1))
    assert await stored(store, table) == ([1, 2], [1, 2], 2)


async def test_an_action_alone_with_the_old_fence_is_refused(store: Store, tables: Tables) -> None:
    table = await tables.new()
    await store.take_room(table.room_id)
    alone = fenced_step(table, 1, fence=0)
    alone.deals, alone.chips = [], []
    with pytest.raises(RoomFenced):
        await store.record_step(alone)
    assert await stored(store, table) == ([], [], 0)


async def test_a_stale_room_fails_alone_in_a_shared_transaction(
        store: Store, tables: Tables, caplog: pytest.LogCaptureFixture) -> None:
    rooms = [await tables.new() for _ in range(6)]
    stale = rooms[2]
    await store.take_room(stale.room_id)
    with caplog.at_level(logging.WARNING, logger="app.db.group_commit"):
        writes = (store.record_step(fenced_step(table, 1, fence=0)) for table in rooms)
        results = await asyncio.gather(*writes, return_exceptions=True)
    assert "a transaction of 6 writes failed" in caplog.text, "the six steps shared one transaction"
    assert isinstance(results[2], RoomFenced)
    assert [result for index, result in enumerate(results) if index != 2] == [None] * 5
    for table in rooms:
        assert await stored(store, table) == (([], [], 0) if table is stale else ([1], [1], 1))


async def test_the_room_writes_with_a_stale_fence_change_nothing(store: Store, tables: Tables) -> None:
    table = await tables.new()
    await store.take_room(table.room_id)
    with pytest.raises(RoomFenced):
        await store.save_room_seats(table.room_id, [SeatRow(bot="random"), SeatRow()], 7, fence=0)
    with pytest.raises(RoomFenced):
        await store.set_room_status(table.room_id, "finished", fence=0)
    match = models.Match(id=new_id(), room_id=table.room_id, game="azi", options={}, first_dealer=0,
                         stacks=None, status="running", started_at=now(), finished_at=None, result=None)
    with pytest.raises(RoomFenced):
        await store.start_match(match, [], StepRecord(match.id, fence=0), 7, held=[], fence=0)
    saved = await store.saved_room(table.room_id)
    assert saved is not None and saved.match is not None
    assert (saved.room.status, saved.room.version, saved.room.match_id, saved.room.fence) == (
        "playing", 1, table.match_id, 1)
    assert [seat.bot for seat, _name in saved.seats] == [None, None]
    async with store.sessions() as session:
        assert await session.get(models.Match, match.id) is None
    await store.save_room_seats(table.room_id, [SeatRow(bot="random"), SeatRow()], 2, fence=1)
    saved = await store.saved_room(table.room_id)
    assert saved is not None and saved.room.version == 2


async def test_only_an_unfinished_room_is_taken_or_read_for_a_rebuild(store: Store, tables: Tables) -> None:
    table = await tables.new()
    await store.record_step(fenced_step(table, 1, fence=0))
    assert [await store.take_room(table.room_id) for _ in range(3)] == [1, 2, 3]
    saved = await store.saved_room(table.room_id)
    assert saved is not None and saved.room.fence == 3
    assert [action.seq for action in saved.actions] == [1] and [deal.number for deal in saved.deals] == [1]
    await store.set_room_status(table.room_id, "finished", fence=3)
    assert await store.take_room(table.room_id) is None
    assert await store.saved_room(table.room_id) is None
    assert await store.take_room("no-such-room") is None
    assert await store.saved_room("no-such-room") is None


@asynccontextmanager
async def own_connection(url: str) -> AsyncIterator[asyncpg.Connection]:
    """A connection to the database besides the store's."""
    connection = await asyncpg.connect(url.replace("+asyncpg", ""))
    try:
        yield connection
    finally:
        await connection.close()


async def waits(task: asyncio.Future[Any], seconds: float = 0.5) -> bool:
    """Whether ``task`` is still waiting after ``seconds``."""
    done, _ = await asyncio.wait([task], timeout=seconds)
    return not done


@pytest.mark.postgres
async def test_a_take_over_waits_for_a_step_that_passed_its_check(postgres_url: str,
                                                                   postgres_tables: Tables) -> None:
    """A step's transaction has inserted its rows (the check passed) and is still open: the new
    owner's ``take_room`` waits for it; once it commits the fence is raised, and the new owner's read
    of the log has the step."""
    store, table = postgres_tables.store, await postgres_tables.new()
    async with own_connection(postgres_url) as step, step.transaction():
        for statement in StepRows.of([fenced_step(table, 1, fence=0)]).postgres_statements():
            await step.executemany(statement.sql, statement.arguments)
        taking = asyncio.ensure_future(store.take_room(table.room_id))
        assert await waits(taking), "take_room went ahead of a step that passed its check"
    assert await taking == 1, "the step committed, then the fence was raised"
    saved = await store.saved_room(table.room_id)
    assert saved is not None and [action.seq for action in saved.actions] == [1]


@pytest.mark.postgres
async def test_a_step_checked_during_a_take_over_waits_and_is_refused(postgres_url: str,
                                                                      postgres_tables: Tables) -> None:
    """The fence is being raised in a transaction still open: a step of the old owner waits for it,
    then sees the new fence and is refused."""
    store, table = postgres_tables.store, await postgres_tables.new()
    async with own_connection(postgres_url) as owner, owner.transaction():
        await owner.execute("UPDATE rooms SET fence = fence + 1 WHERE id = $1", table.room_id)
        writing = asyncio.ensure_future(store.record_step(fenced_step(table, 1, fence=0)))
        assert await waits(writing), "the step did not wait for the fence being raised"
    with pytest.raises(RoomFenced):
        await writing
    assert await stored(store, table) == ([], [], 0)


# --- the migration ---------------------------------------------------------------------------


def fenced_columns_and_triggers(url: str) -> tuple[dict[str, bool], set[str]]:
    """Which of the tables have a ``fence`` column, and the fencing triggers."""
    def columns(connection: Connection) -> dict[str, bool]:
        found = inspect(connection)
        return {table: "fence" in {column["name"] for column in found.get_columns(table)}
                for table in FENCED_TABLES}

    async def run() -> tuple[dict[str, bool], set[str]]:
        engine = make_engine(url)
        try:
            async with engine.connect() as connection:
                fenced = await connection.run_sync(columns)
                names = ("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
                         if engine.dialect.name == "postgresql"
                         else "SELECT name FROM sqlite_master WHERE type = 'trigger'")
                triggers = set((await connection.execute(text(names))).scalars())
        finally:
            await close_engine(engine)
        return fenced, triggers & TRIGGERS
    return asyncio.run(run())


def test_the_migration_goes_down_and_up_again_keeping_the_rows(own_database: str) -> None:
    async def a_played_step() -> str:
        async with open_store(own_database) as store:
            table = Table(*await running_match(store))
            await store.take_room(table.room_id)
            await store.record_step(fenced_step(table, 1, fence=1))
            return table.match_id
    match_id = asyncio.run(a_played_step())
    fenced, unfenced = {table: True for table in FENCED_TABLES}, {table: False for table in FENCED_TABLES}
    assert fenced_columns_and_triggers(own_database) == (fenced, TRIGGERS)
    config = migrate.alembic_config(own_database)
    command.downgrade(config, "0011")
    assert fenced_columns_and_triggers(own_database) == (unfenced, set())
    logged = text("SELECT seq FROM actions WHERE match_id = :match").bindparams(match=match_id)
    assert query(own_database, logged) == [(1,)]
    command.upgrade(config, "head")
    assert fenced_columns_and_triggers(own_database) == (fenced, TRIGGERS)
    assert query(own_database, select(models.Action.seq, models.Action.fence)
                 .where(models.Action.match_id == match_id)) == [(1, 0)]
    assert query(own_database, select(models.Room.fence)
                 .join(models.Match, models.Match.room_id == models.Room.id)
                 .where(models.Match.id == match_id)) == [(0,)]
