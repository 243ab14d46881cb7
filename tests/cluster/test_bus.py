"""The cluster's bus on a Redis server of its own, nodes in one process that record what they are told:
broadcasts reach every other node, the console's settings reach a node started later, a request
reaches the room's owner and brings back its answer (or its refusal, or that it does not hold the
room, or nothing in time), and after a Redis restart the nodes subscribe again and give Redis back
the settings it lost."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis
from support.cluster import RedisServer

from app.cluster.bus import ClusterBus, NoAnswer, NotHere
from app.cluster.node import ClusterUnavailable
from app.games.base import Rejection
from app.rooms.errors import RoomError

pytestmark = pytest.mark.slow

NOTICE = {"text": "Restart at noon", "at": "2030-01-01T11:00:00Z"}


class Recorder:
    """A node's actions, recorded; ``rooms`` are the rooms it holds (by id)."""

    def __init__(self, rooms: tuple[str, ...] = ()) -> None:
        self.notice: dict[str, Any] | None = None
        self.paused = False
        self.told: list[tuple[str, Any]] = []
        self.rooms = set(rooms)
        self.silent = False

    def revoke(self, token_hashes: list[str]) -> None:
        self.told.append(("revoke", token_hashes))

    def end_player(self, player_id: str) -> None:
        self.told.append(("suspend", player_id))

    def show_notice(self, notice: dict[str, Any] | None) -> None:
        self.notice = notice
        self.told.append(("notice", notice))

    def pause(self, paused: bool) -> None:
        self.paused = paused
        self.told.append(("pause", paused))

    def held(self, room_id: str) -> str | None:
        return room_id if room_id in self.rooms else None

    async def close_room(self, room: str, admin_id: str, reason: str) -> dict[str, Any]:
        if self.silent:
            await asyncio.sleep(3)
        if room == "finished":
            raise RoomError("the room is finished", code="room/finished")
        self.rooms.discard(room)
        return {"id": room, "closed_by": admin_id, "reason": reason}

    async def remove_player(self, room: str, player_id: str, admin_id: str, reason: str) -> dict[str, Any]:
        return {"id": room, "removed": player_id}


class Nodes:
    """Buses of one cluster (one prefix), each on a Redis client of its own, all stopped at the end."""

    def __init__(self, redis: RedisServer, stack: AsyncExitStack) -> None:
        self.redis = redis
        self.stack = stack
        self.prefix = f"bus-{time.monotonic_ns()}"

    async def start(self, node_id: str, recorder: Recorder | None = None) -> tuple[ClusterBus, Recorder]:
        client = Redis.from_url(self.redis.url, socket_timeout=2, socket_connect_timeout=2)
        self.stack.push_async_callback(client.aclose)
        recorder = recorder or Recorder()
        bus = ClusterBus(client, self.prefix, node_id, recorder)  # type: ignore[arg-type]
        await bus.start()
        self.stack.push_async_callback(bus.stop)
        return bus, recorder

    def listeners(self) -> int:
        return self.redis.listeners(f"{self.prefix}:bus")


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture
async def nodes(redis_server: RedisServer) -> AsyncIterator[Nodes]:
    async with AsyncExitStack() as stack:
        yield Nodes(redis_server, stack)


async def eventually(check: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.02)


async def test_every_other_node_hears_a_broadcast_once(nodes: Nodes) -> None:
    a, heard_a = await nodes.start("a")
    _, heard_b = await nodes.start("b")
    _, heard_c = await nodes.start("c")
    await a.revoke(["hash1", "hash2"])
    await a.suspend("player1")
    await a.set_paused(True)
    expected = [("revoke", ["hash1", "hash2"]), ("suspend", "player1"), ("pause", True)]
    await eventually(lambda: heard_b.told == expected and heard_c.told == expected)
    assert heard_a.told == [] and heard_b.paused is True


async def test_a_node_started_later_takes_the_notice_and_the_pause(nodes: Nodes) -> None:
    a, _ = await nodes.start("a")
    await a.set_notice(NOTICE)
    await a.set_paused(True)
    await a.set_paused(False)
    await a.set_paused(True)
    _, late = await nodes.start("late")
    assert (late.notice, late.paused) == (NOTICE, True)
    await a.set_notice(None)
    await eventually(lambda: late.notice is None)
    _, later = await nodes.start("later")
    assert (later.notice, later.paused, later.told) == (None, True, [("pause", True)])


async def test_a_request_reaches_the_owner_and_brings_back_its_answer(nodes: Nodes) -> None:
    a, _ = await nodes.start("a")
    await nodes.start("b", Recorder(rooms=("room1", "finished")))
    closed = await a.ask("b", "close_room", 5, room_id="room1", admin_id="admin1", reason="spam")
    assert closed == {"id": "room1", "closed_by": "admin1", "reason": "spam"}
    removed = await a.ask("b", "remove_player", 5, room_id="finished", player_id="p1", admin_id="admin1",
                          reason="rude")
    assert removed == {"id": "finished", "removed": "p1"}
    with pytest.raises(Rejection) as refused:
        await a.ask("b", "close_room", 5, room_id="finished", admin_id="admin1", reason="spam")
    assert (refused.value.code, refused.value.message) == ("room/finished", "the room is finished")
    with pytest.raises(NotHere):
        await a.ask("b", "close_room", 5, room_id="room1", admin_id="admin1", reason="again")
    started = time.monotonic()
    with pytest.raises(NotHere):
        await a.ask("nobody", "close_room", 5, room_id="room1", admin_id="admin1", reason="spam")
    assert time.monotonic() - started < 1


async def test_an_owner_that_does_not_answer_in_time(nodes: Nodes) -> None:
    a, _ = await nodes.start("a")
    _, owner = await nodes.start("b", Recorder(rooms=("room1",)))
    owner.silent = True
    started = time.monotonic()
    with pytest.raises(NoAnswer) as silent:
        await a.ask("b", "close_room", 1.5, room_id="room1", admin_id="admin1", reason="spam")
    assert silent.value.code == "cluster/no_answer"
    assert 1.4 < time.monotonic() - started < 3


async def test_after_a_redis_restart_the_bus_hears_again_and_gives_back_the_settings(
        nodes: Nodes) -> None:
    a, _ = await nodes.start("a")
    _, heard_b = await nodes.start("b")
    await a.set_notice(NOTICE)
    await eventually(lambda: heard_b.notice == NOTICE)
    nodes.redis.kill()
    with pytest.raises(ClusterUnavailable):
        await a.check()
    with pytest.raises(ClusterUnavailable):
        await a.suspend("player1")
    await asyncio.sleep(1.5)
    nodes.redis.start()
    await eventually(lambda: nodes.listeners() == 2, seconds=30)
    await a.check()
    await a.suspend("player2")
    await eventually(lambda: ("suspend", "player2") in heard_b.told)
    assert ("suspend", "player1") not in heard_b.told
    _, late = await nodes.start("late")
    assert late.notice == NOTICE
