"""What the nodes of a cluster tell one another, so that an operator's action or a player's sign-out
acts on every node, or on the node that holds a room, whichever node the request reached (Redis
pub/sub, under the cluster's prefix ``P``):

- ``P:bus``, heard by every node: tokens revoked (their sockets close, 4401), a player suspended (his
  sockets close, 4403), the maintenance notice posted or cleared, new rooms paused or resumed;
- ``P:node:<id>``, heard by one node: a request about a room it holds (an operator closes it, or
  removes a player from it). The node does it and pushes its answer to the request's reply key
  ``P:reply:<uuid>`` (kept for :data:`REPLY_KEPT_MS`); the asking node waits on that key
  (``BLPOP``) until its deadline;
- ``P:console``, a hash of the operators' settings every node applies (``notice`` and ``paused``, in
  JSON), read by each node when it subscribes: a node started later, or one whose subscription was
  cut, learns them. A Redis restarted empty is given back what the nodes hold.

Pub/sub reaches the nodes subscribed at that moment, once; a node that is cut off misses what is said
meanwhile, except the console's settings, which it reads again when it subscribes again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from typing import TYPE_CHECKING, Any, Protocol

import orjson
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from app.cluster.node import UNREACHABLE, ClusterUnavailable
from app.games.base import Rejection

if TYPE_CHECKING:
    from app.rooms.room import Room

log = logging.getLogger(__name__)

WAIT_STEP_SECONDS = 1.0
"""The longest single wait for an answer (``BLPOP``), shorter than the Redis client's socket timeout."""
REPLY_KEPT_MS = 30_000
RESUBSCRIBE_SECONDS = 1.0
READ_SECONDS = 1.0
"""The longest wait for a message before the bus checks whether it is stopping."""


class Actions(Protocol):
    """What a node does when the bus brings it a message."""

    @property
    def notice(self) -> dict[str, Any] | None: ...

    @property
    def paused(self) -> bool: ...

    def revoke(self, token_hashes: list[str]) -> None:
        """Close the sockets opened with these tokens (4401)."""

    def end_player(self, player_id: str) -> None:
        """Close the suspended player's sockets (4403)."""

    def show_notice(self, notice: dict[str, Any] | None) -> None:
        """Keep the notice (None: cleared) and send it to every connection."""

    def pause(self, paused: bool) -> None:
        """Refuse new rooms, or take them again."""

    def held(self, room_id: str) -> Room | None:
        """The room, if this node holds it."""

    async def close_room(self, room: Room, admin_id: str, reason: str) -> dict[str, Any]:
        """An operator closes the room; the room as the console lists it."""

    async def remove_player(self, room: Room, player_id: str, admin_id: str,
                            reason: str) -> dict[str, Any]:
        """An operator removes a player from the room; the room as the console lists it."""


class NotHere(Exception):
    """The node asked does not hold the room (any more): find its owner again."""


class NoAnswer(Rejection):
    """The node that holds the room did not answer in time."""

    code = "cluster/no_answer"


class FailedThere(RuntimeError):
    """The node that holds the room failed to do what it was asked (its log says why)."""


class ClusterBus:
    def __init__(self, redis: Redis, prefix: str, node_id: str, actions: Actions) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node_id = node_id
        self.actions = actions
        self.channel = f"{prefix}:bus"
        self.console = f"{prefix}:console"
        self._listening: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._cut_off = False
        self._stopping = False

    def node_channel(self, node_id: str) -> str:
        return f"{self.prefix}:node:{node_id}"

    async def start(self) -> None:
        """Subscribe, and take the console's settings the cluster holds."""
        pubsub = await self._subscribe()
        await self._catch_up()
        self._listening = asyncio.create_task(self._listen(pubsub))

    async def stop(self) -> None:
        """Stop listening (within :data:`READ_SECONDS`) and let the answers under way finish. The
        listener is not cancelled: a cancellation that reaches the Redis client inside a command can
        be lost there."""
        self._stopping = True
        tasks = [task for task in (self._listening, *self._tasks) if task is not None]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=READ_SECONDS + RESUBSCRIBE_SECONDS + 5)
            for task in late:
                task.cancel()

    async def check(self) -> None:
        """Raise :class:`ClusterUnavailable` unless Redis answers (before an action that must reach
        every node)."""
        await _asked(self.redis.ping())

    # --- what every node hears ---------------------------------------------------------------------

    async def revoke(self, token_hashes: list[str]) -> None:
        await self._tell_everyone({"kind": "revoke", "tokens": token_hashes})

    async def suspend(self, player_id: str) -> None:
        await self._tell_everyone({"kind": "suspend", "player_id": player_id})

    async def set_notice(self, notice: dict[str, Any] | None) -> None:
        await self._set("notice", notice)

    async def set_paused(self, paused: bool) -> None:
        await self._set("paused", paused)

    async def _tell_everyone(self, message: dict[str, Any]) -> None:
        await _asked(self.redis.publish(self.channel, orjson.dumps({"from": self.node_id, **message})))

    async def _set(self, name: str, value: Any) -> None:
        """Keep a console setting and tell every node, in one transaction (the hash ends with the
        value told last)."""
        message = orjson.dumps({"from": self.node_id, "kind": "console", "name": name, "value": value})
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(self.console, name, orjson.dumps(value))
            pipe.publish(self.channel, message)
            await _asked(pipe.execute())

    # --- a request to the node that holds a room ----------------------------------------------------

    async def ask(self, node_id: str, kind: str, seconds: float, **fields: Any) -> Any:
        """Ask ``node_id`` to do ``kind`` with a room it holds and wait up to ``seconds`` for its answer.
        Raises :class:`NotHere` when it does not hold the room or does not listen, the node's own
        :class:`Rejection`, :class:`NoAnswer` when it stays silent, :class:`FailedThere`."""
        reply = f"{self.prefix}:reply:{uuid.uuid4().hex}"
        request = {"kind": kind, "reply": reply, "from": self.node_id,
                   "until": _now_ms() + int(seconds * 1000), **fields}
        listeners = await _asked(self.redis.publish(self.node_channel(node_id), orjson.dumps(request)))
        if not listeners:
            raise NotHere(node_id)
        answer = await self._answer_to(reply, time.monotonic() + seconds)
        if answer is None:
            raise NoAnswer("the server that holds this table did not answer in time; look at the live "
                           "rooms before trying again")
        return _answered(answer)

    async def _answer_to(self, reply: str, deadline: float) -> dict[str, Any] | None:
        while (left := deadline - time.monotonic()) > 0:
            popped = await _asked(self.redis.blpop([reply], timeout=max(0.1, min(WAIT_STEP_SECONDS, left))))
            if popped is not None:
                answer: dict[str, Any] = orjson.loads(popped[1])
                return answer
        return None

    async def _answer(self, request: dict[str, Any]) -> None:
        if _now_ms() > request["until"]:
            log.warning("room %s: a request (%s) came after its deadline; not done", request.get("room_id"),
                        request["kind"])
            return
        try:
            answer: dict[str, Any] = {"ok": await self._do(request)}
        except NotHere:
            answer = {"moved": True}
        except Rejection as rejection:
            answer = {"error": {"code": rejection.code, "message": rejection.message}}
        except Exception:
            log.exception("room %s: a request (%s) failed", request.get("room_id"), request["kind"])
            answer = {"failed": True}
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.lpush(request["reply"], orjson.dumps(answer))
                pipe.pexpire(request["reply"], REPLY_KEPT_MS)
                await pipe.execute()
        except (RedisError, OSError) as error:
            log.warning("the answer to a request from node %s was lost (%s)", request["from"],
                        type(error).__name__)

    async def _do(self, request: dict[str, Any]) -> Any:
        room = self.actions.held(request["room_id"])
        if room is None:
            raise NotHere(request["room_id"])
        match request["kind"]:
            case "close_room":
                return await self.actions.close_room(room, request["admin_id"], request["reason"])
            case "remove_player":
                return await self.actions.remove_player(room, request["player_id"], request["admin_id"],
                                                        request["reason"])
        raise ValueError(f"no such request: {request['kind']!r}")

    # --- listening -----------------------------------------------------------------------------------

    async def _subscribe(self) -> PubSub:
        pubsub = self.redis.pubsub()
        try:
            await pubsub.subscribe(self.channel, self.node_channel(self.node_id))
        except BaseException:
            await pubsub.aclose()
            raise
        return pubsub

    async def _listen(self, pubsub: PubSub | None) -> None:
        """Hear messages until stopped; subscribe again whenever Redis goes away and comes back."""
        try:
            while not self._stopping:
                try:
                    if pubsub is None:
                        pubsub = await self._subscribe()
                    message = await pubsub.get_message(timeout=READ_SECONDS)
                    if message is not None:
                        await self._hear(message)
                except (RedisError, OSError, ClusterUnavailable) as error:
                    self._lost(error)
                    await _closed(pubsub)
                    pubsub = None
                    await asyncio.sleep(RESUBSCRIBE_SECONDS)
        finally:
            await _closed(pubsub)

    def _lost(self, error: Exception) -> None:
        if not self._cut_off:
            cause = error.__cause__ if isinstance(error, ClusterUnavailable) else error
            log.warning("the cluster's bus lost Redis (%s); subscribing again every %g s",
                        type(cause).__name__, RESUBSCRIBE_SECONDS)
        self._cut_off = True

    async def _hear(self, message: dict[str, Any]) -> None:
        channel = _text(message["channel"])
        if message["type"] == "subscribe" and channel == self.channel:
            await self._subscribed()
        elif message["type"] == "message":
            try:
                body = orjson.loads(message["data"])
                if channel == self.channel:
                    self._told(body)
                else:
                    self._spawn(self._answer(body))
            except Exception:
                log.exception("a message of the cluster's bus could not be handled")

    async def _subscribed(self) -> None:
        """(Again) subscribed: the subscription of a client that reconnected on its own included."""
        await self._catch_up()
        if self._cut_off:
            log.warning("the cluster's bus reaches Redis again")
        self._cut_off = False

    def _told(self, message: dict[str, Any]) -> None:
        if message["from"] == self.node_id:
            return
        match message["kind"]:
            case "revoke":
                self.actions.revoke(message["tokens"])
            case "suspend":
                self.actions.end_player(message["player_id"])
            case "console":
                self._apply(message["name"], message["value"])

    async def _catch_up(self) -> None:
        """Apply the console's settings Redis holds; give back those it lost (it restarted empty)."""
        stored = {_text(name): orjson.loads(value)
                  for name, value in (await self.redis.hgetall(self.console)).items()}
        for name, ours in (("notice", self.actions.notice), ("paused", self.actions.paused)):
            if name in stored:
                self._apply(name, stored[name])
            elif ours:
                await self._set(name, ours)

    def _apply(self, name: str, value: Any) -> None:
        if name == "notice" and value != self.actions.notice:
            self.actions.show_notice(value)
        elif name == "paused" and value != self.actions.paused:
            self.actions.pause(bool(value))

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def _closed(pubsub: PubSub | None) -> None:
    if pubsub is not None:
        with contextlib.suppress(RedisError, OSError):
            await pubsub.aclose()


def _answered(answer: dict[str, Any]) -> Any:
    if "ok" in answer:
        return answer["ok"]
    if answer.get("moved"):
        raise NotHere("moved")
    if "error" in answer:
        raise Rejection(answer["error"]["message"], code=answer["error"]["code"])
    raise FailedThere("the server that holds this table failed to do it")


async def _asked(request: Any) -> Any:
    """The answer of a Redis request; :class:`ClusterUnavailable` when Redis does not answer."""
    try:
        return await request
    except (RedisError, OSError) as error:
        raise ClusterUnavailable(UNREACHABLE) from error


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _now_ms() -> int:
    return int(time.time() * 1000)
