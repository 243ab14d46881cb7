"""The limits a cluster's nodes share through Redis (:mod:`app.cluster.limits`): the same answers as the
counts kept in memory for the same events, one count for every app that names the same Redis and
prefix, however concurrent the requests, and every request allowed while Redis cannot be reached.

They need the Redis of ``CARDROOM_TEST_REDIS_URL`` (by default 127.0.0.1:6379, database 0). Each test keeps
its keys under a prefix of its own and deletes them after. The comparisons drive both kinds on one
stepped clock, whose readings the Redis scripts take instead of the server's time; one test runs on the
server's clock with short real waits."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import shutil
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx2 as httpx
import pytest
import redis
from prometheus_client import REGISTRY
from redis.asyncio import Redis
from starlette.testclient import TestClient
from support import Client, make_settings, seat_all
from support.cluster import RedisServer

from app.api.limits import Limit, TokenBuckets, WindowLimit
from app.api.signin_limit import FailureDelays
from app.cluster.limits import RedisLimits
from app.db import accounts
from app.main import create_app

REDIS_URL = os.environ.get("CARDROOM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
KEYS = ("198.51.100.7", "2001:db8::7", "203.0.113.9 some name", "Ünï:c*de %20?")
FAILED_OPEN = "cardroom_limits_failed_open_total"


class SteppedClock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def stored_keys(prefix: str) -> set[str]:
    """The limits' keys under ``prefix`` (the nodes of the cluster keep theirs beside them)."""
    with redis.Redis.from_url(REDIS_URL) as client:
        return {key.decode() for key in client.scan_iter(match=f"{prefix}:limit:*")}


@pytest.fixture
def prefix() -> Iterator[str]:
    """A key prefix of the test's own; its keys are deleted after it. Without a Redis the test fails."""
    with redis.Redis.from_url(REDIS_URL) as client:
        try:
            client.ping()
        except redis.ConnectionError as error:
            pytest.fail(f"these tests need the Redis at {REDIS_URL} (CARDROOM_TEST_REDIS_URL): {error}")
    name = f"test-{secrets.token_hex(6)}"
    yield name
    with redis.Redis.from_url(REDIS_URL) as client:
        for key in client.scan_iter(match=f"{name}:*"):
            client.delete(key)


@pytest.fixture
async def shared_redis() -> AsyncIterator[Redis]:
    client = Redis.from_url(REDIS_URL)
    try:
        yield client
    finally:
        await client.aclose()


def events(seed: int, steps: tuple[float, ...], count: int = 80) -> list[tuple[str, float]]:
    """``count`` events, each a key and the seconds since the event before it."""
    chosen = random.Random(seed)
    return [(chosen.choice(KEYS), chosen.choice(steps)) for _ in range(count)]


def both_kinds(kind: str, clock: SteppedClock, shared: RedisLimits) -> tuple[Limit, Limit]:
    """A limit kept in memory and the same one in Redis."""
    if kind == "window":
        return WindowLimit(3, 10.0, clock), shared.window("guests", 3, 10.0)
    return TokenBuckets(0.5, 3.0, clock), shared.buckets("chat", 0.5, 3.0)


STEPS = {"window": (0.0, 0.5, 2.5, 4.0, 10.0), "buckets": (0.0, 0.0, 0.25, 1.0, 2.0, 7.0)}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["window", "buckets"])
async def test_a_limit_in_redis_answers_as_in_memory(shared_redis: Redis, prefix: str, kind: str,
                                                     seed: int) -> None:
    clock = SteppedClock()
    memory, shared = both_kinds(kind, clock, RedisLimits(shared_redis, prefix, clock))
    answers = []
    for key, step in events(seed, STEPS[kind]):
        clock.now += step
        answers.append((await memory.take(key), await shared.take(key)))
    assert [redis_answer for _, redis_answer in answers] == [memory_answer for memory_answer, _ in answers]
    assert {answer is None for answer, _ in answers} == {True, False}, "events allowed and refused"


@pytest.mark.parametrize("seed", range(4))
async def test_failure_delays_in_redis_answer_as_in_memory(shared_redis: Redis, prefix: str,
                                                           seed: int) -> None:
    clock = SteppedClock()
    memory = FailureDelays(2, 1.0, 8.0, 20.0, clock)
    shared = RedisLimits(shared_redis, prefix, clock).failure_delays("signin-name", 2, 1.0, 8.0, 20.0)
    chosen = random.Random(f"deeds {seed}")
    waits = []
    for key, step in events(seed, (0.0, 0.5, 1.0, 3.0, 9.0, 20.0, 21.0, 30.0)):
        clock.now += step
        deed = chosen.choice(["fail"] * 5 + ["look"] * 2 + ["forget"])
        for delays in (memory, shared):
            if deed == "fail":
                await delays.failed(key)
            elif deed == "forget":
                await delays.forget(key)
        waits.append((await memory.wait(key), await shared.wait(key)))
    assert [redis_wait for _, redis_wait in waits] == [memory_wait for memory_wait, _ in waits]
    assert {wait == 0 for wait, _ in waits} == {True, False}, "keys free and keys waiting"


def close_to(redis_answer: float | None, memory_answer: float | None) -> bool:
    """The same answer but for the moments the two clocks were read at."""
    if redis_answer is None or memory_answer is None:
        return redis_answer is memory_answer
    return abs(redis_answer - memory_answer) < 0.2


async def test_on_the_servers_clock_the_answers_match_and_idle_keys_vanish(shared_redis: Redis,
                                                                          prefix: str) -> None:
    limits = RedisLimits(shared_redis, prefix)
    window, memory_window = limits.window("guests", 2, 1.0), WindowLimit(2, 1.0)
    buckets, memory_buckets = limits.buckets("chat", 4.0, 1.0), TokenBuckets(4.0, 1.0)
    delays, memory_delays = (limits.failure_delays("signin-address", 1, 0.3, 0.3, 0.3),
                             FailureDelays(1, 0.3, 0.3, 0.3))
    key = "198.51.100.7"
    pairs = [(await window.take(key), await memory_window.take(key)) for _ in range(3)]
    pairs += [(await buckets.take(key), await memory_buckets.take(key)) for _ in range(2)]
    await delays.failed(key)
    await memory_delays.failed(key)
    pairs.append((await delays.wait(key), await memory_delays.wait(key)))
    assert [close_to(*pair) for pair in pairs] == [True] * 6, pairs
    assert [answer is None for _, answer in pairs] == [True, True, False, True, False, False]
    names = [limits.key(name, key) for name in ("guests", "chat", "signin-address")]
    assert [0 < await shared_redis.pttl(name) <= 1000 for name in names] == [True] * 3

    await asyncio.sleep(1.05)
    assert await shared_redis.exists(*names) == 0, "every key expired once it said nothing more"
    assert [(await window.take(key), await memory_window.take(key)),
            (await buckets.take(key), await memory_buckets.take(key)),
            (await delays.wait(key), await memory_delays.wait(key))] == [(None, None), (None, None), (0, 0)]


def copied_database(template: Path, path: Path) -> str:
    shutil.copyfile(template, path)
    return f"sqlite+aiosqlite:///{path}"


def node_apps(template: Path, folder: Path, **settings: object) -> list[Any]:
    """Two apps, each on a SQLite database of its own, with ``settings``."""
    return [create_app(make_settings(copied_database(template, folder / f"{node}.db"), node_id=node,
                                     **settings), run_migrations=False) for node in ("node-a", "node-b")]


@contextmanager
def two_nodes(template: Path, folder: Path, prefix: str,
              **settings: object) -> Iterator[tuple[TestClient, TestClient]]:
    """Two nodes of one cluster: their own databases, one Redis and one prefix."""
    with ExitStack() as stack:
        first, second = (stack.enter_context(TestClient(app)) for app in
                         node_apps(template, folder, redis_url=REDIS_URL, redis_prefix=prefix, **settings))
        yield first, second


def new_guest(node: TestClient) -> Any:
    return node.post("/api/players", json={"name": "Guest"})


def assert_refused(response: Any, code: str, longest: int) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == code
    assert 1 <= int(response.headers["Retry-After"]) <= longest


def test_guests_made_on_either_node_count_once_for_the_cluster(sqlite_template: Path, tmp_path: Path,
                                                                prefix: str) -> None:
    with two_nodes(sqlite_template, tmp_path, prefix, guests_per_hour=3) as (first, second):
        assert [new_guest(node).status_code for node in (first, second, first)] == [201] * 3
        for node in (second, first):
            refused = new_guest(node)
            assert_refused(refused, "player/too_many_guests", 3600)
            assert "3 guest accounts in the last hour" in refused.json()["error"]["message"]
    assert stored_keys(prefix) == {f"{prefix}:limit:guests:testclient"}


def test_failed_sign_ins_on_either_node_count_once_for_the_cluster(sqlite_template: Path, tmp_path: Path,
                                                                    prefix: str) -> None:
    guess = {"name": "Guessed Name", "password": "not the password"}
    with two_nodes(sqlite_template, tmp_path, prefix, signin_max_failures=3,
                   signin_first_delay_seconds=60) as (first, second):
        assert [node.post("/api/sessions", json=guess).status_code for node in (first, second, first)] == \
            [401] * 3
        for node in (second, first):
            assert_refused(node.post("/api/sessions", json=guess), "auth/rate_limited", 60)
    name_key = quote(f"testclient {accounts.name_key(guess['name'])}", safe="")
    assert stored_keys(prefix) == {f"{prefix}:limit:signin-name:{name_key}",
                                   f"{prefix}:limit:signin-address:testclient"}


async def test_concurrent_guests_on_two_nodes_never_pass_the_limit(sqlite_template: Path, tmp_path: Path,
                                                                   prefix: str) -> None:
    apps = node_apps(sqlite_template, tmp_path, redis_url=REDIS_URL, redis_prefix=prefix, guests_per_hour=5)
    async with AsyncExitStack() as stack:
        nodes = []
        for app in apps:
            await stack.enter_async_context(app.router.lifespan_context(app))
            nodes.append(await stack.enter_async_context(
                httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://cardroom")))
        answers = await asyncio.gather(*(nodes[number % 2].post("/api/players", json={"name": "Rush"})
                                         for number in range(24)))
    assert Counter(answer.status_code for answer in answers) == {201: 5, 429: 19}


def test_the_chat_limit_holds_through_redis(fresh_sqlite_url: str, prefix: str) -> None:
    settings = make_settings(fresh_sqlite_url, redis_url=REDIS_URL, redis_prefix=prefix, chat_burst=2,
                             chat_lines_per_second=0.001)
    with TestClient(create_app(settings, run_migrations=False)) as http:
        players = [Client(http, f"Chatter {number}") for number in range(2)]
        room_id = players[0].create_room("hazari", private=True)
        with ExitStack() as stack:
            seat_all(players, room_id, stack)
            for text in ("one", "two", "three"):
                players[0].send({"type": "chat", "text": text})
            refused = players[0].error()
            assert refused["code"] == "chat/rate_limited"
            assert refused["message"].startswith("at most 0.001 chat line(s) a second, bursts of 2; wait ")
    assert f"{prefix}:limit:chat:{players[0].id}" in stored_keys(prefix)


def test_with_redis_unreachable_every_request_is_allowed(fresh_sqlite_url: str, tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    """The node joined its cluster, then lost its Redis: the limits let every request through."""
    own_redis = RedisServer(tmp_path / "redis")
    own_redis.start()
    settings = make_settings(fresh_sqlite_url, redis_url=own_redis.url, guests_per_hour=1,
                             signin_max_failures=1)
    before = REGISTRY.get_sample_value(FAILED_OPEN, {"limit": "guests"}) or 0.0
    guess = {"name": "Nobody Here", "password": "a guess"}
    with caplog.at_level(logging.WARNING, logger="app.cluster.limits"), \
            TestClient(create_app(settings, run_migrations=False)) as http:
        own_redis.kill()
        assert [new_guest(http).status_code for _ in range(3)] == [201] * 3
        assert [http.post("/api/sessions", json=guess).status_code for _ in range(3)] == [401] * 3
    assert REGISTRY.get_sample_value(FAILED_OPEN, {"limit": "guests"}) == before + 3
    warnings = [record for record in caplog.records if record.name == "app.cluster.limits"]
    assert len(warnings) == 1, "one warning a minute at the most"
    assert "Redis did not answer a check of the limit 'guests'" in warnings[0].getMessage()
