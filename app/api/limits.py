"""Limits on what costs the server or annoys others: new guest accounts per client address, reports and
chat lines per player. Here they are counted in this process's memory; :mod:`app.cluster.limits` counts
them in Redis for every node of a cluster, and :func:`build_limits` chooses."""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from fastapi import Request
from fastapi.responses import JSONResponse
from redis.asyncio import Redis

from app.api.errors import error_response
from app.api.signin_limit import SignInLimiter
from app.cluster.limits import RedisLimits
from app.config import Settings

FORGET_ABOVE = 10_000
GUEST_WINDOW_SECONDS = 3600.0


class Limit(Protocol):
    """At most so many events per key (a client address, a player), whoever counts them."""

    async def take(self, key: str) -> float | None:
        """Count one event for ``key``; when it is over the limit, count nothing and return the
        seconds until the next one is allowed."""


class WindowLimit:
    """At most ``limit`` events per key within a sliding window of ``window`` seconds, counted in this
    process's memory (with several server processes each counts its own). ``clock`` gives seconds."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.events: dict[str, deque[float]] = {}

    def _recent(self, key: str, moment: float) -> deque[float]:
        times = self.events.get(key, deque())
        while times and times[0] <= moment - self.window:
            times.popleft()
        if not times:
            self.events.pop(key, None)
        return times

    async def take(self, key: str) -> float | None:
        moment = self.clock()
        if len(self.events) > FORGET_ABOVE:
            for known in list(self.events):
                self._recent(known, moment)
        times = self._recent(key, moment)
        if len(times) >= self.limit:
            return times[0] + self.window - moment
        self.events[key] = times
        times.append(moment)
        return None


class TokenBuckets:
    """A token bucket per key: ``rate`` events a second on average, bursts of ``burst``, counted in
    this process's memory. ``clock`` gives seconds (tests move it by hand)."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}

    async def take(self, key: str) -> float | None:
        """When the bucket of ``key`` is empty, the seconds until it holds a token again."""
        moment = self.clock()
        if len(self.buckets) > FORGET_ABOVE:
            self.buckets = {known: bucket for known, bucket in self.buckets.items()
                            if self._tokens(bucket, moment) < self.burst}
        tokens = self._tokens(self.buckets.get(key, (self.burst, moment)), moment)
        if tokens < 1:
            return (1 - tokens) / self.rate
        self.buckets[key] = (tokens - 1, moment)
        return None

    def _tokens(self, bucket: tuple[float, float], moment: float) -> float:
        tokens, stamp = bucket
        return min(self.burst, tokens + (moment - stamp) * self.rate)


def client_address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def too_many(code: str, what: str, wait: float) -> JSONResponse:
    """A 429 answer that says when to try again, in its message and in ``Retry-After``."""
    seconds = max(1, math.ceil(wait))
    return error_response(429, code, f"{what}; try again in {seconds} s", seconds)


@dataclass(frozen=True)
class Limits:
    """The limits the app answers to."""

    guests: Limit
    reports: Limit
    chat: Limit
    signin: SignInLimiter


def build_limits(settings: Settings, redis: Redis | None) -> Limits:
    """The limits of ``settings``: in this process's memory without ``redis``; with it, in Redis under
    ``settings.redis_prefix``, shared by every node of the cluster."""
    if redis is None:
        return Limits(guests=WindowLimit(settings.guests_per_hour, GUEST_WINDOW_SECONDS),
                      reports=WindowLimit(settings.reports_per_window, settings.report_window_seconds),
                      chat=TokenBuckets(settings.chat_lines_per_second, settings.chat_burst),
                      signin=SignInLimiter.from_settings(settings))
    shared = RedisLimits(redis, settings.redis_prefix)
    return Limits(guests=shared.window("guests", settings.guests_per_hour, GUEST_WINDOW_SECONDS),
                  reports=shared.window("reports", settings.reports_per_window,
                                        settings.report_window_seconds),
                  chat=shared.buckets("chat", settings.chat_lines_per_second, settings.chat_burst),
                  signin=SignInLimiter.from_settings(settings, delays=shared.failure_delays))
