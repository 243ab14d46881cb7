"""The operator's console and signing out everywhere in a cluster of two nodes, for real (``cardroom
serve`` subprocesses on one PostgreSQL database and a Redis of the test's own): whichever node an
operator's request reaches, it lists the rooms of every node, closes a room and removes a player at
the node that holds the room (the audit row written once), suspends a player and signs one out on
every node, and posts the notice and pauses new rooms on every node, a node started later included.
Redis restarted, the nodes hear one another again."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from support.accounts import PASSWORD
from support.cluster import Cluster, ClusterNode, http, new_player, running_cluster
from support.live import PROJECT, LiveServer
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.db.session import close_engine

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

Message = dict[str, Any]
REASON = {"reason": "testing the console in a cluster"}


@pytest.fixture
async def cluster(cluster_database: str, tmp_path: Path) -> AsyncIterator[Cluster]:
    with running_cluster(cluster_database, tmp_path, count=2) as running:
        yield running


class Socket:
    """A room socket to one node, signed in with an ``auth`` message unless a spectator."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[Message] = []

    @classmethod
    async def open(cls, node: LiveServer, room_id: str, token: str | None = None) -> Socket:
        ws = await connect(
            f"{node.base.replace('http', 'ws', 1)}/ws/rooms/{room_id}", open_timeout=10, ping_interval=None
        )
        if token is not None:
            await ws.send(json.dumps({"type": "auth", "token": token}))
        return cls(ws)

    async def send(self, message: Message) -> None:
        await self.ws.send(json.dumps(message))

    async def until(self, wanted: Callable[[Message], bool], seconds: float = 20) -> Message:
        deadline = time.monotonic() + seconds
        while True:
            message: Message = json.loads(
                await asyncio.wait_for(self.ws.recv(), timeout=max(0.01, deadline - time.monotonic()))
            )
            self.received.append(message)
            if wanted(message):
                return message

    async def state(self, wanted: Callable[[Message], bool]) -> Message:
        return await self.until(lambda message: message["type"] == "state" and wanted(message))

    async def closing(self, seconds: float = 20) -> tuple[Message, int]:
        """The last error frame before the server closed the socket, and the close code."""
        try:
            while True:
                await self.until(lambda message: False, seconds)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            errors = [message for message in self.received if message["type"] == "error"]
            return errors[-1], closed.rcvd.code


def grant_admin(node: LiveServer) -> tuple[str, str]:
    """A player made an admin on the command line: his id and token."""
    admin_id, token = new_player(node.base, "Operator")
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "admin", "grant", admin_id],
        cwd=PROJECT,
        env=node.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return admin_id, token


async def room_held_by(
    cluster: Cluster, node: ClusterNode, name: str, private: bool = False, seat: int = 0
) -> tuple[str, str, str, Socket]:
    """A Hazari room made through ``node`` by a player seated at ``seat`` whose socket is on ``node``,
    which holds the room: the room's id, the player's id and token, and his socket."""
    player_id, token = new_player(node.base, name)
    room_id = node.post("/api/rooms", {"game": "hazari", "private": private}, token)["id"]
    socket = await Socket.open(node, room_id, token)
    await socket.send({"type": "sit", "seat": seat})
    await socket.state(lambda state: state["room"]["seats"][seat]["player_id"] == player_id)
    assert cluster.wait_owner(room_id) == node.node_id
    return room_id, player_id, token, socket


async def audit_rows(database_url: str, action: str, room_id: str) -> int:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            counted = await connection.scalar(
                text("SELECT count(*) FROM audit_log WHERE action = :action AND target_room_id = :room"),
                {"action": action, "room": room_id},
            )
            return int(counted or 0)
    finally:
        await close_engine(engine)


async def eventually(read: Callable[[], Any], wanted: Callable[[Any], bool], seconds: float = 20) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if wanted(value):
            return value
        assert time.monotonic() < deadline, value
        await asyncio.sleep(0.2)


def live_rooms(node: LiveServer, token: str) -> dict[str, Message]:
    response = http(node.base, "GET", "/api/admin/rooms", token)
    assert response.status_code == 200, response.text
    return {room["id"]: room for room in response.json()["rooms"]}


def notice_heard(message: Message) -> bool:
    return message["type"] == "notice" and message["code"] == "operator/notice"


async def test_an_operator_lists_every_node_and_removes_and_closes_at_the_rooms_owner(
    cluster: Cluster,
) -> None:
    here, there = cluster.nodes
    _, admin = grant_admin(here)
    mine, _, _, _ = await room_held_by(cluster, here, "Anna")
    theirs, owner_id, _, owner = await room_held_by(cluster, there, "Boris", private=True)
    rude_id, rude_token = new_player(there.base, "Rude")
    rude = await Socket.open(there, theirs, rude_token)
    await rude.send({"type": "sit", "seat": 1})
    await owner.state(lambda state: state["room"]["seats"][1]["player_id"] == rude_id)
    await Socket.open(there, theirs)
    listed = await eventually(
        lambda: live_rooms(here, admin),
        lambda rooms: (
            theirs in rooms and rooms[theirs]["spectators"] == 1 and rooms[theirs]["seats"][1]["connected"]
        ),
    )
    assert (listed[mine]["node"], listed[theirs]["node"]) == ("node0", "node1")
    assert (listed[theirs]["private"], listed[theirs]["phase"], listed[theirs]["owner"]) == (
        True,
        "waiting",
        owner_id,
    )
    assert listed[theirs]["seats"][1] == {
        "seat": 1,
        "player_id": rude_id,
        "name": "Rude",
        "bot": False,
        "connected": True,
    }
    assert live_rooms(there, admin).keys() >= {mine, theirs}

    removed = http(
        here.base, "POST", f"/api/admin/rooms/{theirs}/remove", admin, {"player_id": rude_id, **REASON}
    )
    assert removed.status_code == 200, removed.text
    assert removed.json()["seats"][1]["player_id"] is None and removed.json()["node"] == "node1"
    refusal, code = await rude.closing()
    assert (code, refusal["code"]) == (4410, "room/removed")
    await owner.state(lambda state: state["room"]["seats"][1]["player_id"] is None)
    assert await audit_rows(cluster.database_url, "remove_player", theirs) == 1
    again = http(
        here.base, "POST", f"/api/admin/rooms/{theirs}/remove", admin, {"player_id": rude_id, **REASON}
    )
    assert (again.status_code, again.json()["error"]["code"]) == (400, "room/player_not_here")

    for seat in (1, 2, 3):
        await owner.send({"type": "add_bot", "seat": seat})
    await owner.state(lambda state: all(seat["player_id"] or seat["bot"] for seat in state["room"]["seats"]))
    await owner.send({"type": "start"})
    started = await owner.state(lambda state: state["view"]["phase"] == "arranging")
    closed = http(here.base, "POST", f"/api/admin/rooms/{theirs}/close", admin, REASON)
    assert closed.status_code == 200, closed.text
    assert (closed.json()["status"], closed.json()["node"]) == ("finished", "node1")
    await owner.state(lambda state: state["room"]["status"] == "finished")
    told = await owner.until(lambda message: message["type"] == "notice")
    assert told["code"] == "operator/closed"
    assert await audit_rows(cluster.database_url, "close_room", theirs) == 1
    match = http(here.base, "GET", f"/api/matches/{started['room']['match_id']}").json()
    assert match["status"] == "closed" and match["result"] is None
    twice = http(here.base, "POST", f"/api/admin/rooms/{theirs}/close", admin, REASON)
    assert (twice.status_code, twice.json()["error"]["code"]) == (409, "room/finished")
    assert await audit_rows(cluster.database_url, "close_room", theirs) == 1
    assert theirs not in live_rooms(here, admin) and mine in live_rooms(here, admin)
    unknown = http(here.base, "POST", "/api/admin/rooms/nosuchroom/close", admin, REASON)
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "room/not_found")


async def test_a_suspension_and_a_sign_out_everywhere_close_sockets_on_the_other_node(
    cluster: Cluster,
) -> None:
    here, there = cluster.nodes
    _, admin = grant_admin(here)
    room_id, cheat_id, _, cheat = await room_held_by(cluster, there, "Cheat")
    suspended = http(here.base, "POST", f"/api/admin/players/{cheat_id}/suspend", admin, REASON)
    assert suspended.status_code == 204, suspended.text
    refusal, code = await cheat.closing()
    assert (code, refusal["code"]) == (4403, "auth/suspended")

    member_id, member_token = new_player(there.base, "Member")
    claimed = http(
        there.base, "POST", f"/api/players/{member_id}/claim", member_token, {"password": PASSWORD}
    )
    assert claimed.status_code == 200, claimed.text
    member = await Socket.open(there, room_id, member_token)
    await member.until(lambda message: message["type"] == "authenticated")
    signed_out = http(here.base, "DELETE", "/api/sessions", member_token)
    assert signed_out.status_code == 204, signed_out.text
    refusal, code = await member.closing()
    assert (code, refusal["code"]) == (4401, "auth/revoked")


async def test_the_notice_and_the_pause_reach_every_node_and_one_started_later(
    cluster: Cluster, tmp_path: Path
) -> None:
    here, there = cluster.nodes
    _, admin = grant_admin(here)
    _, _, maker_token, watcher = await room_held_by(cluster, there, "Watcher")
    posted = http(here.base, "PUT", "/api/admin/notice", admin, {"text": "Restart at noon", **REASON})
    assert posted.status_code == 200, posted.text
    notice = await watcher.until(notice_heard)
    assert (notice["text"], notice["at"]) == ("Restart at noon", posted.json()["at"])
    paused = http(here.base, "PUT", "/api/admin/pause", admin, {"paused": True, **REASON})
    assert paused.json() == {"paused": True}
    refused = http(there.base, "POST", "/api/rooms", maker_token, {"game": "azi"})
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "room/creation_paused")
    assert http(there.base, "GET", "/api/admin/rooms", admin).json()["paused"] is True

    late = ClusterNode(
        cluster.database_url, tmp_path / "late.log", cluster.redis.url, cluster.prefix, "late", 1.5
    )
    try:
        await asyncio.to_thread(late.start)
        seen = http(late.base, "GET", "/api/admin/rooms", admin).json()
        assert (seen["paused"], seen["notice"]) == (True, posted.json())
        assert http(late.base, "POST", "/api/rooms", maker_token, {"game": "azi"}).status_code == 409
        resumed = http(here.base, "PUT", "/api/admin/pause", admin, {"paused": False, **REASON})
        assert resumed.json() == {"paused": False}
        await eventually(
            lambda: http(late.base, "POST", "/api/rooms", maker_token, {"game": "azi"}).status_code,
            lambda status: status == 201,
        )
        assert http(there.base, "POST", "/api/rooms", maker_token, {"game": "azi"}).status_code == 201
        _, _, _, newcomer = await room_held_by(cluster, late, "Newcomer")
        shown = [message for message in newcomer.received if notice_heard(message)]
        assert [message["text"] for message in shown] == ["Restart at noon"]
        cleared = http(here.base, "DELETE", "/api/admin/notice", admin, REASON)
        assert cleared.status_code == 204, cleared.text
        assert (await newcomer.until(notice_heard))["text"] is None
        assert (await watcher.until(notice_heard))["text"] is None
    finally:
        late.stop()


async def test_the_nodes_hear_one_another_again_after_a_redis_restart(cluster: Cluster) -> None:
    here, there = cluster.nodes
    _, admin = grant_admin(here)
    _, cheat_id, _, cheat = await room_held_by(cluster, there, "Cheat")
    posted = http(here.base, "PUT", "/api/admin/notice", admin, {"text": "Restart at noon", **REASON})
    assert posted.status_code == 200, posted.text
    await cheat.until(notice_heard)
    cluster.redis.kill()
    unavailable = http(here.base, "POST", f"/api/admin/players/{cheat_id}/suspend", admin, REASON)
    assert (unavailable.status_code, unavailable.json()["error"]["code"]) == (503, "cluster/unavailable")
    assert "Retry-After" in unavailable.headers
    await asyncio.sleep(2)
    cluster.redis.start()
    await eventually(
        lambda: cluster.redis.listeners(f"{cluster.prefix}:bus"), lambda listeners: listeners == 2, seconds=40
    )
    suspended = await eventually(
        lambda: http(here.base, "POST", f"/api/admin/players/{cheat_id}/suspend", admin, REASON),
        lambda response: response.status_code != 503,
    )
    assert suspended.status_code == 204, suspended.text
    refusal, code = await cheat.closing()
    assert (code, refusal["code"]) == (4403, "auth/suspended")
    client = cluster.redis.client()
    try:
        kept = await eventually(
            lambda: client.hget(f"{cluster.prefix}:console", "notice"), lambda value: value is not None
        )
    finally:
        client.close()
    assert json.loads(kept) == posted.json()
