"""The node's Redis client (:func:`app.cluster.join.redis_client`), on a Redis server of the test's own."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cluster import RedisServer

from app.cluster.join import REDIS_CONNECTIONS, redis_client


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    server = RedisServer(tmp_path / "redis")
    server.start()
    try:
        yield server.url
    finally:
        server.kill()


async def test_more_requests_at_once_than_connections_wait_for_one(redis_url: str) -> None:
    """Half as many requests again as the node has connections, each holding its connection a fifth of
    a second (a blocking pop that finds nothing): the last ones wait for a connection, none fails."""
    client = redis_client(redis_url)
    try:
        burst = REDIS_CONNECTIONS + REDIS_CONNECTIONS // 2
        answers = await asyncio.gather(*(client.blpop([f"nothing:{number}"], timeout=0.2)
                                         for number in range(burst)))
        assert answers == [None] * burst
    finally:
        await client.aclose()


def test_a_url_that_is_not_redis_is_refused() -> None:
    with pytest.raises(ValueError):
        redis_client("http://not-redis")
