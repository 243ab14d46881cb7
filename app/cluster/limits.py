"""The limits of :mod:`app.api.limits` and :mod:`app.api.signin_limit` counted in Redis, so that they hold
across every node of a cluster: the same rules and the same answers as the counts kept in memory.

Each check is one Lua script, atomic on the Redis server and timed by its clock (``TIME``), so that nodes
whose clocks differ agree. Given a ``clock`` (tests), a limit sends its readings to the scripts instead.
A key is ``{prefix}:limit:{name}:{key}``, the key percent-encoded; each expires once it says no more
than its absence would.

When Redis does not answer a check, the check allows (a limit never locks everyone out), the metric
``cardroom_limits_failed_open_total`` counts it and a warning is logged, at most once a minute."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from urllib.parse import quote

from redis.asyncio import Redis
from redis.commands.core import AsyncScript
from redis.exceptions import RedisError

from app import metrics

log = logging.getLogger(__name__)

CHECK_SECONDS = 1.0
"""How long a check waits for Redis before it allows."""
WARN_EVERY_SECONDS = 60.0

# ARGV[1] is the time in seconds, or empty for the server's clock.
NOW = """
local now
if ARGV[1] == '' then
  local time = redis.call('TIME')
  now = tonumber(time[1]) + tonumber(time[2]) / 1000000
else
  now = tonumber(ARGV[1])
end
local function text(number) return string.format('%.17g', number) end
"""

# A sorted set of the key's events, scored by their times. ARGV: now, limit, window, a new member.
WINDOW = NOW + """
local limit, window = tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', text(now - window))
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return text(tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], text(now), ARGV[4])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -limit - 1)
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
return false
"""

# A hash of the bucket's tokens and when they were counted. ARGV: now, rate, burst.
BUCKET = NOW + """
local rate, burst = tonumber(ARGV[2]), tonumber(ARGV[3])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = burst
if held[1] then
  tokens = math.min(burst, tonumber(held[1]) + (now - tonumber(held[2])) * rate)
end
if tokens < 1 then
  return text((1 - tokens) / rate)
end
redis.call('HSET', KEYS[1], 'tokens', text(tokens - 1), 'stamp', text(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens + 1) / rate * 1000))
return false
"""

# A hash of the key's failures and the end of its wait. ARGV: now, forget_after (and, to count one
# more: free, first_delay, max_delay).
FAILURES = NOW + """
local forget_after = tonumber(ARGV[2])
local held = redis.call('HMGET', KEYS[1], 'count', 'wait_until')
local count, wait_until = 0, now
if held[1] then
  count, wait_until = tonumber(held[1]), tonumber(held[2])
  if now > wait_until + forget_after then
    redis.call('DEL', KEYS[1])
    count, wait_until = 0, now
  end
end
"""

WAIT = FAILURES + """
return text(math.max(0, wait_until - now))
"""

FAILED = FAILURES + """
local free, first, longest = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
count = count + 1
wait_until = now
if count >= free then
  wait_until = now + math.min(longest, first * 2 ^ math.min(count - free, 64))
end
redis.call('HSET', KEYS[1], 'count', count, 'wait_until', text(wait_until))
redis.call('PEXPIRE', KEYS[1], math.ceil((wait_until - now + forget_after) * 1000) + 1)
return false
"""

FORGET = """
redis.call('DEL', KEYS[1])
return false
"""


class Outage:
    """Checks Redis did not answer: each counted, a warning logged at most once a minute."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.warned_at: float | None = None

    def noticed(self, name: str, error: Exception) -> None:
        metrics.failed_open(name)
        moment = self.clock()
        if self.warned_at is None or moment - self.warned_at >= WARN_EVERY_SECONDS:
            self.warned_at = moment
            log.warning("Redis did not answer a check of the limit %r (%s: %s); checks allow until it "
                        "does", name, type(error).__name__, error)


class RedisLimits:
    """The limits of one cluster: their keys under ``prefix``, their checks run on ``redis``, timed by
    ``clock`` when given, else by the Redis server."""

    def __init__(self, redis: Redis, prefix: str, clock: Callable[[], float] | None = None) -> None:
        self.redis, self.prefix, self.clock = redis, prefix, clock
        self.outage = Outage()

    def key(self, name: str, key: str) -> str:
        return f"{self.prefix}:limit:{name}:{quote(key, safe='')}"

    def script(self, source: str) -> AsyncScript:
        return self.redis.register_script(source)

    async def run(self, script: AsyncScript, name: str, key: str, *args: float | str,
                  unanswered: float | None) -> float | None:
        """The answer of ``script`` for ``key`` of the limit ``name`` (seconds, or None), or
        ``unanswered`` when Redis does not answer."""
        now = "" if self.clock is None else repr(self.clock())
        try:
            async with asyncio.timeout(CHECK_SECONDS):
                answer = await script(keys=[self.key(name, key)], args=[now, *args], client=self.redis)
        except (RedisError, OSError) as error:
            self.outage.noticed(name, error)
            return unanswered
        return None if answer is None else float(answer)

    def window(self, name: str, limit: int, window: float) -> RedisWindowLimit:
        return RedisWindowLimit(self, name, limit, window)

    def buckets(self, name: str, rate: float, burst: float) -> RedisTokenBuckets:
        return RedisTokenBuckets(self, name, rate, burst)

    def failure_delays(self, name: str, free: int, first_delay: float, max_delay: float,
                       forget_after: float) -> RedisFailureDelays:
        return RedisFailureDelays(self, name, free, first_delay, max_delay, forget_after)


class RedisWindowLimit:
    """:class:`app.api.limits.WindowLimit` in Redis: at most ``limit`` events per key within a sliding
    window of ``window`` seconds."""

    def __init__(self, limits: RedisLimits, name: str, limit: int, window: float) -> None:
        self.limits, self.name, self.limit, self.window = limits, name, limit, window
        self.script = limits.script(WINDOW)

    async def take(self, key: str) -> float | None:
        return await self.limits.run(self.script, self.name, key, self.limit, self.window,
                                     secrets.token_hex(8), unanswered=None)


class RedisTokenBuckets:
    """:class:`app.api.limits.TokenBuckets` in Redis: ``rate`` events a second per key on average,
    bursts of ``burst``."""

    def __init__(self, limits: RedisLimits, name: str, rate: float, burst: float) -> None:
        self.limits, self.name, self.rate, self.burst = limits, name, rate, burst
        self.script = limits.script(BUCKET)

    async def take(self, key: str) -> float | None:
        return await self.limits.run(self.script, self.name, key, self.rate, self.burst, unanswered=None)


class RedisFailureDelays:
    """:class:`app.api.signin_limit.FailureDelays` in Redis: the first ``free`` failures of a key cost
    nothing, failure ``free + k`` makes it wait ``first_delay * 2**k`` seconds (at most ``max_delay``),
    and a key is forgotten ``forget_after`` seconds after its wait ended with no new failure."""

    def __init__(self, limits: RedisLimits, name: str, free: int, first_delay: float, max_delay: float,
                 forget_after: float) -> None:
        self.limits, self.name = limits, name
        self.free, self.first_delay, self.max_delay = free, first_delay, max_delay
        self.forget_after = forget_after
        self.waiting, self.failing, self.forgetting = (limits.script(text) for text in (WAIT, FAILED, FORGET))

    async def wait(self, key: str) -> float:
        return await self.limits.run(self.waiting, self.name, key, self.forget_after, unanswered=0.0) or 0.0

    async def failed(self, key: str) -> None:
        await self.limits.run(self.failing, self.name, key, self.forget_after, self.free, self.first_delay,
                              self.max_delay, unanswered=None)

    async def forget(self, key: str) -> None:
        await self.limits.run(self.forgetting, self.name, key, unanswered=None)
