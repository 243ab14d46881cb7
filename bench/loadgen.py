"""The load generator's parts, shared by ``bench/load.py`` and the cluster's runs
(``bench/load_cluster.py``): the server it starts (``cardroom serve`` on a database of its own), the
client connections, and the rooms' play with its bookkeeping.

Each connection is the sans-I/O protocol of ``websockets`` under a plain ``asyncio.Protocol`` (frames
are handled as they arrive, with no task per connection or per move), and a state frame is parsed in
full only when it may offer its seat a move: the clients run in one process on the server's machine,
where their own delays would count in every figure.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import re
import resource
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import asyncpg
import httpx2 as httpx
import orjson
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

# Frames read from the network carry a bytearray; a message joined from fragments is bytes.
Payload = bytes | bytearray

loads: Callable[[Payload], Any] = orjson.loads
dumps: Callable[[Any], bytes] = orjson.dumps

PROJECT = Path(__file__).resolve().parents[1]
if str(PROJECT / "tests") not in sys.path:
    # The tests' helpers (``support``), whose Redis server the cluster's runs start.
    sys.path.append(str(PROJECT / "tests"))
DATABASE = "cardroom_load"
SETUP_GROUP = 50
HTTP_GROUP = 8
# Enough of a frame's start to hold its type and version, whatever the spacing of the encoder.
HEAD = 60
TYPE = re.compile(rb'"type":\s*"(\w+)"')
VERSION = re.compile(rb'"version":\s*(\d+)')
OFFERS_MOVES = re.compile(rb'"legal":\s*\[\s*[^\]\s]')
# A deal has ended and the next waits for the players: each says at once that he is ready, as a player
# who has seen the result clicks on.
NEXT_DEAL_WAITS = re.compile(rb'"next_deal":\s*\{')
T = TypeVar("T")
Item = TypeVar("Item")


@dataclass(frozen=True)
class LoadRun:
    """What to run: ``rooms`` rooms of four for ``seconds`` once all have started (``spread``), on
    ``database`` (made anew); ``nodes`` and the rest are the cluster's (``bench/load_cluster.py``)."""

    rooms: int
    seconds: float
    spread: float
    pg_host: str
    database: str
    moves_only: bool = False
    json: Path | None = None
    nodes: int = 1
    relayed: float = 0.0
    lease: float = 5.0
    failover: bool = False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def fresh_database(admin_dsn: str, database: str = DATABASE) -> None:
    connection = await asyncpg.connect(admin_dsn)
    try:
        await connection.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        await connection.execute(f"CREATE DATABASE {database}")
    finally:
        await connection.close()


def launch_server(port: int, pg_host: str, log: Path, database: str = DATABASE,
                  settings: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``cardroom serve`` of this checkout on ``port``; ``settings`` are more ``CARDROOM_`` variables."""
    env = {**os.environ,
           "CARDROOM_DATABASE_URL": f"postgresql+asyncpg://postgres@{pg_host}:5432/{database}",
           "CARDROOM_PORT": str(port), "CARDROOM_REVEAL_PAUSE": "0", "CARDROOM_BOT_DELAY": "0",
           "CARDROOM_SEED_WAIT": "0", "CARDROOM_MAX_CONNECTIONS_PER_IP": "100000",
           # The rooms' players leave when the moves are measured; without a long grace the autopilot
           # would take their seats a minute later and play on at full speed during the baselines.
           "CARDROOM_GRACE_PERIOD": "3600",
           "CARDROOM_MAX_ROOMS_PER_PLAYER": "100000", "CARDROOM_GUESTS_PER_HOUR": "100000",
           "CARDROOM_BENCH_ENDPOINTS": "1",
           "CARDROOM_LOG_LEVEL": "warning",
           **{f"CARDROOM_{name.upper()}": value for name, value in (settings or {}).items()}}

    def more_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))

    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "app.cli", "serve"], cwd=PROJECT, env=env,
                                stdout=out, stderr=subprocess.STDOUT, preexec_fn=more_files)


def wait_until_up(port: int, log: Path) -> None:
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit(f"the server did not start; see {log}")


def start_server(port: int, pg_host: str, log: Path, database: str = DATABASE) -> subprocess.Popen[bytes]:
    process = launch_server(port, pg_host, log, database)
    wait_until_up(port, log)
    return process


def process_stats(pid: int) -> tuple[float, int]:
    """CPU seconds used so far and resident memory in bytes."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss_pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return cpu, rss_pages * os.sysconf("SC_PAGE_SIZE")


async def bounded(limit: int, job: Callable[[Item], Awaitable[T]], items: Iterable[Item]) -> list[T]:
    """``job`` on every item, at most ``limit`` at a time, results in order."""
    gate = asyncio.Semaphore(limit)

    async def one(item: Item) -> T:
        async with gate:
            return await job(item)

    return await asyncio.gather(*(one(item) for item in items))


class WebSocket(asyncio.Protocol):
    """A client connection whose text messages go to ``on_text`` as they arrive."""

    def __init__(self, on_text: Callable[[Payload], None], protocol: ClientProtocol) -> None:
        loop = asyncio.get_running_loop()
        self.on_text = on_text
        self.protocol = protocol
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.fragments: list[Payload] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.protocol.send_request(self.protocol.connect())
        self.flush()

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        # Pongs and the reply to a close frame are queued by the protocol itself.
        self.flush()
        for event in self.protocol.events_received():
            if isinstance(event, Frame):
                self.frame_received(event)
            elif not self.opened.done():
                self.handshake_done()

    def handshake_done(self) -> None:
        if self.protocol.handshake_exc is None:
            self.opened.set_result(None)
        else:
            self.opened.set_exception(self.protocol.handshake_exc)

    def frame_received(self, frame: Frame) -> None:
        if frame.opcode is not Opcode.TEXT and frame.opcode is not Opcode.CONT:
            return
        if not frame.fin:
            self.fragments.append(cast(Payload, frame.data))
        elif self.fragments:
            message = b"".join([*self.fragments, cast(Payload, frame.data)])
            self.fragments.clear()
            self.on_text(message)
        else:
            self.on_text(cast(Payload, frame.data))

    def eof_received(self) -> bool | None:
        self.protocol.receive_eof()
        self.flush()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.protocol.receive_eof()
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the opening handshake"))
        if not self.closed.done():
            self.closed.set_result(None)

    def flush(self) -> None:
        assert self.transport is not None
        for data in self.protocol.data_to_send():
            if data:
                self.transport.write(data)
            else:
                self.transport.write_eof()

    def send(self, text: bytes) -> bool:
        if self.protocol.state is not State.OPEN:
            return False
        self.protocol.send_text(text)
        self.flush()
        return True

    def start_closing(self) -> None:
        if self.protocol.state is State.OPEN:
            self.protocol.send_close(1000)
            self.flush()

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()


async def open_websocket(url: str, on_text: Callable[[Payload], None]) -> WebSocket:
    uri = parse_uri(url)
    # No extensions offered: the frames are not compressed.
    websocket = WebSocket(on_text, ClientProtocol(uri, max_size=2**20))
    await asyncio.get_running_loop().create_connection(lambda: websocket, uri.host, uri.port)
    await asyncio.wait_for(websocket.opened, 60)
    return websocket


async def close_all(websockets: list[WebSocket], timeout: float = 10.0) -> None:
    for websocket in websockets:
        websocket.start_closing()
    if websockets:
        await asyncio.wait([websocket.closed for websocket in websockets], timeout=timeout)
    for websocket in websockets:
        websocket.abort()


@dataclass
class Room:
    id: str
    tokens: list[str]
    sockets: list[WebSocket] = field(default_factory=list)
    version: int = 0
    last_move: float = 0.0
    pending: dict[int, tuple[float, set[int]]] = field(default_factory=dict)
    sent_refs: set[str] = field(default_factory=set)
    ready_sent: set[tuple[int, int]] = field(default_factory=set)
    # A move offered before the clock started, by seat: made as soon as it does.
    offers: dict[int, dict[str, Any]] = field(default_factory=dict)
    seated: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())
    relayed: bool = False
    """In a cluster: the room's sockets reach a node other than its owner, which relays them."""


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    """Moves to the last seat's state; in a cluster, those of the rooms whose sockets reach the owner."""
    relayed: list[float] = field(default_factory=list)
    """The same for the rooms whose sockets are relayed to the owner by another node."""
    moves: int = 0
    errors: list[str] = field(default_factory=list)


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    entry = rng.choice(legal)
    return {key: value for key, value in entry.items() if key in ("kind", "value", "suit", "card")}


class Play:
    """Every room's bookkeeping, fed one frame at a time; moves are made only while ``playing``."""

    def __init__(self, results: Results, rng: random.Random, spread: float) -> None:
        self.loop = asyncio.get_running_loop()
        self.results = results
        self.rng = rng
        self.spread = spread
        self.playing = False
        self.over = False

    def start(self, rooms: list[Room]) -> None:
        self.playing = True
        for room in rooms:
            offers, room.offers = room.offers, {}
            for seat, state in offers.items():
                self.offer(room, seat, state)

    def stop(self) -> None:
        self.playing, self.over = False, True

    def receive(self, room: Room, seat: int, data: Payload) -> None:
        if self.over:
            return
        kind, version = TYPE.search(data, 0, HEAD), VERSION.search(data, 0, HEAD)
        if (self.playing and kind is not None and kind[1] == b"state" and version is not None
                and not OFFERS_MOVES.search(data) and not NEXT_DEAL_WAITS.search(data)):
            self.state_seen(room, seat, int(version[1]))
            return
        message = loads(data)
        if message["type"] == "error":
            self.results.errors.append(message["code"])
        elif message["type"] == "state":
            self.state_seen(room, seat, message["version"])
            self.consider(room, seat, message)

    def state_seen(self, room: Room, seat: int, version: int) -> None:
        arrived = time.perf_counter()
        for awaited, (sent, waiting) in list(room.pending.items()):
            if version >= awaited:
                waiting.discard(seat)
                if not waiting:
                    (self.results.relayed if room.relayed else self.results.latencies).append(arrived - sent)
                    del room.pending[awaited]
        room.version = max(room.version, version)

    def consider(self, room: Room, seat: int, state: dict[str, Any]) -> None:
        if not self.playing and not room.seated.done() and all(
                occupant["player_id"] for occupant in state["room"]["seats"]):
            room.seated.set_result(None)
        view = state["view"]
        if view.get("next_deal") is not None and (view["deal_number"], seat) not in room.ready_sent:
            room.ready_sent.add((view["deal_number"], seat))
            room.sockets[seat].send(b'{"type": "next_deal"}')
        if not state["legal"] or view["phase"] == "waiting":
            return
        if self.playing:
            self.offer(room, seat, state)
        else:
            room.offers[seat] = state

    def offer(self, room: Room, seat: int, state: dict[str, Any]) -> None:
        if room.last_move == 0.0:
            # Rooms start out of step, as real tables are, by up to a whole deal: all of them moving in
            # the same second, or ending their deals in the same second, would measure the queue of
            # that burst, not the server.
            room.last_move = self.loop.time() + self.rng.random() * self.spread - 1.0
        due = room.last_move + 1.0
        if due > self.loop.time():
            self.loop.call_at(due, self.move, room, seat, state)
        else:
            self.move(room, seat, state)

    def move(self, room: Room, seat: int, state: dict[str, Any]) -> None:
        version = state["version"]
        ref = f"{seat}-{version}"
        if not self.playing or room.version != version or ref in room.sent_refs:
            return
        room.sent_refs.add(ref)
        frame = dumps({"type": "act", "id": ref, "action": choose(state["legal"], self.rng)})
        room.last_move = self.loop.time()
        room.pending[version + 1] = (time.perf_counter(), {0, 1, 2, 3})
        if room.sockets[seat].send(frame):
            self.results.moves += 1


async def make_room(http: httpx.AsyncClient, index: int) -> Room:
    tokens = []
    for seat in range(4):
        body = (await http.post("/api/players", json={"name": f"load{index}-{seat}"})).json()
        tokens.append(body["token"])
    room = (await http.post("/api/rooms", headers={"Authorization": f"Bearer {tokens[0]}"},
                            json={"game": "hasenpfeffer", "options": {"turn_seconds": 0},
                                  "private": True})).json()
    return Room(room["id"], tokens)


async def seat_room(port: int, play: Play, room: Room) -> None:
    room.sockets = [await open_websocket(f"ws://127.0.0.1:{port}/ws/rooms/{room.id}",
                                         partial(play.receive, room, seat))
                    for seat in range(len(room.tokens))]
    for seat, (websocket, token) in enumerate(zip(room.sockets, room.tokens, strict=True)):
        websocket.send(dumps({"type": "auth", "token": token}))
        websocket.send(dumps({"type": "sit", "seat": seat}))
    await asyncio.wait_for(room.seated, 60)
    room.sockets[0].send(dumps({"type": "start"}))


def percentiles(values: list[float]) -> tuple[float, float, float]:
    """p50, p99 and max."""
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], ordered[-1]


def summary(values: list[float]) -> str:
    if not values:
        return "no samples"
    p50, p99, most = percentiles(values)
    return (f"p50 {p50 * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, max {most * 1000:.2f} ms "
            f"({len(values)} samples)")



async def stored_count(dsn: str, query: str) -> int:
    connection = await asyncpg.connect(dsn)
    try:
        count: int = await connection.fetchval(query)
        return count
    finally:
        await connection.close()


def write_json(path: Path, content: dict[str, Any]) -> None:
    path.write_text(orjson.dumps(content, option=orjson.OPT_INDENT_2).decode() + "\n")


def latency_json(values: list[float]) -> dict[str, float | int | None]:
    """p50, p99 and max in milliseconds, and the count, for a machine to read."""
    if not values:
        return {"p50": None, "p99": None, "max": None, "count": 0}
    p50, p99, most = percentiles(values)
    return {"p50": round(p50 * 1000, 3), "p99": round(p99 * 1000, 3), "max": round(most * 1000, 3),
            "count": len(values)}


def quiet_collector() -> None:
    """The clients' own garbage collector must not stop them in the middle of a measurement: what the
    setup made is left out of its scans, and it stays off until every phase is measured."""
    gc.collect()
    gc.freeze()
    gc.disable()


def client_cpu() -> float:
    """Processor seconds this process (the load generator) has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Window:
    """The clock of a measurement: from :meth:`open` to :meth:`close`, the processor time of some
    processes (the servers), of the load generator, and the moves sent."""

    pids: list[int]
    moves: int
    cpu: list[float]
    client: float
    wall: float

    @classmethod
    def open(cls, pids: list[int], results: Results) -> Window:
        return cls(pids, results.moves, [process_stats(pid)[0] for pid in pids], client_cpu(),
                   time.monotonic())

    def close(self, results: Results) -> Window:
        """What passed since :meth:`open`, in the same fields."""
        return Window(self.pids, results.moves - self.moves,
                      [process_stats(pid)[0] - start for pid, start in zip(self.pids, self.cpu, strict=True)],
                      client_cpu() - self.client, time.monotonic() - self.wall)
