"""A cluster for real: a Redis server of its own and several ``cardroom serve`` nodes on one
PostgreSQL database, and players that play through any node and reconnect as a browser does."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import redis
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from app.db.session import close_engine
from support.live import LiveServer, free_port

Message = dict[str, Any]
RECONNECT_CODES = frozenset({1001, 1006, 1011, 1012, 1013})
"""Closes after which a client reconnects at once (the node stopped, died or moved the room)."""


class RedisServer:
    """``redis-server`` on a free port, without persistence: a restart starts it empty."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        with (self.folder / "redis.log").open("ab") as out:
            self.process = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(self.folder)], stdout=out, stderr=subprocess.STDOUT)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise AssertionError("redis-server did not start") from None
                time.sleep(0.05)
            finally:
                client.close()

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, decode_responses=True)

    def listeners(self, channel: str) -> int:
        """How many clients are subscribed to ``channel``."""
        client = self.client()
        try:
            counted: list[Any] = client.pubsub_numsub(channel)
            return int(counted[0][1])
        finally:
            client.close()


class ClusterNode(LiveServer):
    """One node: ``cardroom serve`` with the cluster's Redis; ``pause``/``resume`` stop and continue it
    (SIGSTOP, SIGCONT), ``terminate`` asks it to stop (SIGTERM) and waits."""

    def __init__(self, database_url: str, log: Path, redis_url: str, prefix: str, node_id: str,
                 lease: float, **settings: str) -> None:
        super().__init__(database_url, log, redis_url=redis_url, redis_prefix=prefix, node_id=node_id,
                         lease_seconds=str(lease), **settings)
        self.node_id = node_id
        self.env["CARDROOM_NODE_ADDRESS"] = self.base
        self.env["PYTHONUNBUFFERED"] = "1"  # a node killed mid-test leaves every line it wrote
        self.metrics_port = free_port()
        self.env["CARDROOM_METRICS_PORT"] = str(self.metrics_port)

    def pause(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def terminate(self, timeout: float = 30) -> int:
        assert self.process is not None
        self.process.terminate()
        return self.process.wait(timeout=timeout)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


@dataclass
class Cluster:
    redis: RedisServer
    nodes: list[ClusterNode]
    prefix: str
    database_url: str
    players: list[Player] = field(default_factory=list)
    """Everyone seated through the cluster, to be sent away at the end."""

    def owner(self, room_id: str) -> str | None:
        """The node that holds the room's lease."""
        client = self.redis.client()
        try:
            owner: str | None = client.get(f"{self.prefix}:lease:{room_id}")
            return owner
        finally:
            client.close()

    def node(self, node_id: str) -> ClusterNode:
        return next(node for node in self.nodes if node.node_id == node_id)

    def running(self) -> list[ClusterNode]:
        return [node for node in self.nodes if node.running]

    def entry(self, home: int) -> Callable[[], list[str]]:
        """The addresses a player uses: the running nodes, starting at node ``home``."""
        def addresses() -> list[str]:
            nodes = self.nodes[home:] + self.nodes[:home]
            return [node.base for node in nodes if node.running]
        return addresses

    def wait_owner(self, room_id: str, other_than: str | None = None, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            owner = self.owner(room_id)
            if owner is not None and owner != other_than:
                return owner
            time.sleep(0.05)
        raise AssertionError(f"no node took room {room_id} within {timeout} s")


@contextmanager
def running_cluster(database_url: str, folder: Path, count: int = 3, lease: float = 1.5,
                    **settings: str) -> Iterator[Cluster]:
    """``count`` nodes and their Redis, all stopped at the end whatever the test did to them."""
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    redis_server = RedisServer(folder / "redis")
    # Test players answer at once, far faster than people: the per-socket message rate is not what
    # these tests are about.
    settings = {"ws_messages_per_second": "500", "ws_message_burst": "1000", **settings}
    nodes = [ClusterNode(database_url, folder / f"node{number}.log", redis_server.url, prefix,
                         f"node{number}", lease, **settings) for number in range(count)]
    with ExitStack() as stack:
        redis_server.start()
        stack.callback(redis_server.kill)
        for node in nodes:
            stack.callback(node.stop)
            stack.callback(lambda n=node: n.resume() if n.running else None)
        for node in nodes:
            node.start()
        yield Cluster(redis_server, nodes, prefix, database_url)


def new_player(base: str, name: str) -> tuple[str, str]:
    """A guest made through the server at ``base``: its id and token."""
    made = httpx.post(f"{base}/api/players", json={"name": name}, timeout=10)
    assert made.status_code == 201, made.text
    return made.json()["id"], made.json()["token"]


@dataclass
class Player:
    """A person at a table through the cluster: signs in with an ``auth`` message, asks the server
    for a hint whenever it is his turn and plays it, asks for the next deal, and when his socket is
    closed for a reconnection (the node stopped, died or moved the room) reconnects at once, to the
    same node while it takes sockets, else to the next one. Records every version he saw."""

    name: str
    player_id: str
    token: str
    room_id: str
    nodes: Callable[[], list[str]]
    """The addresses of the nodes he may use, his favourite first."""
    seat: int | None = None
    versions: list[int] = field(default_factory=list)
    reconnects: int = 0
    closes: list[int] = field(default_factory=list)
    errors: list[Message] = field(default_factory=list)
    last: Message | None = None
    acted: int = 0
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    ws: ClientConnection | None = None
    connected_to: str | None = None
    """The address of the node his socket is on."""
    closed_on: list[str] = field(default_factory=list)
    """For each time his socket was closed under him, the node it was on."""
    asked_hint_at: int | None = None

    async def open(self) -> None:
        """Connect to the first node that takes the socket."""
        last_error: Exception | None = None
        for _ in range(200):
            for base in self.nodes():
                url = f"{base.replace('http', 'ws', 1)}/ws/rooms/{self.room_id}"
                try:
                    self.ws = await connect(url, open_timeout=5, ping_interval=None)
                except (OSError, InvalidHandshake, TimeoutError) as error:
                    last_error = error
                    continue
                self.connected_to = base
                await self.send({"type": "auth", "token": self.token})
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"{self.name} could not reach any node: {last_error!r}")

    async def leave(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def send(self, message: Message) -> None:
        assert self.ws is not None
        with suppress(ConnectionClosed):
            await self.ws.send(json.dumps(message))

    async def play(self, until: Callable[[Message], bool], seconds: float = 120) -> Message:
        """Play until a state satisfies ``until``; returns that state."""
        deadline = time.monotonic() + seconds
        if self.ws is None:
            await self.open()
        while time.monotonic() < deadline:
            assert self.ws is not None
            try:
                frame = await asyncio.wait_for(self.ws.recv(), timeout=max(0.01, deadline - time.monotonic()))
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else 1006
                self.closes.append(code)
                self.closed_on.append(self.connected_to or "")
                assert code in RECONNECT_CODES, f"{self.name}: closed with {code} {closed.rcvd}"
                self.reconnects += 1
                self.asked_hint_at = None
                await self.open()
                continue
            except TimeoutError:
                break
            message: Message = json.loads(frame)
            if await self.handle(message) and self.last is not None and until(self.last):
                return self.last
        last = self.last and self.last["view"]
        raise AssertionError(f"{self.name}: not done in {seconds} s; last state {last}")

    async def handle(self, message: Message) -> bool:
        """React to one message; True if it was a state."""
        if message["type"] == "error":
            self.errors.append(message)
            self.asked_hint_at = None
            return False
        if message["type"] == "authenticated":
            # Signed in again: a node relaying him found the room's next owner, and whatever he had
            # asked or sent the former owner may be lost with it.
            self.asked_hint_at = None
            return False
        if message["type"] == "hint":
            if self.last is not None and message["version"] == self.last["version"]:
                await self.send({"type": "act", "id": f"{self.name}-{message['version']}",
                                 "action": message["action"]})
                self.acted += 1
            return False
        if message["type"] != "state":
            return False
        self.last = message
        self.versions.append(message["version"])
        view = message["view"]
        self.seat = next((seat["seat"] for seat in message["room"]["seats"]
                          if seat["player_id"] == self.player_id), None)
        if self.seat is None or message["room"]["status"] != "playing":
            return True
        next_deal = view.get("next_deal")
        if next_deal is not None and self.seat in next_deal.get("waiting", []):
            await self.send({"type": "next_deal"})
        elif message["legal"] and self.asked_hint_at != message["version"]:
            self.asked_hint_at = message["version"]
            await self.send({"type": "hint"})
        return True


def http(base: str, method: str, path: str, token: str | None = None,
         body: Message | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.request(method, f"{base}{path}", json=body, headers=headers, timeout=10)


GAMES: dict[str, tuple[Message, int | None]] = {
    "hazari": ({"target": 5}, None),
    "hasenpfeffer": ({"target": 1}, None),
    "azi": ({"stake": 10, "min_buy_in": 1, "max_buy_in": 1}, 10),
}
"""Each game's options for a short match, and the buy-in a player brings (chip games)."""


def finished(state: Message) -> bool:
    return bool(state["room"]["status"] == "finished")


async def seated_table(cluster: Cluster, game: str, entries: list[Callable[[], list[str]]],
                       maker: str | None = None, **options: Any) -> tuple[str, list[Player]]:
    """A room made through ``maker`` (by default the first node) with a person for each of
    ``entries`` (the addresses he uses, his favourite first) and random bots in the other seats of a
    four-seat table, started. The game's ``options`` are those of a short match unless given."""
    short, buy_in = GAMES[game]
    options = {**short, **options}
    maker = maker or cluster.nodes[0].base
    people = [new_player(maker, f"P{seat}") for seat in range(len(entries))]
    made = http(maker, "POST", "/api/rooms", people[0][1],
                {"game": game, "private": True, "options": options})
    assert made.status_code == 201, made.text
    room_id = made.json()["id"]
    players = [Player(f"P{seat}", player_id, token, room_id, entry)
               for seat, ((player_id, token), entry) in enumerate(zip(people, entries, strict=True))]
    cluster.players.extend(players)
    for seat, player in enumerate(players):
        sit: Message = {"type": "sit", "seat": seat}
        if buy_in is not None:
            sit["buy_in"] = buy_in
        await player.open()
        await player.send(sit)
        await player.play(lambda state, s=seat, p=player:
                          state["room"]["seats"][s]["player_id"] == p.player_id)
    owner = players[0]
    for seat in range(len(players), 4):
        await owner.send({"type": "add_bot", "seat": seat, "level": "random"})
        await owner.play(lambda state, s=seat: state["room"]["seats"][s]["bot"])
    await owner.send({"type": "start"})
    return room_id, players


async def play_to_the_end(players: list[Player], seconds: float = 180) -> None:
    await asyncio.gather(*(player.play(finished, seconds) for player in players))


async def query(database_url: str, sql: str, **params: Any) -> list[Any]:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            return list(await connection.execute(text(sql), params))
    finally:
        await close_engine(engine)


async def check_log(database_url: str, room_id: str) -> Message:
    """The room's match: finished, its steps numbered 1, 2, ... with no gap and none twice, no act
    stored twice, and at a chip table a pot that paid out every chip put in."""
    (match_id, status), = await query(database_url, "SELECT id, status FROM matches WHERE room_id = :room",
                                      room=room_id)
    assert status == "finished"
    seqs = [row[0] for row in await query(database_url, "SELECT seq FROM actions WHERE match_id = :m "
                                                        "ORDER BY seq", m=match_id)]
    assert seqs == list(range(1, len(seqs) + 1))
    refs = [row[0] for row in await query(database_url, "SELECT ref FROM actions WHERE match_id = :m "
                                                        "AND ref IS NOT NULL", m=match_id)]
    assert len(refs) == len(set(refs))
    pot = await query(database_url, "SELECT COALESCE(SUM(CASE WHEN target = :pot THEN amount "
                                    "ELSE -amount END), 0) FROM chip_transfers "
                                    "WHERE source = :pot OR target = :pot", pot=f"pot:{match_id}")
    assert pot[0][0] == 0
    return {"match_id": match_id, "steps": len(seqs)}


def scrape_total(port: int, name: str) -> float:
    """The sum of a metric's samples on a node's metrics port."""
    text_format = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    return sum(float(line.rsplit(" ", 1)[1]) for line in text_format.splitlines()
               if line.startswith(name) and not line.startswith("#") and line[len(name)] in " {")


def environment_without_cluster() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if not key.startswith("CARDROOM_REDIS")}
