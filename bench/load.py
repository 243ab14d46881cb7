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

``--nodes N`` (N > 1), ``--relayed``, ``--failover``: the same rooms on a cluster of nodes
(``bench/load_cluster.py``). ``--rate R`` asks for R moves a second in all: R rooms.

The clients run in one process on the server's machine, where their own delays would count in every
figure, so they are kept cheap (``bench/loadgen.py``).
"""


from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import resource
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import httpx2 as httpx
import load_cluster
import load_failover
from loadgen import (
    DATABASE,
    HTTP_GROUP,
    PROJECT,
    SETUP_GROUP,
    LoadRun,
    Payload,
    Play,
    Results,
    WebSocket,
    Window,
    bounded,
    close_all,
    free_port,
    fresh_database,
    latency_json,
    make_room,
    open_websocket,
    percentiles,
    process_stats,
    quiet_collector,
    seat_room,
    start_server,
    stored_count,
    summary,
    write_json,
)


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



def ratios(moves: list[float], floor: list[float]) -> str:
    if not moves or not floor:
        return "no samples"
    (move_p50, move_p99, _), (floor_p50, floor_p99, _) = percentiles(moves), percentiles(floor)
    return f"move p50 = {move_p50 / floor_p50:.1f}x its p50, move p99 = {move_p99 / floor_p99:.1f}x its p99"


@dataclass
class Moves:
    """What the game phase measured: the latencies, the server's CPU (the clock's window, the server's
    pid alone) and memory, the client's CPU."""

    results: Results
    window: Window
    rss: tuple[int, int, int]
    in_flight: int


async def run(options: LoadRun) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))
    await fresh_database(f"postgresql://postgres@{options.pg_host}:5432/postgres", options.database)
    port = free_port()
    server = start_server(port, options.pg_host, PROJECT / "test-artifacts" / "load-server.log",
                          options.database)
    try:
        await measure(port, server.pid, options)
    finally:
        server.terminate()
        server.wait(timeout=30)


@dataclass
class Baselines:
    grouped: Baseline
    echo: Baseline
    durable: Baseline


async def measure(port: int, pid: int, options: LoadRun) -> None:
    """The four phases on the same server and number of connections: moves, the grouped durable
    baseline, the echo, and last the durable baseline with a commit per frame (whose backlog, when the
    database cannot keep up with it, would otherwise spill into the next phase); with ``moves_only``,
    the moves alone."""
    count, seconds = options.rooms, options.seconds
    moves = await moves_phase(port, pid, count, seconds, options.spread)
    floor = min(seconds, 30)
    baselines = None if options.moves_only else Baselines(
        grouped=await durable_phase(port, pid, count, floor, "grouped"),
        echo=await echo_phase(port, pid, 4 * count, floor),
        durable=await durable_phase(port, pid, count, floor, "durable"))
    gc.enable()
    dsn = f"postgresql://postgres@{options.pg_host}:5432/{options.database}"
    stored = await stored_count(dsn, "SELECT count(*) FROM actions WHERE seat IS NOT NULL")
    report(count, moves, baselines)
    print(f"moves stored: {stored} (sent {moves.results.moves}; {moves.in_flight} still in flight when "
          "the clock stopped; every stored move is counted once)")
    if baselines is not None:
        rows = await stored_count(dsn, "SELECT count(*) FROM bench_writes")
        print(f"durable baseline rows stored: {rows} (frames sent "
              f"{baselines.grouped.sent + baselines.durable.sent})")
    if options.json is not None:
        window = moves.window
        write_json(options.json, {
            "nodes": 1, "cluster": False, "rooms": count, "seconds": window.wall,
            "moves_per_second": window.moves / window.wall, "owned": latency_json(moves.results.latencies),
            "relayed": latency_json(moves.results.relayed), "errors": len(moves.results.errors),
            "node_cpu": [window.cpu[0] / window.wall], "client_cpu": window.client / window.wall,
            "stored": stored, "sent": moves.results.moves, "load_average": os.getloadavg()[0]})


async def moves_phase(port: int, pid: int, count: int, seconds: float, spread: float) -> Moves:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        rooms = await bounded(HTTP_GROUP, partial(make_room, http), range(count))
    _, rss_before = process_stats(pid)
    results = Results()
    play = Play(results, random.Random(1), spread)
    await bounded(SETUP_GROUP, partial(seat_room, port, play), rooms)
    await asyncio.sleep(2)
    _, rss_connected = process_stats(pid)
    quiet_collector()
    play.start(rooms)
    await asyncio.sleep(spread)  # until every room has started: only then is the load what it is
    results.latencies.clear()
    clock = Window.open([pid], results)
    await asyncio.sleep(seconds)
    play.stop()
    window = clock.close(results)
    _, rss_loaded = process_stats(pid)
    in_flight = sum(len(room.pending) for room in rooms)
    await close_all([websocket for room in rooms for websocket in room.sockets])
    return Moves(results, window, (rss_before, rss_connected, rss_loaded), in_flight)


def report(count: int, moves: Moves, baselines: Baselines | None) -> None:
    connections, results, wall = 4 * count, moves.results, moves.window.wall
    rss_before, rss_connected, rss_loaded = moves.rss
    print(f"rooms: {count} ({connections} WebSocket connections), {wall:.0f} s of play, PostgreSQL")
    print(f"action -> last seat's state:      {summary(results.latencies)}")
    moved = results.latencies
    if baselines is not None:
        print(f"durable, grouped -> last of four: {summary(baselines.grouped.latencies)}")
        print(f"durable, own commit -> last of 4: {summary(baselines.durable.latencies)}")
        print(f"echo baseline round trip:         {summary(baselines.echo.latencies)}")
        print(f"against the grouped durable baseline:    {ratios(moved, baselines.grouped.latencies)}")
        print(f"against the own-commit durable baseline: {ratios(moved, baselines.durable.latencies)}")
    measured = moves.window.moves
    print(f"moves sent while measured: {measured} ({measured / wall:.0f}/s); seen by all four: "
          f"{len(results.latencies)}; error frames: {len(results.errors)} {sorted(set(results.errors))}")
    during_moves = f"server CPU: {moves.window.cpu[0] / wall * 100:.0f}% of one core during the moves"
    if baselines is None:
        print(during_moves)
    else:
        print(f"{during_moves}, {baselines.grouped.cpu * 100:.0f}% during the grouped baseline, "
              f"{baselines.durable.cpu * 100:.0f}% during the own-commit one, "
              f"{baselines.echo.cpu * 100:.0f}% during the echo")
    print(f"server memory: {rss_before / 2**20:.0f} MiB before connections, "
          f"{(rss_connected - rss_before) / connections / 1024:.1f} KiB per idle connection, "
          f"{(rss_loaded - rss_before) / connections / 1024:.1f} KiB per connection under load")
    print(f"load generator CPU: {moves.window.client / wall * 100:.0f}% of one core during the moves; "
          f"machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--rate", type=int, default=None,
                        help="moves a second to ask for in all: as many rooms (each room moves about once a "
                             "second); instead of --rooms")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--spread", type=float, default=30,
                        help="rooms make their first move at random within this many seconds (a deal lasts "
                             "about 30 moves); the clock starts once every room has started")
    parser.add_argument("--pg-host", default="127.0.0.1")
    parser.add_argument("--database", default=None,
                        help=f"the database made anew for the run (default: {DATABASE}, and "
                             f"{load_cluster.DATABASE} for a cluster)")
    parser.add_argument("--moves-only", action="store_true", help="one server: skip the baselines")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    cluster = parser.add_argument_group("cluster (bench/load_cluster.py)")
    cluster.add_argument("--nodes", type=int, default=1,
                         help="nodes of a cluster (a Redis of the run's own); 1: one server, no cluster")
    cluster.add_argument("--cluster", action="store_true", help="a cluster even of one node")
    cluster.add_argument("--relayed", type=float, default=0.0,
                         help="the share of rooms whose sockets reach a node other than the owner (0 to 1)")
    cluster.add_argument("--lease", type=float, default=None,
                         help="CARDROOM_LEASE_SECONDS of the nodes (default: 5, the server's; 2 with "
                              "--failover)")
    cluster.add_argument("--failover", action="store_true",
                         help="SIGKILL the node owning most rooms mid-play; time until each of its rooms "
                              "moves again on another node")
    return parser.parse_args()


def main() -> None:
    args = arguments()
    clustered = args.nodes > 1 or args.cluster or args.failover
    if not 0 <= args.relayed <= 1:
        raise SystemExit("--relayed is a share of the rooms, from 0 to 1")
    if (args.relayed or args.failover) and args.nodes < 2:
        raise SystemExit("--relayed and --failover need at least two nodes (--nodes)")
    if args.relayed and args.failover:
        raise SystemExit("--failover measures rooms whose sockets reach their owner: leave out --relayed")
    database = args.database or (load_cluster.DATABASE if clustered else DATABASE)
    lease = args.lease or (2.0 if args.failover else 5.0)
    options = LoadRun(rooms=args.rate if args.rate is not None else args.rooms, seconds=args.seconds,
                      spread=args.spread, pg_host=args.pg_host, database=database,
                      moves_only=args.moves_only, json=args.json, nodes=args.nodes, relayed=args.relayed,
                      lease=lease, failover=args.failover)
    (PROJECT / "test-artifacts").mkdir(exist_ok=True)
    if options.failover:
        asyncio.run(load_failover.run(options))
    else:
        asyncio.run(load_cluster.run(options) if clustered else run(options))


if __name__ == "__main__":
    main()
