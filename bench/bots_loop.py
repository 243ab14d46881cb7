"""Does a bot's thinking stall the server? ``python bench/bots_loop.py --rooms 6 --seconds 20``.

Runs tables of ``strong`` bots of every game through the real room layer (SQLite in a temporary
folder, no pauses), while a probe coroutine sleeps 1 ms again and again on the same event loop and
records how late it wakes up. The bots decide in a worker thread (``app/rooms/bots.py``); the lateness
is what every other connection of the process would feel.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from app.db import migrate
from app.db.session import close_engine, make_engine, make_sessionmaker
from app.db.store import Store
from app.rooms.connection import Connection
from app.rooms.manager import RoomManager
from app.rooms.occupant import Occupant
from app.rooms.room import Room
from app.rooms.timing import Timing

SEATS = {"hazari": 4, "azi": 4, "hasenpfeffer": 4}


async def bot_table(manager: RoomManager, store: Store, game: str, index: int) -> Room:
    owner, _ = await store.create_player(f"{game}-{index}", 1000)
    room = await manager.create(owner.id, game, {"turn_seconds": 0}, private=True)
    conn = Connection(owner.id, owner.name)
    room.connect(conn)
    await room.sit(conn, 0)
    for seat in range(1, SEATS[game]):
        await room.add_bot(conn, seat, "strong")
    await room.start(conn)
    room.seats[0] = Occupant(owner.id, owner.name, bot="strong")
    room.schedule()
    return room


async def probe(until: float, lateness: list[float]) -> None:
    while time.perf_counter() < until:
        start = time.perf_counter()
        await asyncio.sleep(0.001)
        lateness.append(time.perf_counter() - start - 0.001)


async def run(rooms_per_game: int, seconds: float) -> None:
    folder = Path(tempfile.mkdtemp())
    url = f"sqlite+aiosqlite:///{folder / 'bots.db'}"
    await asyncio.to_thread(migrate.upgrade, url)
    engine = make_engine(url)
    store = Store(make_sessionmaker(engine))
    manager = RoomManager(store, Timing(grace_period=3600), test_mode=False,
                          max_rooms_per_player=100)
    rooms = [await bot_table(manager, store, game, index)
             for game in SEATS for index in range(rooms_per_game)]
    lateness: list[float] = []
    steps_before = sum(room.seq for room in rooms)
    await probe(time.perf_counter() + seconds, lateness)
    steps = sum(room.seq for room in rooms) - steps_before
    await manager.close()
    await close_engine(engine)
    lateness.sort()
    p99 = lateness[int(len(lateness) * 0.99)]
    print(f"{len(rooms)} tables of strong bots ({rooms_per_game} per game), {seconds:.0f} s: "
          f"{steps} steps ({steps / seconds:.0f}/s)")
    print(f"event loop lateness: p50 {statistics.median(lateness) * 1000:.2f} ms, "
          f"p99 {p99 * 1000:.2f} ms, max {lateness[-1] * 1000:.2f} ms ({len(lateness)} probes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=2, help="tables per game")
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    asyncio.run(run(args.rooms, args.seconds))


if __name__ == "__main__":
    main()
