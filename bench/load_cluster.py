"""The load of ``bench/load.py`` on a cluster: ``python bench/load.py --nodes 2 --rooms 400``.

Starts a Redis server of its own (no persistence, stopped at the end) and ``--nodes`` nodes
(``cardroom serve``, each on a port of its own with the node id ``node<i>``), all on one PostgreSQL
database made anew. Room ``i`` belongs to node ``i mod N``: it is made through that node, and a
spectator's socket opened there at once makes that node its owner (the first socket of a room makes the
node it reaches the owner). Its four players then connect to the owner, or, for the share ``--relayed``
of each node's rooms, to the next node, which relays every frame to the owner; the spectator leaves once
they sit. The moves are measured as on one server, those of the relayed rooms apart from the others,
so that the relay's cost reads as the difference in one run. Over the same window the run reads each
node's processor time and memory, Redis's commands and processor time, and the database's commits and
rows (``pg_stat_database``, whose counters a busy backend reports about once a second).

``--failover``: ``bench/load_failover.py``.
"""

from __future__ import annotations

import asyncio
import os
import random
import resource
import subprocess
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import asyncpg
import httpx2 as httpx
import loadgen
from redis.asyncio import Redis
from support.cluster import RedisServer
from support.live import stop_process

DATABASE = "cardroom_load_cluster"
PREFIX = "bench"
ARTIFACTS = loadgen.PROJECT / "test-artifacts"
SETTLE_SECONDS = 2.0
"""After the last socket opens, before memory is read."""
SIGN_INS_PER_NODE = 20
"""A node's database pool (``app/db/session.py``: 20 connections, and 20 more while busy)."""


@dataclass
class Node:
    number: int
    port: int = field(default_factory=loadgen.free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def node_id(self) -> str:
        return f"node{self.number}"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return ARTIFACTS / f"load-{self.node_id}.log"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def launch(self, options: loadgen.LoadRun, redis_url: str) -> None:
        self.process = loadgen.launch_server(self.port, options.pg_host, self.log, options.database, {
            "redis_url": redis_url, "redis_prefix": PREFIX, "node_id": self.node_id,
            "node_address": self.base, "lease_seconds": str(options.lease)})


@dataclass
class Cluster:
    redis: RedisServer
    nodes: list[Node]

    def start(self, options: loadgen.LoadRun) -> None:
        """Redis, then the first node (which migrates the fresh database), then the others."""
        self.redis.start()
        first, *others = self.nodes
        first.launch(options, self.redis.url)
        loadgen.wait_until_up(first.port, first.log)
        for node in others:
            node.launch(options, self.redis.url)
        for node in others:
            loadgen.wait_until_up(node.port, node.log)

    def stop(self) -> None:
        for node in self.nodes:
            stop_process(node.process)
        self.redis.kill()

    def redis_pid(self) -> int:
        assert self.redis.process is not None
        return self.redis.process.pid

    def lease_keys(self, rooms: list[loadgen.Room]) -> list[str]:
        return [f"{PREFIX}:lease:{room.id}" for room in rooms]


@dataclass
class Table:
    """A room of the run, the node that owns it and the node its players' sockets reach."""

    index: int
    room: loadgen.Room
    owner: int
    home: int
    spectator: loadgen.WebSocket | None = None

    @property
    def sockets(self) -> int:
        return len(self.room.tokens)


def is_relayed(index: int, nodes: int, share: float) -> bool:
    """Whether room ``index`` is relayed: ``share`` of each node's rooms, spread evenly among them."""
    rank = index // nodes
    return int((rank + 1) * share) > int(rank * share)


async def open_table(cluster: Cluster, clients: list[httpx.AsyncClient], share: float, index: int) -> Table:
    """Room ``index``, made through its owner, whose spectator's socket there makes that node the owner."""
    count = len(cluster.nodes)
    owner = index % count
    relayed = is_relayed(index, count, share)
    room = await loadgen.make_room(clients[owner], index)
    room.relayed = relayed
    loop = asyncio.get_running_loop()
    shown: asyncio.Future[None] = loop.create_future()

    def first_frame(_data: loadgen.Payload) -> None:
        if not shown.done():
            shown.set_result(None)

    url = f"ws://127.0.0.1:{cluster.nodes[owner].port}/ws/rooms/{room.id}"
    spectator = await loadgen.open_websocket(url, first_frame)
    await asyncio.wait_for(shown, 60)
    return Table(index, room, owner, (owner + 1) % count if relayed else owner, spectator)


async def open_tables(cluster: Cluster, count: int, share: float) -> list[Table]:
    clients = [httpx.AsyncClient(base_url=node.base, timeout=60) for node in cluster.nodes]
    try:
        return await loadgen.bounded(loadgen.HTTP_GROUP, partial(open_table, cluster, clients, share),
                                     range(count))
    finally:
        for client in clients:
            await client.aclose()


async def seat_tables(cluster: Cluster, play: loadgen.Play, tables: list[Table]) -> None:
    """The players of every table sit through their node, then the spectators leave. Each sign-in
    takes a database connection: a few rooms at a time per node keep each node's pool within its
    size, so that the nodes together do not ask PostgreSQL for more connections than it serves."""
    group = min(loadgen.SETUP_GROUP, SIGN_INS_PER_NODE // 4 * len(cluster.nodes))
    await loadgen.bounded(group,
                          lambda table: loadgen.seat_room(cluster.nodes[table.home].port, play, table.room),
                          tables)
    await loadgen.close_all([table.spectator for table in tables if table.spectator is not None])


async def owners(client: Redis, cluster: Cluster, tables: list[Table]) -> list[str | None]:
    found = await client.mget(cluster.lease_keys([table.room for table in tables]))
    return [None if owner is None else owner.decode() if isinstance(owner, bytes) else str(owner)
            for owner in found]


# --- what the window measured besides the moves --------------------------------------------------------


@dataclass
class Counts:
    """Counters read at both ends of the window."""

    redis_calls: dict[str, int]
    redis_commands: int
    database: dict[str, int]
    backends: dict[int, float]
    """Processor seconds of each backend of the run's database."""
    wal: int
    """Bytes of write-ahead log of the whole PostgreSQL server (other databases' writes included)."""
    written: list[int]
    """Bytes each node wrote to its sockets (clients, PostgreSQL, Redis, other nodes) and files."""

    def since(self, start: Counts) -> Counts:
        calls = {name: calls - start.redis_calls.get(name, 0) for name, calls in self.redis_calls.items()}
        return Counts({name: calls for name, calls in calls.items() if calls},
                      self.redis_commands - start.redis_commands,
                      {name: value - start.database[name] for name, value in self.database.items()},
                      {pid: cpu - start.backends[pid] for pid, cpu in self.backends.items()
                       if pid in start.backends},
                      self.wal - start.wal,
                      [end - begin for end, begin in zip(self.written, start.written, strict=True)])


DATABASE_COUNTERS = ("xact_commit", "xact_rollback", "tup_inserted", "tup_updated", "tup_deleted")


def bytes_written(pid: int) -> int:
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


async def read_counts(client: Redis, admin: asyncpg.Connection, database: str, nodes: list[int]) -> Counts:
    commands = await client.info("commandstats")
    stats = await client.info("stats")
    row = await admin.fetchrow(f"SELECT {', '.join(DATABASE_COUNTERS)} FROM pg_stat_database "
                               "WHERE datname = $1", database)
    pids = [record["pid"] for record in await admin.fetch(
        "SELECT pid FROM pg_stat_activity WHERE datname = $1", database)]
    backends = {}
    for pid in pids:
        try:
            backends[pid] = loadgen.process_stats(pid)[0]
        except OSError:
            continue
    # The run's own INFO calls are left out.
    own = commands.get("cmdstat_info", {}).get("calls", 0)
    return Counts({name.removeprefix("cmdstat_"): entry["calls"] for name, entry in commands.items()
                   if name != "cmdstat_info"},
                  int(stats["total_commands_processed"]) - own,
                  {name: int(row[name]) for name in DATABASE_COUNTERS}, backends,
                  int(await admin.fetchval("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')")),
                  [bytes_written(pid) for pid in nodes])


# --- the run -------------------------------------------------------------------------------------------


def database_dsn(options: loadgen.LoadRun) -> str:
    return f"postgresql://postgres@{options.pg_host}:5432/{options.database}"


Body = Callable[[Cluster, Redis, asyncpg.Connection, loadgen.LoadRun], Awaitable[None]]


async def run(options: loadgen.LoadRun, body: Body | None = None) -> None:
    """A fresh database, Redis and the nodes; ``body`` (by default :func:`measure`) runs on them, and
    they are stopped whatever it does."""
    body = body or measure
    resource.setrlimit(resource.RLIMIT_NOFILE, (20000, 20000))
    admin_dsn = f"postgresql://postgres@{options.pg_host}:5432/postgres"
    await loadgen.fresh_database(admin_dsn, options.database)
    cluster = Cluster(RedisServer(ARTIFACTS / "load-redis"),
                      [Node(number) for number in range(options.nodes)])
    try:
        await asyncio.to_thread(cluster.start, options)
        client = Redis.from_url(cluster.redis.url)
        admin = await asyncpg.connect(admin_dsn)
        try:
            await body(cluster, client, admin, options)
        finally:
            await client.aclose()
            await admin.close()
    finally:
        await asyncio.to_thread(cluster.stop)


@dataclass
class Measured:
    tables: list[Table]
    results: loadgen.Results
    window: loadgen.Window
    counts: Counts
    rss: list[tuple[int, int, int]]
    """Each node's memory before its sockets, with them idle, and at the end of the window."""
    in_flight: int
    misplaced: int
    """Rooms whose owner is not the node meant to own them."""


async def measure(cluster: Cluster, client: Redis, admin: asyncpg.Connection,
                  options: loadgen.LoadRun) -> None:
    tables = await open_tables(cluster, options.rooms, options.relayed)
    found = await owners(client, cluster, tables)
    misplaced = sum(owner != cluster.nodes[table.owner].node_id
                    for table, owner in zip(tables, found, strict=True))
    pids = [node.pid for node in cluster.nodes]
    rss_before = [loadgen.process_stats(pid)[1] for pid in pids]
    results = loadgen.Results()
    play = loadgen.Play(results, random.Random(1), options.spread)
    await seat_tables(cluster, play, tables)
    await asyncio.sleep(SETTLE_SECONDS)
    rss_connected = [loadgen.process_stats(pid)[1] for pid in pids]
    rooms = [table.room for table in tables]
    loadgen.quiet_collector()
    play.start(rooms)
    await asyncio.sleep(options.spread)
    results.latencies.clear()
    results.relayed.clear()
    start = await read_counts(client, admin, options.database, pids)
    clock = loadgen.Window.open([*pids, cluster.redis_pid()], results)
    await asyncio.sleep(options.seconds)
    play.stop()
    window = clock.close(results)
    counts = (await read_counts(client, admin, options.database, pids)).since(start)
    rss_loaded = [loadgen.process_stats(pid)[1] for pid in pids]
    in_flight = sum(len(room.pending) for room in rooms)
    await loadgen.close_all([websocket for room in rooms for websocket in room.sockets])
    measured = Measured(tables, results, window, counts,
                        list(zip(rss_before, rss_connected, rss_loaded, strict=True)), in_flight, misplaced)
    stored = await loadgen.stored_count(database_dsn(options),
                                        "SELECT count(*) FROM actions WHERE seat IS NOT NULL")
    report(cluster, options, measured, stored)


@dataclass
class NodeLoad:
    """One node's share of the run: its rooms, the sockets it holds, its processor time and memory."""

    node: Node
    owned: int
    clients: int
    hops_in: int
    hops_out: int
    cpu: float
    rss: tuple[int, int, int]

    @property
    def sockets(self) -> int:
        return self.clients + self.hops_in + self.hops_out

    def per_socket(self, rss: int) -> float:
        """KiB of ``rss`` above the memory before any socket, per socket."""
        return (rss - self.rss[0]) / max(self.sockets, 1) / 1024


def node_loads(cluster: Cluster, measured: Measured) -> list[NodeLoad]:
    loads = []
    for number, node in enumerate(cluster.nodes):
        owned = [table for table in measured.tables if table.owner == number]
        homed = [table for table in measured.tables if table.home == number]
        relayed_in = [table for table in owned if table.home != number]
        relayed_out = [table for table in homed if table.owner != number]
        loads.append(NodeLoad(node, len(owned), sum(table.sockets for table in homed),
                              sum(table.sockets for table in relayed_in),
                              sum(table.sockets for table in relayed_out),
                              measured.window.cpu[number], measured.rss[number]))
    return loads


def report(cluster: Cluster, options: loadgen.LoadRun, measured: Measured, stored: int) -> None:
    results, window, counts = measured.results, measured.window, measured.counts
    wall, moves = window.wall, max(window.moves, 1)
    relayed = sum(table.room.relayed for table in measured.tables)
    print(f"cluster: {len(cluster.nodes)} node(s), {options.rooms} rooms ({relayed} relayed), lease "
          f"{options.lease:g} s, {wall:.0f} s of play, PostgreSQL and a Redis of its own")
    summary = loadgen.summary
    print(f"owned rooms   action -> last seat's state: {summary(results.latencies)}")
    print(f"relayed rooms action -> last seat's state: {summary(results.relayed)}")
    print(f"all rooms     action -> last seat's state: {summary(results.latencies + results.relayed)}")
    seen = len(results.latencies) + len(results.relayed)
    print(f"moves sent while measured: {window.moves} ({window.moves / wall:.0f}/s); seen by all four: "
          f"{seen}; error frames: {len(results.errors)} {sorted(set(results.errors))}; rooms not owned "
          f"where placed: {measured.misplaced}")
    loads = node_loads(cluster, measured)
    for load in loads:
        rss_before, rss_connected, rss_loaded = load.rss
        print(f"{load.node.node_id}: {load.owned} rooms owned, {load.clients} client sockets, relay hops "
              f"{load.hops_in} in / {load.hops_out} out; CPU {load.cpu / wall * 100:.0f}% of one core; "
              f"memory {rss_before / 2**20:.0f} MiB before sockets, {load.per_socket(rss_connected):.1f} "
              f"KiB per socket idle, {load.per_socket(rss_loaded):.1f} under load "
              f"({rss_loaded / 2**20:.0f} MiB in all, {rss_loaded / max(load.sockets, 1) / 1024:.1f} KiB "
              "per socket)")
    node_cpu = sum(load.cpu for load in loads)
    backends = sum(counts.backends.values())
    print(f"processor time per move: nodes {node_cpu / moves * 1000:.3f} ms, Redis "
          f"{window.cpu[-1] / moves * 1000:.3f} ms, PostgreSQL backends {backends / moves * 1000:.3f} ms, "
          f"load generator {window.client / moves * 1000:.3f} ms")
    calls = ", ".join(f"{name} {value / wall:.1f}/s" for name, value in
                      sorted(counts.redis_calls.items(), key=lambda item: -item[1]))
    commands = counts.redis_commands
    print(f"Redis: {commands / wall:.1f} commands/s, those run by scripts included ({commands / moves:.3f} "
          f"per move, {commands / wall / options.rooms:.3f} per room a second), CPU "
          f"{window.cpu[-1] / wall * 100:.1f}% of one core; by command: {calls}")
    database = counts.database
    print(f"PostgreSQL ({options.database}): {database['xact_commit'] / wall:.0f} commits/s "
          f"({database['xact_commit'] / moves:.3f} per move), rows inserted "
          f"{database['tup_inserted'] / moves:.2f} and updated {database['tup_updated'] / moves:.2f} per "
          f"move; its backends' CPU {backends / wall * 100:.0f}% of one core; write-ahead log "
          f"{counts.wal / moves:.0f} bytes per move (the whole server's)")
    print(f"bytes the nodes wrote per move (to clients, PostgreSQL, Redis, each other): "
          f"{sum(counts.written) / moves:.0f}")
    print(f"moves stored: {stored} (sent {results.moves}; {measured.in_flight} still in flight when the "
          "clock stopped)")
    print(f"load generator CPU: {window.client / wall * 100:.0f}% of one core during the moves; machine load "
          f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if options.json is not None:
        loadgen.write_json(options.json, figures(cluster, options, measured, stored, loads))


def figures(cluster: Cluster, options: loadgen.LoadRun, measured: Measured, stored: int,
            loads: list[NodeLoad]) -> dict[str, Any]:
    window, counts = measured.window, measured.counts
    wall, moves = window.wall, max(window.moves, 1)
    return {
        "nodes": len(cluster.nodes), "cluster": True, "rooms": options.rooms, "lease": options.lease,
        "relayed_rooms": sum(table.room.relayed for table in measured.tables), "seconds": wall,
        "moves_per_second": window.moves / wall, "owned": loadgen.latency_json(measured.results.latencies),
        "relayed": loadgen.latency_json(measured.results.relayed),
        "all": loadgen.latency_json(measured.results.latencies + measured.results.relayed),
        "errors": len(measured.results.errors), "misplaced": measured.misplaced,
        "node_cpu": [load.cpu / wall for load in loads], "client_cpu": window.client / wall,
        "redis_cpu": window.cpu[-1] / wall, "database_cpu": sum(counts.backends.values()) / wall,
        "cpu_per_move_ms": {"nodes": sum(load.cpu for load in loads) / moves * 1000,
                            "redis": window.cpu[-1] / moves * 1000,
                            "database": sum(counts.backends.values()) / moves * 1000},
        "redis_commands_per_second": counts.redis_commands / wall,
        "redis_calls_per_second": {name: value / wall for name, value in counts.redis_calls.items()},
        "database_per_move": {name: value / moves for name, value in counts.database.items()},
        "wal_bytes_per_move": counts.wal / moves, "node_bytes_written_per_move": sum(counts.written) / moves,
        "memory": [{"node": load.node.node_id, "sockets": load.sockets, "rss": load.rss,
                    "kib_per_socket_loaded": load.per_socket(load.rss[2])} for load in loads],
        "stored": stored, "sent": measured.results.moves, "load_average": os.getloadavg()[0]}
