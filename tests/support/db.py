"""The database under the tests: a store of its own, match steps, backdated and archived matches."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

from sqlalchemy import event, select, update

from app.db import models
from app.db.ids import new_id, now
from app.db.ledger import player_account
from app.db.session import close_engine, make_engine, make_sessionmaker
from app.db.step_rows import ChipMove, LoggedAction, StepRecord
from app.db.store import Store

COMMITS: list[str] = []


@asynccontextmanager
async def open_store(url: str) -> AsyncIterator[Store]:
    engine = make_engine(url)
    event.listen(engine.sync_engine, "commit", lambda _conn: COMMITS.append(url))
    store = Store(make_sessionmaker(engine))
    try:
        yield store
    finally:
        await store.close()
        await close_engine(engine)


async def running_match(store: Store) -> tuple[str, str, str]:
    """A player, a room and a running match of his; returns the room, the match and the player.
    The match's log is no game's: finish the room before a server may start on this database."""
    player, _token = await store.create_player("Writer", starting_chips=100)
    room = models.Room(id=new_id(), game="azi", options={}, private=True, owner_id=player.id,
                       status="open", match_id=None, created_at=now(), version=0, test_setup=None)
    await store.create_room(room, seats=2)
    match = models.Match(id=new_id(), room_id=room.id, game="azi", options={}, first_dealer=0,
                         stacks=None, status="running", started_at=now(), finished_at=None, result=None)
    await store.start_match(match, [], StepRecord(match.id), version=1, held=[], fence=room.fence)
    return room.id, match.id, player.id


async def new_match(store: Store) -> tuple[str, str]:
    """A running match of a player's in a room already finished; returns the match and the player."""
    room_id, match_id, player_id = await running_match(store)
    # Its log is no game's: the room must not be rebuilt by a server that starts on this database.
    await store.set_room_status(room_id, "finished", fence=0)
    return match_id, player_id


def step(match_id: str, seq: int, player_id: str | None = None) -> StepRecord:
    record = StepRecord(match_id, actions=[LoggedAction(seq=seq, deal=1, seat=0, action={"kind": "fold"},
                                                        ref=f"r{seq}", at=now())])
    if player_id is not None:
        record.chips.append(ChipMove(player_account(player_id), -10, "ante", 1, seq))
    return record


BIN = Path(sys.executable).parent

OLD_DAYS = 100


def backdate(url: str, match_ids: list[str], days: int) -> None:
    """The matches started and finished ``days`` earlier than they did."""
    async def run() -> None:
        engine = make_engine(url)
        shift = timedelta(days=days)
        try:
            async with engine.begin() as connection:
                matches = await connection.execute(select(models.Match.id, models.Match.started_at,
                                                          models.Match.finished_at)
                                                   .where(models.Match.id.in_(match_ids)))
                for match_id, started_at, finished_at in matches.all():
                    assert finished_at is not None, match_id
                    await connection.execute(update(models.Match).where(models.Match.id == match_id).values(
                        started_at=started_at - shift, finished_at=finished_at - shift))
                    await connection.execute(update(models.MatchSeat).where(
                        models.MatchSeat.match_id == match_id).values(finished_at=finished_at - shift))
        finally:
            await close_engine(engine)
    asyncio.run(run())


def archive(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "cardroom"), "archive", *args], capture_output=True, text=True,
                          env={"CARDROOM_DATABASE_URL": url, "PATH": str(BIN)}, check=False)
