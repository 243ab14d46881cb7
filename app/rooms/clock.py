"""Time as a room reads it (the clock, which tests replace), and turn timers: when each awaited
decision became due, its deadline, and the decisions a seat missed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from dataclasses import dataclass, field


class Clock:
    """The time a room reads and the waits it makes. Every pause, timer and deadline of a room goes
    through its clock, so that a test can hand it one that it moves forward by hand."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    async def wait(self, event: asyncio.Event, seconds: float) -> None:
        """Until ``event`` is set or ``seconds`` have passed, whichever comes first."""
        waits = [asyncio.ensure_future(event.wait()), asyncio.ensure_future(self.sleep(seconds))]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waits:
                task.cancel()


@dataclass
class TurnClock:
    """``seconds`` per decision (0: no timer). Times are seconds since the epoch, so that deadlines
    mean the same after a restart."""

    seconds: int = 0
    missed_limit: int = 2
    due_since: dict[int, float] = field(default_factory=dict)
    missed: dict[int, int] = field(default_factory=dict)

    @property
    def enabled(self) -> bool:
        return self.seconds > 0

    def update(self, awaited: Iterable[int], at: float, acted: Iterable[int] = ()) -> None:
        """The seats whose decision is awaited after a step taken at ``at`` by the seats ``acted``:
        a seat that acted and is awaited again has a new decision, with all its time."""
        fresh = set(acted)
        self.due_since = {seat: at if seat in fresh else self.due_since.get(seat, at) for seat in awaited}

    def deadline(self, seat: int) -> float | None:
        since = self.due_since.get(seat)
        return None if since is None or not self.enabled else since + self.seconds

    def deadlines(self) -> dict[int, float]:
        return {seat: since + self.seconds for seat, since in self.due_since.items()} if self.enabled else {}

    def expired(self, now: float, seats: Iterable[int]) -> list[int]:
        return [seat for seat in seats if (deadline := self.deadline(seat)) is not None and deadline <= now]

    def acted(self, seat: int) -> None:
        self.missed[seat] = 0

    def timed_out(self, seat: int) -> bool:
        """Count a missed decision; whether the seat has now missed too many in a row."""
        self.missed[seat] = self.missed.get(seat, 0) + 1
        return self.missed[seat] >= self.missed_limit
