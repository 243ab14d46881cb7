"""One node of a cluster: the rooms it owns, how it takes a room (on the first socket that reaches it,
or when a room's owner is gone), how it lets one go (its lease lost, the database's fence moved past
it, or the node stopping), and the lobby it shares with the others.

A node adopts a room in three steps: the lease in Redis (:meth:`Coordinator.acquire`), then the fence
in the database (:meth:`Store.take_room`, which makes every later write of a former owner fail), then
the room rebuilt from the stored log, its timers and bots started again. A room it lets go is closed
under its lock, so no step is half done, and its sockets are told to reconnect (close 1012): the
client's next socket, on any node, reaches the new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from app import metrics
from app.cluster.coordinator import Coordinator
from app.games.base import Rejection
from app.rooms.manager import RoomManager
from app.rooms.room import Room
from app.rooms.status import RoomStatus

if TYPE_CHECKING:
    from app.cluster.bus import ClusterBus

log = logging.getLogger(__name__)

CLOSE_RESTART = 1012
"""WebSocket close code "service restart": the room moved to another node; reconnect at once."""
MOVED = "this table moved to another server; reconnecting"
UNREACHABLE = "the room service cannot reach its coordinator; try again in a few seconds"
RECONCILE_SECONDS = 30.0
REDIS_WAIT = 3.0
"""The longest a node's last heartbeat may take once it stops (the Redis client's own timeout is 2 s)."""
NEW_ROOM_GRACE = 10.0
"""A room just made waits this long (and a lease) for its first socket to choose its owner before any
node adopts it: the owner is then the node a load balancer sends the room's sockets to."""


class ClusterUnavailable(Rejection):
    """The node cannot reach Redis: it plays the rooms it has and takes no new one."""

    code = "cluster/unavailable"


class Pending:
    """The room has no owner that can take a socket yet (its owner is gone and its lease not yet
    expired, or this node stops): ask again shortly."""


PENDING = Pending()


@dataclass(frozen=True)
class Remote:
    """A room another node owns, and where that node is."""

    node_id: str
    address: str


class ClusterNode:
    def __init__(self, coordinator: Coordinator, rooms: RoomManager, lease_seconds: float,
                 bus: ClusterBus) -> None:
        self.coordinator = coordinator
        self.rooms = rooms
        self.bus = bus
        """What this node tells the others and hears from them (:mod:`app.cluster.bus`)."""
        self.lease_seconds = lease_seconds
        self.available = True
        """Redis answered the last time this node asked it something."""
        self.draining = False
        self._adopting: dict[str, asyncio.Future[Room | None]] = {}
        self._published: dict[str, tuple[int, dict[str, Any]]] = {}
        """Each room's listing as last published, and the room's version then."""
        self._relayed: dict[str, dict[asyncio.Event, str]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._reconciled = 0.0
        self._warned = 0.0

    @property
    def node_id(self) -> str:
        return self.coordinator.node_id

    @property
    def secret(self) -> str:
        """What a socket relayed by another node of the cluster carries."""
        return self.coordinator.secret

    async def start(self) -> None:
        """Join the cluster (Redis must answer: a node with a wrong Redis URL does not start)."""
        await self.coordinator.join()
        self.rooms.cluster = self
        await self._reconcile()
        await self.bus.start()
        self._loop = asyncio.create_task(self._beat())

    async def stop(self) -> None:
        """Leave the cluster. The heartbeat ends at its next turn rather than by cancellation: a
        cancellation that lands inside a Redis call can be lost by the client."""
        self._stopping.set()
        if self._loop is not None:
            await asyncio.wait([self._loop], timeout=self.lease_seconds + REDIS_WAIT)
        await self.hand_over()
        await self.bus.stop()
        with contextlib.suppress(RedisError, OSError):
            await self.coordinator.leave()

    # --- where a room is ---------------------------------------------------------------------------

    async def route(self, room_id: str) -> Room | Remote | Pending | None:
        """The room here (adopted now if no node holds it), the node that holds it, or
        :data:`PENDING`; None when no such room is live. Raises :class:`ClusterUnavailable` when
        Redis does not answer."""
        room = self.rooms.rooms.get(room_id)
        if room is not None:
            return room
        owner = await self._ask(self.coordinator.owner(room_id))
        if owner is None or owner == self.node_id:
            if self.draining:
                return PENDING
            adopted = await self.adopt(room_id)
            if adopted is not None or not await self.rooms.store.is_room_live(room_id):
                return adopted
            return PENDING
        address = await self._ask(self.coordinator.address_of(owner))
        return PENDING if address is None else Remote(owner, address)

    async def adopt(self, room_id: str) -> Room | None:
        """Take the room if no node holds it; the room, or None if another node has it or it is not
        live. Concurrent calls for one room share one adoption."""
        if room_id in self.rooms.rooms:
            return self.rooms.rooms[room_id]
        if self.draining:
            return None
        running = self._adopting.get(room_id)
        if running is None:
            running = asyncio.ensure_future(self._adopt(room_id))
            self._adopting[room_id] = running
            running.add_done_callback(lambda _: self._adopting.pop(room_id, None))
        return await asyncio.shield(running)

    async def _adopt(self, room_id: str) -> Room | None:
        owner = await self._ask(self.coordinator.owner(room_id))
        if owner not in (None, self.node_id) or (owner is None and not await self._ask(
                self.coordinator.acquire(room_id))):
            return None
        try:
            room = await self.rooms.take(room_id)
        except Exception:
            log.exception("room %s: it could not be rebuilt here", room_id)
            room = None
        if room is None:
            with contextlib.suppress(RedisError, OSError):
                await self.coordinator.release(room_id)
                await self.coordinator.forget(room_id)
            return None
        metrics.ROOMS_TAKEN.inc()
        room.when_fenced = lambda: self._spawn(self.let_go(room, "fenced"))
        room.when_changed = lambda public: self.room_changed(room, public)
        log.info("room %s: taken at fence %d", room_id, room.fence)
        self.room_changed(room, room.public_json())
        return room

    # --- rooms that change and end here ---------------------------------------------------------------

    async def room_created(self, room: Room) -> None:
        """A room made on this node: listed at once, live once a socket reaches a node or, after a
        lease, by any node that finds it without an owner."""
        await self._ask(self.coordinator.publish(room.id, self._entry(room, room.public_json())))
        await self._ask(self.coordinator.expect([room.id], score=int((time.time() + NEW_ROOM_GRACE) * 1000)))

    def room_changed(self, room: Room, public: dict[str, Any]) -> None:
        """Publish the room's listing (public state, phase, spectators) if it changed since last
        published."""
        if room.id not in self.rooms.created_at:
            return
        last = self._published.get(room.id)
        entry = self._entry(room, public)
        self._published[room.id] = (room.version, entry)
        if last is None or last[1] != entry:
            self._spawn(self._quietly(self.coordinator.publish(room.id, entry)))

    async def publish_now(self, room: Room) -> None:
        """Publish the room's listing and wait for Redis: an operator's change shows at once."""
        if room.id in self.rooms.created_at:
            entry = self._entry(room, room.public_json())
            self._published[room.id] = (room.version, entry)
            await self._quietly(self.coordinator.publish(room.id, entry))

    def _entry(self, room: Room, public: dict[str, Any]) -> dict[str, Any]:
        """The room as the lobby and the operators' list show it. Its phase changes only with its
        version: it is worked out again only then."""
        last = self._published.get(room.id)
        phase = last[1]["phase"] if last is not None and last[0] == room.version else room.phase
        return {"room": public, "created_at": self.rooms.created_at[room.id].isoformat(),
                "phase": phase, "spectators": room.spectators}

    async def listing(self) -> list[dict[str, Any]]:
        """Every room the lobby lists, from every node."""
        listed: list[dict[str, Any]] = await self._ask(self.coordinator.listing())
        return listed

    async def owners(self, room_ids: list[str]) -> list[str | None]:
        """The node that owns each room (None: no node right now)."""
        if not room_ids:
            return []
        owners: list[str | None] = await self._ask(self.coordinator.owners(room_ids))
        return owners

    async def listed(self, room_id: str) -> dict[str, Any] | None:
        found: dict[str, Any] | None = await self._ask(self.coordinator.listed(room_id))
        return found

    async def room_forgotten(self, room: Room) -> None:
        """The room is finished and nobody watches it: no node runs it any more."""
        self._published.pop(room.id, None)
        await self._quietly(self.coordinator.forget(room.id))

    async def let_go(self, room: Room, reason: str) -> None:
        """Stop running ``room`` here: under its lock (no step half done), its timers and bots stopped,
        its lease given back (unless another node holds it: ``reason`` ``lease_lost``) and its sockets
        told to reconnect."""
        if self.rooms.rooms.get(room.id) is not room:
            return
        self.rooms.drop(room)
        metrics.ROOMS_LET_GO.labels(reason).inc()
        self._published.pop(room.id, None)
        async with room.lock:
            await room.close()
        if reason != "lease_lost" and room.status is not RoomStatus.FINISHED:
            await self._quietly(self.coordinator.release(room.id))
        for conn in list(room.connections):
            conn.end(CLOSE_RESTART, "room/moved", MOVED)
        log.info("room %s: let go (%s)", room.id, reason)

    async def hand_over(self) -> None:
        """The node stops: every room it owns goes, for other nodes to take."""
        self.draining = True
        await asyncio.gather(*(self.let_go(room, "stopping") for room in list(self.rooms.rooms.values())))

    # --- the beat: heartbeat, leases, orphans ------------------------------------------------------

    async def _beat(self) -> None:
        every = self.lease_seconds / 3
        while not self._stopping.is_set():
            try:
                await self.beat()
            except (RedisError, OSError) as error:
                self._unavailable(error)
            except Exception:
                log.exception("the cluster's heartbeat failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), every)

    async def beat(self) -> None:
        """One heartbeat: announce the node, renew its leases (letting go of the rooms another node
        holds now), and adopt the rooms whose owner is gone."""
        await self.coordinator.heartbeat(dict(self.rooms.connections.open_by_ip))
        lost, retaken = await self.coordinator.renew(list(self.rooms.rooms))
        if not self.available:
            log.warning("the cluster's coordinator answers again")
        self.available = True
        for room_id in retaken:
            self._published.pop(room_id, None)
            if room_id in self.rooms.rooms:
                self.room_changed(self.rooms.rooms[room_id], self.rooms.rooms[room_id].public_json())
        await self._watch_relayed()
        for room_id in lost:
            room = self.rooms.rooms.get(room_id)
            if room is not None:
                log.warning("room %s: another node holds its lease now", room_id)
                await self.let_go(room, "lease_lost")
        if time.monotonic() - self._reconciled >= RECONCILE_SECONDS:
            await self._reconcile()
        if not self.draining:
            for room_id in await self.coordinator.orphans():
                await self.adopt(room_id)

    def relaying(self, room_id: str, node_id: str) -> asyncio.Event:
        """An event set when the room's owner is no longer ``node_id`` (checked at each beat): a relay
        to a node paused or cut off past its lease learns so without waiting on its socket."""
        moved = asyncio.Event()
        self._relayed.setdefault(room_id, {})[moved] = node_id
        return moved

    def relayed_no_more(self, room_id: str, moved: asyncio.Event) -> None:
        watchers = self._relayed.get(room_id, {})
        watchers.pop(moved, None)
        if not watchers:
            self._relayed.pop(room_id, None)

    async def _watch_relayed(self) -> None:
        room_ids = list(self._relayed)
        if not room_ids:
            return
        for room_id, owner in zip(room_ids, await self.coordinator.owners(room_ids), strict=True):
            for moved, node_id in list(self._relayed.get(room_id, {}).items()):
                if owner != node_id:
                    moved.set()

    async def _reconcile(self) -> None:
        """Every room the database holds unfinished should be live somewhere (Redis may have
        restarted empty)."""
        self._reconciled = time.monotonic()
        await self.coordinator.expect(await self.rooms.store.unfinished_room_ids())

    # --- Redis -------------------------------------------------------------------------------------

    async def _ask(self, request: Any) -> Any:
        try:
            answer = await request
        except (RedisError, OSError) as error:
            self._unavailable(error)
            raise ClusterUnavailable(UNREACHABLE) from error
        return answer

    async def _quietly(self, request: Any) -> None:
        try:
            await request
        except (RedisError, OSError) as error:
            self._unavailable(error)

    def _unavailable(self, error: Exception) -> None:
        self.available = False
        if time.monotonic() - self._warned >= 10:
            self._warned = time.monotonic()
            log.warning("the cluster's coordinator does not answer (%s); the rooms here play on, new "
                        "ones are refused", type(error).__name__)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
