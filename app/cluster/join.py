"""A node joins its cluster when ``CARDROOM_REDIS_URL`` is set (and runs alone otherwise)."""

from __future__ import annotations

import logging
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError

from app.cluster.bus import Actions, ClusterBus
from app.cluster.coordinator import Coordinator
from app.cluster.node import ClusterNode
from app.config import Settings
from app.drain import Drain
from app.rooms.manager import RoomManager

log = logging.getLogger(__name__)
REDIS_TIMEOUT = 2.0
REDIS_CONNECTIONS = 100
"""A node's connections to Redis at most. A request that finds them all in use waits for one (up to
``REDIS_TIMEOUT``): redis-py's own pool fails it at once, and a burst of sockets (the players of a dead
node's rooms reconnecting together) then read as Redis gone, closing their sockets with
``cluster/unavailable``."""


class ClusterJoinFailed(RuntimeError):
    """The node was told to join a cluster whose Redis it cannot use."""


def node_address(settings: Settings) -> str:
    """Where the other nodes reach this one: ``CARDROOM_NODE_ADDRESS``, else the host and port served
    (the machine's name when it serves every address)."""
    if settings.node_address:
        return settings.node_address.rstrip("/")
    host = socket.gethostname() if settings.host in ("0.0.0.0", "::", "") else settings.host
    return f"http://{host}:{settings.port}"


def redis_client(url: str) -> Redis:
    """The node's Redis client; raises ``ValueError`` for a URL that is not a Redis one."""
    pool = BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS, timeout=REDIS_TIMEOUT,
                                           socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT,
                                           health_check_interval=10)
    return Redis.from_pool(pool)


def redis_location(url: str) -> str:
    """The Redis URL without its password, for a message."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname or ''}{f':{parts.port}' if parts.port else ''}{parts.path}"


@asynccontextmanager
async def joined_cluster(settings: Settings, rooms: RoomManager, drain: Drain,
                         actions: Actions) -> AsyncIterator[ClusterNode | None]:
    """The node in its cluster, doing ``actions`` when the other nodes tell it to, or None without
    ``CARDROOM_REDIS_URL``. Raises :class:`ClusterJoinFailed`, naming the problem, when Redis is
    unreachable or refuses."""
    if settings.redis_url is None:
        yield None
        return
    try:
        redis = redis_client(settings.redis_url)
    except ValueError as error:
        message = f"cannot join the cluster: CARDROOM_REDIS_URL is not a Redis URL ({error})"
        log.error("%s", message)
        raise ClusterJoinFailed(message) from error
    coordinator = Coordinator(redis, settings.redis_prefix, settings.node_id, node_address(settings),
                              settings.lease_seconds)
    bus = ClusterBus(redis, settings.redis_prefix, settings.node_id, actions)
    node = ClusterNode(coordinator, rooms, settings.lease_seconds, bus)
    try:
        try:
            await node.start()
        except (RedisError, OSError) as error:
            message = (f"cannot join the cluster: Redis at {redis_location(settings.redis_url)} does not "
                       f"answer ({type(error).__name__}: {error}); check CARDROOM_REDIS_URL")
            log.error("%s", message)
            raise ClusterJoinFailed(message) from error
        rooms.connections.shared = coordinator
        drain.hand_over = node.hand_over
        log.info("node %s joined the cluster at %s", settings.node_id, coordinator.address)
        yield node
    finally:
        await redis.aclose()
