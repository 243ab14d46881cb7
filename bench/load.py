"""Load, measured from the clients: ``python bench/load.py --rooms 100 --seconds 60``.

Starts the real server (uvicorn as ``cardroom serve``, PostgreSQL in a database of its own), opens
``--rooms`` Hasenpfeffer rooms of four WebSocket clients each, and lets every room make about one move
a second (the seat to act picks a random legal move as soon as it may, but no sooner than a second after
the room's previous move). For each move it measures the time from sending it to the moment the LAST of
the room's four seats has the resulting state. Then, on the same server and the same number of
connections, a bare echo endpoint gives the baseline round trip. Prints p50 / p99 / max, moves per
second, lost or doubled moves, the server's CPU and its memory per connection.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx2 as httpx
import websockets

PROJECT = Path(__file__).resolve().parents[1]
DATABASE = "cardroom_load"


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
           "CARDROOM_MAX_ROOMS_PER_PLAYER": "100000", "CARDROOM_ECHO_ENDPOINT": "1",
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


@dataclass
class Room:
    id: str
    tokens: list[str]
    sockets: list[Any] = field(default_factory=list)
    version: int = 0
    last_move: float = 0.0
    pending: dict[int, tuple[float, set[int]]] = field(default_factory=dict)
    sent_refs: set[str] = field(default_factory=set)


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: list[str] = field(default_factory=list)


async def make_room(http: httpx.AsyncClient, index: int) -> Room:
    tokens, ids = [], []
    for seat in range(4):
        body = (await http.post("/api/players", json={"name": f"load{index}-{seat}"})).json()
        tokens.append(body["token"])
        ids.append(body["id"])
    room = (await http.post("/api/rooms", headers={"Authorization": f"Bearer {tokens[0]}"},
                            json={"game": "hasenpfeffer", "options": {"turn_seconds": 0},
                                  "private": True})).json()
    return Room(room["id"], tokens)


async def seat_room(port: int, room: Room) -> None:
    for seat, token in enumerate(room.tokens):
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/rooms/{room.id}?token={token}",
                                      max_size=2**20, compression=None, open_timeout=60)
        room.sockets.append(ws)
        await ws.recv()
        await ws.send(json.dumps({"type": "sit", "seat": seat}))
    await room.sockets[0].send(json.dumps({"type": "start"}))


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    entry = rng.choice(legal)
    return {key: value for key, value in entry.items() if key in ("kind", "value", "suit", "card")}


async def listen(room: Room, seat: int, results: Results, stop: float, rng: random.Random) -> None:
    ws = room.sockets[seat]
    while time.monotonic() < stop:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic())))
        except (TimeoutError, websockets.ConnectionClosed):
            return
        if message["type"] == "error":
            results.errors.append(message["code"])
            continue
        if message["type"] != "state":
            continue
        arrived = time.perf_counter()
        for version, (sent, waiting) in list(room.pending.items()):
            if message["version"] >= version:
                waiting.discard(seat)
                if not waiting:
                    results.latencies.append(arrived - sent)
                    del room.pending[version]
        room.version = max(room.version, message["version"])
        if message["legal"] and message["view"]["phase"] != "waiting":
            asyncio.get_running_loop().create_task(move(room, seat, message, results, rng))


async def move(room: Room, seat: int, state: dict[str, Any], results: Results, rng: random.Random) -> None:
    if room.last_move == 0.0:
        # Rooms start out of step, as real tables do: all of them moving in the same instant every
        # second would measure the queue of that burst, not the server.
        room.last_move = time.monotonic() - rng.random()
    wait = room.last_move + 1.0 - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)
    if room.version != state["version"]:
        return
    ref = f"{seat}-{state['version']}"
    if ref in room.sent_refs:
        return
    room.sent_refs.add(ref)
    room.last_move = time.monotonic()
    room.pending[state["version"] + 1] = (time.perf_counter(), {0, 1, 2, 3})
    results.moves += 1
    try:
        await room.sockets[seat].send(json.dumps({"type": "act", "id": ref,
                                                  "action": choose(state["legal"], rng)}))
    except websockets.ConnectionClosed:
        results.moves -= 1


async def echo_phase(port: int, connections: int, seconds: float) -> list[float]:
    """Every connection sends one message every ``connections / rate`` seconds: the same message rate
    as the game phase (one a second per room of four)."""
    sockets = [await websockets.connect(f"ws://127.0.0.1:{port}/ws/echo", compression=None, open_timeout=60)
               for _ in range(connections)]
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    async def pinger(ws: Any, offset: float) -> None:
        await asyncio.sleep(offset)
        while time.monotonic() < stop:
            sent = time.perf_counter()
            await ws.send("x" * 64)
            await ws.recv()
            latencies.append(time.perf_counter() - sent)
            await asyncio.sleep(4.0)

    await asyncio.gather(*(pinger(ws, i * 4.0 / connections) for i, ws in enumerate(sockets)))
    for ws in sockets:
        await ws.close()
    return latencies


def summary(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"p50 {statistics.median(ordered) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms, "
            f"max {ordered[-1] * 1000:.2f} ms ({len(ordered)} samples)")


async def run(rooms: int, seconds: float, pg_host: str) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))
    await fresh_database(f"postgresql://postgres@{pg_host}:5432/postgres")
    port = free_port()
    server = start_server(port, pg_host, PROJECT / "test-artifacts" / "load-server.log")
    try:
        await measure(port, server.pid, rooms, seconds)
    finally:
        server.terminate()
        server.wait(timeout=30)


async def measure(port: int, pid: int, count: int, seconds: float) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        rooms = [await make_room(http, index) for index in range(count)]
    _, rss_before = process_stats(pid)
    for room in rooms:
        await seat_room(port, room)
    await asyncio.sleep(2)
    _, rss_connected = process_stats(pid)
    connections = 4 * count
    results = Results()
    rng = random.Random(1)
    cpu_start, wall_start = process_stats(pid)[0], time.monotonic()
    client_start = resource.getrusage(resource.RUSAGE_SELF)
    stop = time.monotonic() + seconds
    await asyncio.gather(*(listen(room, seat, results, stop, rng) for room in rooms for seat in range(4)))
    cpu_used, wall = process_stats(pid)[0] - cpu_start, time.monotonic() - wall_start
    client_end = resource.getrusage(resource.RUSAGE_SELF)
    client_cpu = (client_end.ru_utime + client_end.ru_stime) - (client_start.ru_utime + client_start.ru_stime)
    _, rss_loaded = process_stats(pid)
    in_flight = sum(len(room.pending) for room in rooms)
    for room in rooms:
        for ws in room.sockets:
            await ws.close()
    echo = await echo_phase(port, connections, min(seconds, 30))
    stored = await stored_moves()
    report(count, connections, results, wall, cpu_used, rss_before, rss_connected, rss_loaded, echo)
    print(f"load generator CPU: {client_cpu / wall * 100:.0f}% of one core; machine load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"moves stored: {stored} (sent {results.moves}; {in_flight} still in flight when the clock "
          "stopped; every stored move is counted once)")


async def stored_moves() -> int:
    connection = await asyncpg.connect(f"postgresql://postgres@127.0.0.1:5432/{DATABASE}")
    try:
        count: int = await connection.fetchval("SELECT count(*) FROM actions WHERE seat IS NOT NULL")
        return count
    finally:
        await connection.close()


def report(count: int, connections: int, results: Results, wall: float, cpu: float, rss_before: int,
           rss_connected: int, rss_loaded: int, echo: list[float]) -> None:
    print(f"rooms: {count} ({connections} WebSocket connections), {wall:.0f} s of play, PostgreSQL")
    print(f"action -> last seat's state: {summary(results.latencies)}")
    print(f"echo baseline round trip:    {summary(echo)}")
    print(f"moves sent: {results.moves} ({results.moves / wall:.0f}/s); moves seen by all four: "
          f"{len(results.latencies)}; error frames: {len(results.errors)} {sorted(set(results.errors))}")
    print(f"server CPU: {cpu / wall * 100:.0f}% of one core")
    print(f"server memory: {rss_before / 2**20:.0f} MiB before connections, "
          f"{(rss_connected - rss_before) / connections / 1024:.1f} KiB per idle connection, "
          f"{(rss_loaded - rss_before) / connections / 1024:.1f} KiB per connection under load")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--pg-host", default="127.0.0.1")
    args = parser.parse_args()
    (PROJECT / "test-artifacts").mkdir(exist_ok=True)
    asyncio.run(run(args.rooms, args.seconds, args.pg_host))


if __name__ == "__main__":
    main()
