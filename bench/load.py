"""Load, measured from the clients: ``python bench/load.py --rooms 100 --seconds 60``.

Starts the real server (uvicorn as ``cardroom serve``, PostgreSQL in a database of its own), opens
``--rooms`` Hasenpfeffer rooms of four WebSocket clients each, and lets every room make about one move a
second (the seat to act picks a random legal move as soon as it may, but no sooner than a second after
the room's previous move; the rooms' first moves are spread over ``--spread`` seconds, as real tables
are out of step, and the clock starts once every room plays). For each move it measures the time from
sending it to the moment the LAST of the room's four seats has the resulting state. Then, on the same
server and the same number of connections, the baselines (bench-only endpoints,
``CARDROOM_BENCH_ENDPOINTS=1``): the durable ones, the least any stored move must do (a frame in, one
row written and committed, four frames out to the four sockets of a group, one group per room, one frame
a second each), once with the rows that arrive together sharing a transaction as moves do (grouped) and
once with a transaction per frame, and a bare echo. Prints p50 / p99 / max of each, the move's p50 and
p99 as multiples of both durable baselines', moves per second, lost or doubled moves, the server's CPU
and its memory per connection.

The clients run in one process on the server's machine, where their own delays would count in every
figure, so they are kept cheap: each connection is the sans-I/O protocol of ``websockets`` under a plain
``asyncio.Protocol`` (frames are handled as they arrive, with no task per connection or per move), and a
state frame is parsed in full only when it may offer its seat a move.
"""

from __future__ import annotations

import argparse
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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def fresh_database(admin_dsn: str) -> None:
    connection = await asyncpg.connect(admin_dsn)
    try:
        await connection.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        await connection.execute(f"CREATE DATABASE {DATABASE}")
    finally:
        await connection.close()


def start_server(port: int, pg_host: str, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ,
           "CARDROOM_DATABASE_URL": f"postgresql+asyncpg://postgres@{pg_host}:5432/{DATABASE}",
           "CARDROOM_PORT": str(port), "CARDROOM_REVEAL_PAUSE": "0", "CARDROOM_BOT_DELAY": "0",
           "CARDROOM_SEED_WAIT": "0", "CARDROOM_MAX_CONNECTIONS_PER_IP": "100000",
           # The rooms' players leave when the moves are measured; without a long grace the autopilot
           # would take their seats a minute later and play on at full speed during the baselines.
           "CARDROOM_GRACE_PERIOD": "3600",
           "CARDROOM_MAX_ROOMS_PER_PLAYER": "100000", "CARDROOM_GUESTS_PER_HOUR": "100000",
           "CARDROOM_BENCH_ENDPOINTS": "1",
           "CARDROOM_LOG_LEVEL": "warning"}

    def more_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))

    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "app.cli", "serve"], cwd=PROJECT, env=env,
                                   stdout=out, stderr=subprocess.STDOUT, preexec_fn=more_files)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit(f"the server did not start; see {log}")


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


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
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
                    self.results.latencies.append(arrived - sent)
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


class Prober:
    """A round trip repeated on a few sockets: 64 bytes sent on one of them (each in turn), timed until
    every socket has a frame back, and ``period`` seconds after that send (once answered) the next."""

    PAYLOAD = b"x" * 64

    def __init__(self, period: float, latencies: list[float]) -> None:
        self.loop = asyncio.get_running_loop()
        self.period = period
        self.latencies = latencies
        self.stop = 0.0
        self.due = 0.0
        self.sent = 0.0
        self.sends = 0
        self.waiting: set[int] = set()
        self.sockets: list[WebSocket] = []

    def send(self) -> None:
        if self.loop.time() >= self.stop or not self.sockets:
            return
        self.due = self.loop.time() + self.period
        self.sent = time.perf_counter()
        self.waiting = set(range(len(self.sockets)))
        if self.sockets[self.sends % len(self.sockets)].send(self.PAYLOAD):
            self.sends += 1
        else:
            self.waiting.clear()

    def received(self, seat: int, _data: Payload) -> None:
        if seat not in self.waiting:
            return
        self.waiting.discard(seat)
        if not self.waiting:
            self.latencies.append(time.perf_counter() - self.sent)
            self.loop.call_at(self.due, self.send)


@dataclass
class Baseline:
    latencies: list[float]
    sent: int
    cpu: float


async def baseline_phase(pid: int, addresses: list[list[str]], period: float, seconds: float) -> Baseline:
    """One :class:`Prober` on each list of addresses, started evenly over its first period."""
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    probers = [Prober(period, latencies) for _ in addresses]

    async def connect(prober_and_urls: tuple[Prober, list[str]]) -> None:
        prober, urls = prober_and_urls
        prober.sockets = [await open_websocket(url, partial(prober.received, seat))
                          for seat, url in enumerate(urls)]

    await bounded(SETUP_GROUP, connect, zip(probers, addresses, strict=True))
    cpu_start = process_stats(pid)[0]
    start = loop.time()
    for index, prober in enumerate(probers):
        prober.stop = start + seconds
        loop.call_at(start + index * period / len(probers), prober.send)
    await asyncio.sleep(seconds)
    cpu = (process_stats(pid)[0] - cpu_start) / (loop.time() - start)
    deadline = loop.time() + 10
    while any(prober.waiting for prober in probers) and loop.time() < deadline:
        await asyncio.sleep(0.05)
    await close_all([websocket for prober in probers for websocket in prober.sockets])
    return Baseline(latencies, sum(prober.sends for prober in probers), cpu)


async def durable_phase(port: int, pid: int, rooms: int, seconds: float, flavour: str) -> Baseline:
    """Groups of four sockets, one group per room; each group sends one frame a second (a room's move)
    that the server stores as one row and sends to the four: in a transaction of its own
    (``durable``), or sharing one with the rows that arrive meanwhile (``grouped``), as moves do."""
    addresses = [[f"ws://127.0.0.1:{port}/ws/bench/{flavour}/{group}"] * 4 for group in range(rooms)]
    return await baseline_phase(pid, addresses, 1.0, seconds)


async def echo_phase(port: int, pid: int, connections: int, seconds: float) -> Baseline:
    """Every connection sends one message every four seconds: the same message rate as the game phase
    (one a second per room of four)."""
    return await baseline_phase(pid, [[f"ws://127.0.0.1:{port}/ws/echo"]] * connections, 4.0, seconds)


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


def ratios(moves: list[float], floor: list[float]) -> str:
    if not moves or not floor:
        return "no samples"
    (move_p50, move_p99, _), (floor_p50, floor_p99, _) = percentiles(moves), percentiles(floor)
    return f"move p50 = {move_p50 / floor_p50:.1f}x its p50, move p99 = {move_p99 / floor_p99:.1f}x its p99"


@dataclass
class Moves:
    """What the game phase measured: the latencies, the server's CPU and memory, the client's CPU."""

    results: Results
    measured: int
    """The moves sent while the clock ran (``results.moves`` counts the warm-up's too)."""
    wall: float
    cpu: float
    client_cpu: float
    rss: tuple[int, int, int]
    in_flight: int


async def run(rooms: int, seconds: float, spread: float, pg_host: str) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))
    await fresh_database(f"postgresql://postgres@{pg_host}:5432/postgres")
    port = free_port()
    server = start_server(port, pg_host, PROJECT / "test-artifacts" / "load-server.log")
    try:
        await measure(port, server.pid, rooms, seconds, spread, pg_host)
    finally:
        server.terminate()
        server.wait(timeout=30)


@dataclass
class Baselines:
    grouped: Baseline
    echo: Baseline
    durable: Baseline


async def measure(port: int, pid: int, count: int, seconds: float, spread: float, pg_host: str) -> None:
    """The four phases on the same server and number of connections: moves, the grouped durable
    baseline, the echo, and last the durable baseline with a commit per frame (whose backlog, when the
    database cannot keep up with it, would otherwise spill into the next phase)."""
    moves = await moves_phase(port, pid, count, seconds, spread)
    floor = min(seconds, 30)
    baselines = Baselines(grouped=await durable_phase(port, pid, count, floor, "grouped"),
                          echo=await echo_phase(port, pid, 4 * count, floor),
                          durable=await durable_phase(port, pid, count, floor, "durable"))
    gc.enable()
    dsn = f"postgresql://postgres@{pg_host}:5432/{DATABASE}"
    stored = await stored_count(dsn, "SELECT count(*) FROM actions WHERE seat IS NOT NULL")
    rows = await stored_count(dsn, "SELECT count(*) FROM bench_writes")
    report(count, moves, baselines)
    print(f"moves stored: {stored} (sent {moves.results.moves}; {moves.in_flight} still in flight when "
          "the clock stopped; every stored move is counted once)")
    print(f"durable baseline rows stored: {rows} (frames sent "
          f"{baselines.grouped.sent + baselines.durable.sent})")


async def moves_phase(port: int, pid: int, count: int, seconds: float, spread: float) -> Moves:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        rooms = await bounded(HTTP_GROUP, partial(make_room, http), range(count))
    _, rss_before = process_stats(pid)
    results = Results()
    play = Play(results, random.Random(1), spread)
    await bounded(SETUP_GROUP, partial(seat_room, port, play), rooms)
    await asyncio.sleep(2)
    _, rss_connected = process_stats(pid)
    # The clients' own garbage collector must not stop them in the middle of a measurement: what the
    # setup made is left out of its scans, and it stays off until every phase is measured.
    gc.collect()
    gc.freeze()
    gc.disable()
    play.start(rooms)
    await asyncio.sleep(spread)  # until every room has started: only then is the load what it is
    results.latencies.clear()
    moves_before = results.moves
    cpu_start, wall_start = process_stats(pid)[0], time.monotonic()
    client_start = resource.getrusage(resource.RUSAGE_SELF)
    await asyncio.sleep(seconds)
    play.stop()
    cpu_used, wall = process_stats(pid)[0] - cpu_start, time.monotonic() - wall_start
    client_end = resource.getrusage(resource.RUSAGE_SELF)
    client_cpu = (client_end.ru_utime + client_end.ru_stime) - (client_start.ru_utime + client_start.ru_stime)
    _, rss_loaded = process_stats(pid)
    in_flight = sum(len(room.pending) for room in rooms)
    await close_all([websocket for room in rooms for websocket in room.sockets])
    return Moves(results, results.moves - moves_before, wall, cpu_used, client_cpu,
                 (rss_before, rss_connected, rss_loaded), in_flight)


async def stored_count(dsn: str, query: str) -> int:
    connection = await asyncpg.connect(dsn)
    try:
        count: int = await connection.fetchval(query)
        return count
    finally:
        await connection.close()


def report(count: int, moves: Moves, baselines: Baselines) -> None:
    connections, results, wall = 4 * count, moves.results, moves.wall
    rss_before, rss_connected, rss_loaded = moves.rss
    print(f"rooms: {count} ({connections} WebSocket connections), {wall:.0f} s of play, PostgreSQL")
    print(f"action -> last seat's state:      {summary(results.latencies)}")
    print(f"durable, grouped -> last of four: {summary(baselines.grouped.latencies)}")
    print(f"durable, own commit -> last of 4: {summary(baselines.durable.latencies)}")
    print(f"echo baseline round trip:         {summary(baselines.echo.latencies)}")
    moved = results.latencies
    print(f"against the grouped durable baseline:    {ratios(moved, baselines.grouped.latencies)}")
    print(f"against the own-commit durable baseline: {ratios(moved, baselines.durable.latencies)}")
    print(f"moves sent while measured: {moves.measured} ({moves.measured / wall:.0f}/s); seen by all four: "
          f"{len(results.latencies)}; error frames: {len(results.errors)} {sorted(set(results.errors))}")
    print(f"server CPU: {moves.cpu / wall * 100:.0f}% of one core during the moves, "
          f"{baselines.grouped.cpu * 100:.0f}% during the grouped baseline, "
          f"{baselines.durable.cpu * 100:.0f}% during the own-commit one, "
          f"{baselines.echo.cpu * 100:.0f}% during the echo")
    print(f"server memory: {rss_before / 2**20:.0f} MiB before connections, "
          f"{(rss_connected - rss_before) / connections / 1024:.1f} KiB per idle connection, "
          f"{(rss_loaded - rss_before) / connections / 1024:.1f} KiB per connection under load")
    print(f"load generator CPU: {moves.client_cpu / wall * 100:.0f}% of one core during the moves; "
          f"machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--spread", type=float, default=30,
                        help="rooms make their first move at random within this many seconds (a deal lasts "
                             "about 30 moves); the clock starts once every room has started")
    parser.add_argument("--pg-host", default="127.0.0.1")
    args = parser.parse_args()
    (PROJECT / "test-artifacts").mkdir(exist_ok=True)
    asyncio.run(run(args.rooms, args.seconds, args.spread, args.pg_host))


if __name__ == "__main__":
    main()
