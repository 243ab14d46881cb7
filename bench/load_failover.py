"""A node killed under load: ``python bench/load.py --nodes 3 --failover --rooms 100``.

The rooms play on a cluster as in ``bench/load_cluster.py`` (every room's sockets reach its owner) and,
``--seconds`` after every room has started, the node that owns most rooms is killed (SIGKILL). The
sockets it held reconnect at once, each room's to one of the other nodes; for each of its rooms the run
times the SIGKILL to the first state whose version is above the first one the room showed after it
(the first change applied by the new owner, as a client sees it). The floor is the lease's expiry,
read from Redis just before the kill. Then the action log of every match is checked: numbered 1..n
with no gap, no client's move stored twice.
"""

from __future__ import annotations

import asyncio
import collections
import os
import random
import signal
import time
from dataclasses import dataclass
from functools import partial

import asyncpg
import load_cluster
import loadgen
from load_cluster import SETTLE_SECONDS, Cluster, Node, Table, database_dsn, open_tables, owners, seat_tables
from redis.asyncio import Redis
from websockets.exceptions import WebSocketException

RECONNECT_TRIES = 50


async def run(options: loadgen.LoadRun) -> None:
    await load_cluster.run(options, failover)


@dataclass
class Recovery:
    """What one room of the killed node showed after the kill."""

    before: int
    """The highest version its players had seen."""
    resumed: int | None = None
    """The version of the first state after the kill."""
    shown: float | None = None
    """When that state arrived (``time.perf_counter``)."""
    moved: float | None = None
    """When a state above ``resumed`` arrived (``time.perf_counter``)."""
    floor: float = 0.0
    """Seconds from the kill to the expiry of the room's lease (read from Redis just after the kill)."""


class Failover(loadgen.Play):
    """The play of :class:`loadgen.Play`, and sockets that reconnect at once when their node dies: each
    room's to the surviving node ``index mod survivors``, signed in again, its unanswered moves forgotten."""

    def __init__(self, results: loadgen.Results, rng: random.Random, spread: float) -> None:
        super().__init__(results, rng, spread)
        self.survivors: list[Node] = []
        self.recoveries: dict[str, Recovery] = {}
        self.killed_at = 0.0
        self.reconnects = 0
        self.tasks: set[asyncio.Task[None]] = set()

    def watch(self, table: Table) -> None:
        for seat, websocket in enumerate(table.room.sockets):
            self.follow(table, seat, websocket)

    def follow(self, table: Table, seat: int, websocket: loadgen.WebSocket) -> None:
        """Reconnect when ``websocket`` (the room's socket for ``seat``) closes under it."""
        websocket.closed.add_done_callback(lambda _: self.lost(table, seat, websocket))

    def kill(self, node: Node, survivors: list[Node], tables: list[Table]) -> None:
        self.survivors = survivors
        self.recoveries = {table.room.id: Recovery(table.room.version) for table in tables}
        for table in tables:
            table.room.pending.clear()
        self.killed_at = time.perf_counter()
        assert node.process is not None
        node.process.send_signal(signal.SIGKILL)

    def lost(self, table: Table, seat: int, websocket: loadgen.WebSocket) -> None:
        if self.over or table.room.sockets[seat] is not websocket:
            return
        task = asyncio.ensure_future(self.reconnect(table, seat))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def reconnect(self, table: Table, seat: int) -> None:
        room = table.room
        node = self.survivors[table.index % len(self.survivors)]
        for _ in range(RECONNECT_TRIES):
            try:
                websocket = await loadgen.open_websocket(f"ws://127.0.0.1:{node.port}/ws/rooms/{room.id}",
                                                         partial(self.receive_again, room, seat))
                break
            except (OSError, TimeoutError, WebSocketException):
                await asyncio.sleep(0.1)
        else:
            self.results.errors.append("bench/reconnect_failed")
            return
        self.reconnects += 1
        # Moves and readiness sent to the dead node may never have arrived: they may be sent again
        # (the server knows a move it stored by its id).
        room.sent_refs = {ref for ref in room.sent_refs if not ref.startswith(f"{seat}-")}
        room.ready_sent = {(deal, ready) for deal, ready in room.ready_sent if ready != seat}
        room.pending.clear()
        room.sockets[seat] = websocket
        websocket.send(loadgen.dumps({"type": "auth", "token": room.tokens[seat]}))
        self.follow(table, seat, websocket)

    def receive_again(self, room: loadgen.Room, seat: int, data: loadgen.Payload) -> None:
        head = loadgen.HEAD
        kind, version = loadgen.TYPE.search(data, 0, head), loadgen.VERSION.search(data, 0, head)
        recovery = self.recoveries.get(room.id)
        if recovery is not None and kind is not None and kind[1] == b"state" and version is not None:
            seen = int(version[1])
            if recovery.resumed is None:
                recovery.resumed, recovery.shown = seen, time.perf_counter()
            elif seen > recovery.resumed and recovery.moved is None:
                recovery.moved = time.perf_counter()
        self.receive(room, seat, data)

    def recovered(self) -> bool:
        return all(recovery.moved is not None for recovery in self.recoveries.values())


async def failover(cluster: Cluster, client: Redis, _admin: asyncpg.Connection,
                   options: loadgen.LoadRun) -> None:
    tables = await open_tables(cluster, options.rooms, 0.0)
    results = loadgen.Results()
    play = Failover(results, random.Random(1), options.spread)
    await seat_tables(cluster, play, tables)
    for table in tables:
        play.watch(table)
    loadgen.quiet_collector()
    play.start([table.room for table in tables])
    await asyncio.sleep(options.spread + options.seconds)
    found = await owners(client, cluster, tables)
    victim_id, owned = collections.Counter(owner for owner in found if owner is not None).most_common(1)[0]
    victim = next(node for node in cluster.nodes if node.node_id == victim_id)
    struck = [table for table, owner in zip(tables, found, strict=True) if owner == victim_id]
    play.kill(victim, [node for node in cluster.nodes if node is not victim], struck)
    await read_floors(client, cluster, play, struck)
    deadline = time.monotonic() + options.lease * 2 + 30
    while not play.recovered() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(SETTLE_SECONDS)
    play.stop()
    await loadgen.close_all([websocket for table in tables for websocket in table.room.sockets])
    logs = await action_logs(options)
    report_failover(options, victim, owned, play, logs)


async def read_floors(client: Redis, cluster: Cluster, play: Failover, struck: list[Table]) -> None:
    """Each struck room's floor: its lease's time to live, read just after the kill, plus the time
    since the kill."""
    ttls = await client.eval(
        "local t = {} for i, key in ipairs(KEYS) do t[i] = redis.call('PTTL', key) end return t",
        len(struck), *cluster.lease_keys([table.room for table in struck]))
    since = time.perf_counter() - play.killed_at
    for table, ttl in zip(struck, ttls, strict=True):
        play.recoveries[table.room.id].floor = since + max(int(ttl), 0) / 1000


@dataclass
class Logs:
    matches: int
    steps: int
    gaps: int
    """Matches whose steps are not numbered 1..n."""
    doubles: int
    """Client moves stored more than once (one seat's move id twice in a match)."""


async def action_logs(options: loadgen.LoadRun) -> Logs:
    connection = await asyncpg.connect(database_dsn(options))
    try:
        rows = await connection.fetch(
            "SELECT count(*) AS steps, min(seq) AS first, max(seq) AS last, count(DISTINCT seq) AS seqs, "
            "count(ref) AS refs, count(DISTINCT seat::text || ':' || ref) AS distinct_refs "
            "FROM actions GROUP BY match_id")
    finally:
        await connection.close()
    return Logs(len(rows), sum(row["steps"] for row in rows),
                sum(not (row["first"] == 1 and row["last"] == row["steps"] == row["seqs"]) for row in rows),
                sum(row["refs"] - row["distinct_refs"] for row in rows))


def report_failover(options: loadgen.LoadRun, victim: Node, owned: int, play: Failover, logs: Logs) -> None:
    recoveries = list(play.recoveries.values())
    times = [recovery.moved - play.killed_at for recovery in recoveries if recovery.moved is not None]
    beyond = [recovery.moved - play.killed_at - recovery.floor for recovery in recoveries
              if recovery.moved is not None]
    floors = [recovery.floor for recovery in recoveries]
    shown = [recovery.shown - play.killed_at - recovery.floor for recovery in recoveries
             if recovery.shown is not None]
    behind = sum(recovery.resumed is not None and recovery.resumed < recovery.before
                 for recovery in recoveries)
    print(f"failover: {options.rooms} rooms on {options.nodes} nodes, lease {options.lease:g} s; "
          f"{victim.node_id} owned {owned} of them and was killed (SIGKILL)")
    if floors:
        print(f"lease left at the kill (the floor): {min(floors):.2f} to {max(floors):.2f} s")
    if times:
        p50, p99, most = loadgen.percentiles(times)
        print(f"SIGKILL -> first change applied by the new owner: p50 {p50:.2f} s, p99 {p99:.2f} s, "
              f"max {most:.2f} s, min {min(times):.2f} s ({len(times)} of {len(recoveries)} rooms)")
        p50, p99, most = loadgen.percentiles(beyond)
        print(f"  of which after the lease's expiry: p50 {p50:.2f} s, p99 {p99:.2f} s, max {most:.2f} s")
        p50, p99, most = loadgen.percentiles(shown)
        print(f"  the first state after the kill came after the lease's expiry: p50 {p50:.2f} s, p99 "
              f"{p99:.2f} s, max {most:.2f} s (the room found without an owner, taken and rebuilt)")
    print(f"sockets reconnected: {play.reconnects}; rooms whose new owner showed a version below what "
          f"their players had seen: {behind}; error frames: {len(play.results.errors)} "
          f"{sorted(set(play.results.errors))}")
    print(f"action logs: {logs.matches} matches, {logs.steps} steps; logs with a gap: {logs.gaps}; "
          f"moves stored twice: {logs.doubles}")
    if options.json is not None:
        loadgen.write_json(options.json, {
            "nodes": options.nodes, "rooms": options.rooms, "lease": options.lease, "killed": victim.node_id,
            "owned": owned, "lease_left": [min(floors, default=0), max(floors, default=0)],
            "failover_ms": loadgen.latency_json(times), "beyond_lease_ms": loadgen.latency_json(beyond),
            "shown_beyond_lease_ms": loadgen.latency_json(shown),
            "recovered": len(times), "behind": behind, "reconnects": play.reconnects,
            "matches": logs.matches, "steps": logs.steps, "gaps": logs.gaps, "doubles": logs.doubles,
            "load_average": os.getloadavg()[0]})
