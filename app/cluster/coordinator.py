"""What the nodes of a cluster share in Redis: which node owns each live room (a lease that expires
unless renewed), the rooms that should be live somewhere, the lobby's listing, the nodes and their
addresses, and the secret that lets a node trust a socket relayed by another.

Redis decides who may run a room, never whether a step is stored: the fencing number that the
database checks (``rooms.fence``) keeps a node that lost its lease from writing, so a Redis that
loses its data or a node paused past its lease costs a reconnection, never a step.

Keys, under the cluster's prefix ``P``:

- ``P:lease:<room>``: the owner's node id, expiring after the lease;
- ``P:rooms``: sorted set of the rooms that should be live, scored by when an owner last renewed
  them (ms); a room whose score is older than a lease and that has no lease is an orphan to adopt;
- ``P:listing``: hash of room id to the room's public JSON, its creation time, its match's phase and
  its spectators (the lobby, and the operators' list of live rooms);
- ``P:nodes``: sorted set of node ids scored by their last heartbeat (ms), with ``P:address``, a hash
  of node id to the address other nodes reach it at;
- ``P:sockets:<node>``: hash of client address to the sockets the node holds for it;
- ``P:secret``: the relay secret, made by the first node.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable
from typing import Any

import orjson
from redis.asyncio import Redis

RENEW = """
local lost, retaken = {}, {}
for i, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if owner == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not owner then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    table.insert(retaken, i)
  else
    table.insert(lost, i)
  end
  if owner == ARGV[1] or not owner then
    redis.call('ZADD', ARGV[3], ARGV[4], ARGV[4 + i])
  end
end
return {lost, retaken}
"""
"""Renew the node's leases (``KEYS``); a lease Redis no longer has (it restarted empty) is taken
again, since no other node can have taken the room without the database's fence moving past ours.
Returns the 1-based places of the leases another node holds, and of those taken again."""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('ZADD', KEYS[2], 0, ARGV[2])
  return 1
end
return 0
"""
"""Give a room up if its lease is still ours, with a score that makes it an orphan at once."""

OPEN_SOCKET = """
local total = tonumber(ARGV[3])
for i = 2, #KEYS do
  total = total + tonumber(redis.call('HGET', KEYS[i], ARGV[1]) or '0')
end
if total >= tonumber(ARGV[2]) then
  return 0
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
return 1
"""
"""Count one more socket from an address (``ARGV[1]``) on this node (``KEYS[1]``) unless the
address holds the limit (``ARGV[2]``) across the nodes (``KEYS[2..]``); ``ARGV[3]`` is this node's
own count, which it knows better than its hash after a Redis restart."""


class Coordinator:
    def __init__(self, redis: Redis, prefix: str, node_id: str, address: str,
                 lease_seconds: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node_id = node_id
        self.address = address
        self.lease_ms = int(lease_seconds * 1000)
        self.secret = ""
        self.live_nodes: list[str] = [node_id]
        self._renew = redis.register_script(RENEW)
        self._release = redis.register_script(RELEASE)
        self._open_socket = redis.register_script(OPEN_SOCKET)

    def _key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    def lease_key(self, room_id: str) -> str:
        return self._key("lease", room_id)

    async def join(self) -> None:
        """Check that Redis answers, learn the relay secret (making it if this is the first node) and
        announce this node."""
        self.secret = secrets.token_urlsafe(32)
        await self.heartbeat({})

    async def heartbeat(self, sockets_by_ip: dict[str, int]) -> None:
        """Say this node is alive, where it is, and how many sockets it holds per client address;
        learn the relay secret (the first node's, kept by every node should Redis lose it)."""
        now = _now_ms()
        sockets = self._key("sockets", self.node_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self._key("secret"), self.secret, nx=True)
            pipe.get(self._key("secret"))
            pipe.zadd(self._key("nodes"), {self.node_id: now})
            pipe.hset(self._key("address"), self.node_id, self.address)
            pipe.delete(sockets)
            if sockets_by_ip:
                pipe.hset(sockets, mapping=sockets_by_ip)  # type: ignore[arg-type]
            pipe.pexpire(sockets, self.lease_ms * 3)
            pipe.zrangebyscore(self._key("nodes"), now - self.lease_ms, "+inf")
            answers = await pipe.execute()
        self.secret = _text(answers[1])
        self.live_nodes = [_text(node) for node in answers[-1]]

    async def leave(self) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(self._key("nodes"), self.node_id)
            pipe.hdel(self._key("address"), self.node_id)
            pipe.delete(self._key("sockets", self.node_id))
            await pipe.execute()

    # --- leases --------------------------------------------------------------------------------

    async def acquire(self, room_id: str) -> bool:
        taken = await self.redis.set(self.lease_key(room_id), self.node_id, nx=True, px=self.lease_ms)
        if taken:
            await self.redis.zadd(self._key("rooms"), {room_id: _now_ms()})
        return bool(taken)

    async def renew(self, room_ids: list[str]) -> tuple[list[str], list[str]]:
        """Renew the leases of ``room_ids``; returns the rooms another node holds now, and those whose
        lease Redis had lost (taken again)."""
        if not room_ids:
            return [], []
        lost, retaken = await self._renew(keys=[self.lease_key(room) for room in room_ids],
                                          args=[self.node_id, self.lease_ms, self._key("rooms"), _now_ms(),
                                                *room_ids])
        return [room_ids[place - 1] for place in lost], [room_ids[place - 1] for place in retaken]

    async def release(self, room_id: str) -> None:
        await self._release(keys=[self.lease_key(room_id), self._key("rooms")], args=[self.node_id, room_id])

    async def owner(self, room_id: str) -> str | None:
        owner = await self.redis.get(self.lease_key(room_id))
        return None if owner is None else _text(owner)

    async def owners(self, room_ids: list[str]) -> list[str | None]:
        found = await self.redis.mget([self.lease_key(room) for room in room_ids])
        return [None if owner is None else _text(owner) for owner in found]

    async def address_of(self, node_id: str) -> str | None:
        address = await self.redis.hget(self._key("address"), node_id)
        return None if address is None else _text(address)

    # --- the rooms that should be live ------------------------------------------------------------

    async def expect(self, room_ids: Iterable[str], score: int | None = None) -> None:
        """Rooms that should be live somewhere; without ``score`` any node may adopt them at once,
        rooms already known keep theirs."""
        ids = list(room_ids)
        if ids:
            await self.redis.zadd(self._key("rooms"), {room: score or 0 for room in ids}, nx=score is None)

    async def orphans(self, limit: int = 200) -> list[str]:
        """Rooms that should be live and that no node has renewed for a lease: their owner is gone."""
        stale = await self.redis.zrangebyscore(self._key("rooms"), "-inf", _now_ms() - self.lease_ms,
                                               start=0, num=limit)
        if not stale:
            return []
        rooms = [_text(room) for room in stale]
        owners = await self.owners(rooms)
        return [room for room, owner in zip(rooms, owners, strict=True) if owner is None]

    async def forget(self, room_id: str) -> None:
        """The room is finished: no node needs to run it, and the lobby no longer lists it."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(self._key("rooms"), room_id)
            pipe.hdel(self._key("listing"), room_id)
            pipe.delete(self.lease_key(room_id))
            await pipe.execute()

    # --- the lobby -------------------------------------------------------------------------------

    async def publish(self, room_id: str, entry: dict[str, Any]) -> None:
        """List the room: ``entry`` holds its public JSON (``room``), ``created_at``, ``phase`` and
        ``spectators``."""
        await self.redis.hset(self._key("listing"), room_id, orjson.dumps(entry))

    async def listed(self, room_id: str) -> dict[str, Any] | None:
        found = await self.redis.hget(self._key("listing"), room_id)
        return None if found is None else dict(orjson.loads(found))

    async def listing(self) -> list[dict[str, Any]]:
        return [orjson.loads(entry) for entry in (await self.redis.hgetall(self._key("listing"))).values()]

    # --- client addresses ------------------------------------------------------------------------

    async def open_socket(self, ip: str, limit: int, own: int) -> bool:
        """Count a socket from ``ip`` on this node unless the cluster holds ``limit`` from it already
        (``own`` of them here)."""
        others = [self._key("sockets", node) for node in self.live_nodes if node != self.node_id]
        opened = await self._open_socket(keys=[self._key("sockets", self.node_id), *others],
                                         args=[ip, limit, own])
        return bool(opened)

    async def close_socket(self, ip: str) -> None:
        await self.redis.hincrby(self._key("sockets", self.node_id), ip, -1)


def _text(value: Any) -> str:
    """A Redis answer as text (the client decodes none)."""
    return value.decode() if isinstance(value, bytes) else str(value)


def _now_ms() -> int:
    return int(time.time() * 1000)
