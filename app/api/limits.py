"""Limits per client address on what costs the server: new guest accounts."""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

from fastapi import Request
from fastapi.responses import JSONResponse

from app.api.errors import error_response

FORGET_ABOVE = 10_000


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

    def take(self, key: str) -> float | None:
        """Count one event for ``key``; when it is over the limit, count nothing and return the
        seconds until the next one is allowed."""
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


def client_address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def too_many(code: str, what: str, wait: float) -> JSONResponse:
    """A 429 answer that says when to try again, in its message and in ``Retry-After``."""
    seconds = max(1, math.ceil(wait))
    return error_response(429, code, f"{what}; try again in {seconds} s", seconds)
