"""Slowing down password guessing without letting anyone lock another player out: failed sign-ins are
counted per (name, client address) and per address; past a free allowance each failure doubles the
wait before the next try from there. A stranger elsewhere never delays the owner's own address.
:class:`FailureDelays` counts in this process's memory; :mod:`app.cluster.limits` counts in Redis, for
every node of a cluster."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from app.config import Settings

SWEEP_ABOVE = 10_000


class Delays(Protocol):
    """Failures counted per key, and the wait they impose on it, whoever keeps them."""

    async def wait(self, key: str) -> float:
        """Seconds before ``key`` may try again (0: now)."""

    async def failed(self, key: str) -> None:
        """One more failure for ``key``."""

    async def forget(self, key: str) -> None:
        """``key`` starts afresh."""


MakeDelays = Callable[[str, int, float, float, float], Delays]
"""Makes the :class:`Delays` named by its first argument from the terms of :class:`FailureDelays`."""


@dataclass
class Failures:
    count: int = 0
    wait_until: float = 0.0


class FailureDelays:
    """Per key: the first ``free`` failures cost nothing; failure ``free + k`` makes the key wait
    ``first_delay * 2**k`` seconds (at most ``max_delay``). A key is forgotten ``forget_after`` seconds
    after its wait ended with no new failure."""

    def __init__(self, free: int, first_delay: float, max_delay: float, forget_after: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.free, self.first_delay, self.max_delay = free, first_delay, max_delay
        self.forget_after = forget_after
        self.clock = clock
        self.failures: dict[str, Failures] = {}

    def _current(self, key: str, moment: float) -> Failures | None:
        found = self.failures.get(key)
        if found is not None and moment > found.wait_until + self.forget_after:
            del self.failures[key]
            return None
        return found

    async def wait(self, key: str) -> float:
        moment = self.clock()
        found = self._current(key, moment)
        return max(0.0, found.wait_until - moment) if found is not None else 0.0

    async def failed(self, key: str) -> None:
        moment = self.clock()
        if len(self.failures) > SWEEP_ABOVE:
            for known in list(self.failures):
                self._current(known, moment)
        found = self._current(key, moment) or self.failures.setdefault(key, Failures())
        found.count += 1
        if found.count >= self.free:
            delay = min(self.max_delay, self.first_delay * 2 ** min(found.count - self.free, 64))
            found.wait_until = moment + delay
        else:
            found.wait_until = moment

    async def forget(self, key: str) -> None:
        self.failures.pop(key, None)


class SignInLimiter:
    """The two counts a sign-in answers to: its name from its address, and its address whatever the
    name (one address trying many names)."""

    def __init__(self, by_name: Delays, by_address: Delays) -> None:
        self.by_name, self.by_address = by_name, by_address

    @classmethod
    def from_settings(cls, settings: Settings, clock: Callable[[], float] = time.monotonic,
                      delays: MakeDelays | None = None) -> SignInLimiter:
        """Counted by ``delays`` (by default :class:`FailureDelays` on ``clock``)."""
        def in_memory(_name: str, free: int, first: float, longest: float, forget_after: float) -> Delays:
            return FailureDelays(free, first, longest, forget_after, clock)
        make = delays or in_memory

        def counts(name: str, free: int) -> Delays:
            return make(name, free, settings.signin_first_delay_seconds, settings.signin_max_delay_seconds,
                        settings.signin_window_seconds)
        return cls(counts("signin-name", settings.signin_max_failures),
                   counts("signin-address", settings.signin_address_failures))

    async def retry_after(self, name_key: str, address: str) -> float:
        """Seconds before this name may be tried from this address (0: now)."""
        return max(await self.by_name.wait(f"{address} {name_key}"), await self.by_address.wait(address))

    async def failed(self, name_key: str, address: str) -> None:
        await self.by_name.failed(f"{address} {name_key}")
        await self.by_address.failed(address)

    async def succeeded(self, name_key: str, address: str) -> None:
        await self.by_name.forget(f"{address} {name_key}")
