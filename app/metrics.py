"""The server's metrics, in Prometheus' text format, served at ``/metrics`` on a port of their own
(``CARDROOM_METRICS_PORT``; none when unset), never on the players' port. ``docs/operations.md`` says what
each one means.

A move costs a counter and four histogram observations, on children whose labels were resolved once per
game; everything that describes the server as it stands (rooms, sockets, players) is counted only when
the metrics are read."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import logging
import math
import socket
import time
from collections import Counter as Tally
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from prometheus_client import REGISTRY, Counter, Histogram
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from app.games.registry import ENGINES

if TYPE_CHECKING:
    from app.rooms.manager import RoomManager

log = logging.getLogger(__name__)

ROOM_STATUSES = ("open", "playing", "finished")
FAST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
SLOW_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
PAUSE_BOUNDS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, math.inf)
LAG_INTERVAL = 0.5
"""How often the event loop's lag is sampled, in seconds."""
REQUEST_SECONDS = 5.0
REQUEST_HEAD_LIMIT = 16 * 1024

MOVES = Counter("cardroom_moves", "Moves applied (a player's, a bot's or the autopilot's), by game",
                ["game"])
MOVE_STAGES = Histogram("cardroom_move_stage_seconds",
                        "Time of each stage of a move: judge (the rules), store (until its write has "
                        "committed), announce (the room changed and every connection handed its frame)",
                        ["stage"], buckets=FAST_BUCKETS)
MOVE_TIMES = Histogram("cardroom_move_seconds",
                       "Time of a whole move, from the room taking it up (waiting for the room's turn "
                       "included) to its announcement", buckets=FAST_BUCKETS)
STEP_BATCHES = Histogram("cardroom_step_batch_size", "Steps (of any rooms) written in one transaction",
                         buckets=BATCH_BUCKETS)
STEP_COMMITS = Histogram("cardroom_step_commit_seconds", "Time to write and commit one transaction of steps",
                         buckets=FAST_BUCKETS)
STEP_FAILURES = Counter("cardroom_step_write_failures",
                        "Transactions of steps that failed: 'batch', a shared one (its steps are then "
                        "written one by one); 'step', a step's own (that step is not stored)", ["scope"])
BOT_DECISIONS = Histogram("cardroom_bot_decision_seconds", "Time a bot takes to decide, by game and level",
                          ["game", "level"], buckets=SLOW_BUCKETS)
TIMEOUTS = Counter("cardroom_turn_timeouts", "Decisions whose time ran out (the autopilot made them), "
                   "by game", ["game"])
TAKEOVERS = Counter("cardroom_autopilot_takeovers", "Seats the autopilot took over from a person (away, "
                    "too slow too often, or the room idle), by game", ["game"])
REJECTIONS = Counter("cardroom_rejections", "Room socket messages refused with an error frame, by code",
                     ["code"])
CLOSES = Counter("cardroom_websocket_closes", "Room sockets closed, by close code and by whom ('server' "
                 "or 'client')", ["code", "by"])
LOOP_LAG = Histogram("cardroom_event_loop_lag_seconds",
                     f"How late the event loop runs a timer due every {LAG_INTERVAL} s", buckets=FAST_BUCKETS)
LIMITS_FAILED_OPEN = Counter("cardroom_limits_failed_open", "Limit checks that allowed because Redis did not "
                             "answer them, by limit", ["limit"])
ROOMS_TAKEN = Counter("cardroom_cluster_rooms_taken", "Rooms this node took (a cluster's node: on a "
                      "socket's arrival, or from a node gone)")
ROOMS_LET_GO = Counter("cardroom_cluster_rooms_let_go", "Rooms this node let go, by reason ('stopping', "
                       "'lease_lost', 'fenced')", ["reason"])
RELAYS = Counter("cardroom_cluster_relays", "Room sockets this node relayed to the room's owner, counted "
                 "each time a relay to an owner begins")
JUDGE, STORE, ANNOUNCE = (MOVE_STAGES.labels(stage) for stage in ("judge", "store", "announce"))


@dataclass(frozen=True)
class GameMetrics:
    """The metrics a room of one game updates, with their labels resolved once."""

    game: str
    moves: Counter
    timeouts: Counter
    takeovers: Counter

    def moved(self, began: float, judging: float, judged: float, stored: float, announced: float) -> None:
        """A move taken up at ``began``, judged from ``judging`` to ``judged``, then stored and announced
        (``time.perf_counter`` readings)."""
        self.moves.inc()
        JUDGE.observe(judged - judging)
        STORE.observe(stored - judged)
        ANNOUNCE.observe(announced - stored)
        MOVE_TIMES.observe(announced - began)


@cache
def game_metrics(game: str) -> GameMetrics:
    return GameMetrics(game, MOVES.labels(game), TIMEOUTS.labels(game), TAKEOVERS.labels(game))


@cache
def bot_decisions(game: str, level: str) -> Histogram:
    return BOT_DECISIONS.labels(game, level)


def rejected(code: str) -> None:
    REJECTIONS.labels(code).inc()


def closed(code: int, by: str) -> None:
    CLOSES.labels(str(code), by).inc()


def failed_open(limit: str) -> None:
    LIMITS_FAILED_OPEN.labels(limit).inc()


class StepWrites:
    """Times one transaction of ``size`` steps: ``with StepWrites(n):`` around it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.started = 0.0

    def __enter__(self) -> None:
        self.started = time.perf_counter()

    def __exit__(self, kind: type[BaseException] | None, *_: Any) -> None:
        if kind is None:
            STEP_BATCHES.observe(self.size)
            STEP_COMMITS.observe(time.perf_counter() - self.started)
        elif issubclass(kind, Exception):
            STEP_FAILURES.labels("batch" if self.size > 1 else "step").inc()


class LiveRooms(Collector):
    """Rooms by game and status, open room sockets and the players connected through them, counted when
    read from the room managers of the apps serving in this process."""

    def __init__(self) -> None:
        self.managers: list[RoomManager] = []

    def collect(self) -> Iterator[Metric]:
        rooms = GaugeMetricFamily("cardroom_rooms", "Rooms held in memory, by game and status",
                                  labels=["game", "status"])
        held = [room for manager in self.managers for room in manager.rooms.values()]
        tally = Tally((room.engine.name, room.status.value) for room in held)
        for game in sorted(ENGINES):
            for status in ROOM_STATUSES:
                rooms.add_metric([game, status], tally[game, status])
        yield rooms
        yield GaugeMetricFamily("cardroom_sockets", "Room WebSockets open (players' and spectators')",
                                value=sum(sum(manager.connections.open_by_ip.values())
                                          for manager in self.managers))
        players = {conn.player_id for room in held for conn in room.connections if conn.player_id}
        yield GaugeMetricFamily("cardroom_players_connected", "Players with at least one room socket open",
                                value=len(players))


class GcPauses(Collector):
    """The garbage collector's pauses, by generation. Kept in plain lists, not in the client's metrics,
    whose locks a collection could interrupt on the same thread."""

    def __init__(self) -> None:
        self.counts = [[0] * len(PAUSE_BOUNDS) for _ in range(3)]
        self.sums = [0.0] * 3
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
            return
        pause = time.perf_counter() - self.started
        generation = info["generation"]
        self.sums[generation] += pause
        self.counts[generation][bisect.bisect_left(PAUSE_BOUNDS, pause)] += 1

    def collect(self) -> Iterator[Metric]:
        family = HistogramMetricFamily("cardroom_gc_pause_seconds",
                                       "Time the garbage collector stopped the process, by generation",
                                       labels=["generation"])
        for generation in range(3):
            family.add_metric([str(generation)], list(_cumulative(self.counts[generation])),
                              self.sums[generation])
        yield family


def _cumulative(counts: list[int]) -> Iterable[tuple[str, float]]:
    total = 0
    for bound, count in zip(PAUSE_BOUNDS, counts, strict=True):
        total += count
        yield ("+Inf" if math.isinf(bound) else repr(bound)), float(total)


LIVE = LiveRooms()
GC_PAUSES = GcPauses()
REGISTRY.register(LIVE)
REGISTRY.register(GC_PAUSES)


async def watch_event_loop() -> None:
    while True:
        due = time.perf_counter() + LAG_INTERVAL
        await asyncio.sleep(LAG_INTERVAL)
        LOOP_LAG.observe(max(0.0, time.perf_counter() - due))


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, reuse_port=False)


def _response(status: str, content_type: str, body: bytes, head_only: bool) -> bytes:
    head = (f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
            "Cache-Control: no-store\r\nConnection: close\r\n\r\n").encode()
    return head if head_only else head + body


def answer(head: bytes) -> bytes:
    """The answer to a request whose head (request line and headers) is ``head``: the metrics for
    ``GET /metrics`` (or ``HEAD``), 404 or 405 otherwise."""
    lines = head.decode("latin-1").split("\r\n")
    method, _, rest = lines[0].partition(" ")
    target = rest.partition(" ")[0].partition("?")[0]
    if target != "/metrics":
        return _response("404 Not Found", "text/plain; charset=utf-8", b"only /metrics is served here\n",
                         False)
    if method not in ("GET", "HEAD"):
        return _response("405 Method Not Allowed", "text/plain; charset=utf-8", b"GET /metrics\n", False)
    accept = ",".join(line.partition(":")[2] for line in lines[1:] if line.lower().startswith("accept:"))
    encode, content_type = choose_encoder(accept)
    return _response("200 OK", content_type, encode(REGISTRY), method == "HEAD")


async def _serve_one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        async with asyncio.timeout(REQUEST_SECONDS):
            head = await reader.readuntil(b"\r\n\r\n")
            writer.write(answer(head))
            await writer.drain()
    except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        pass
    finally:
        writer.close()


class Monitoring:
    """What an app runs for its metrics while it serves: the count of its rooms, the timing of the
    garbage collector and of the event loop, and the metrics listener when a port is set."""

    def __init__(self, rooms: RoomManager, host: str, port: int | None) -> None:
        self.rooms, self.host, self.port = rooms, host, port
        self.server: asyncio.Server | None = None
        self.watch: asyncio.Task[None] | None = None

    async def start(self) -> None:
        LIVE.managers.append(self.rooms)
        if GC_PAUSES not in gc.callbacks:
            gc.callbacks.append(GC_PAUSES)
        self.watch = asyncio.create_task(watch_event_loop())
        if self.port is not None:
            self.server = await asyncio.start_server(_serve_one, sock=_listen(self.host, self.port),
                                                     limit=REQUEST_HEAD_LIMIT)
            log.info("metrics at http://%s:%d/metrics", self.host, self.port)

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        if self.watch is not None:
            self.watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.watch
        LIVE.managers.remove(self.rooms)
