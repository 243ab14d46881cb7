"""The steps a room takes without being asked: automatic steps, bots' turns, the autopilot and turn
timers, with the pauses between them; and the one path by which a bot decides for a seat (a bot, the
autopilot, a timed-out turn, a hint)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from app.db.fencing import RoomFenced
from app.games.base import JSON
from app.games.driver import AutoStepDue, DealNeeded, SeatsToAct
from app.rooms.errors import StepNotStored
from app.rooms.pipeline import nothing
from app.rooms.timing import DealPause

if TYPE_CHECKING:
    from app.rooms.room import Room

log = logging.getLogger("app.rooms.room")  # a room's lines, from any of its parts (docs/operations.md)


@dataclass(frozen=True)
class Decision:
    """What a seat has to decide: its view and legal actions, at the room's version."""

    seat: int
    view: JSON
    legal: list[JSON]
    version: int


class Turns:
    def __init__(self, room: Room) -> None:
        self.room = room
        self._pause_changed = asyncio.Event()
        # The room's own steps under way: "auto" (an automatic step), "timer" (the turn timer) and
        # "bot N" (the bot's turn in seat N).
        self._tasks: dict[str, asyncio.Task[None]] = {}

    # --- what is awaited ---------------------------------------------------------------------

    def awaited(self) -> tuple[int, ...]:
        """The seats whose decision the match awaits now (none while a step no player decides is due)."""
        due = self.room.due()
        return due.seats if isinstance(due, SeatsToAct) else ()

    def _awaited_people(self) -> list[int]:
        """Awaited seats of people who play for themselves (no bot, no autopilot)."""
        seats = self.room.seats
        return [seat for seat in self.awaited()
                if (occupant := seats[seat]) is not None and occupant.bot_level is None]

    def autopilot(self, seat: int, on: bool) -> None:
        """The strong bot takes a person's seat (``on``) or gives it back."""
        room = self.room
        occupant = room.seats[seat]
        if occupant is not None and occupant.bot is None and occupant.autopilot != on:
            occupant.autopilot = on
            room.turn_clock.acted(seat)
            if on:
                room.metrics.takeovers.inc()

    # --- one path to decide for a seat -------------------------------------------------------------

    def decision(self, seat: int, with_draft: bool = True) -> Decision:
        """What ``seat`` decides now; ``with_draft``: with the arrangement the seat has started."""
        room = self.room
        view = room.fanout.seat_view(seat) if with_draft else room.engine.view(room.state, seat)
        return Decision(seat, view, room.engine.legal_actions(room.state, seat), room.version)

    async def choose(self, decision: Decision, level: str) -> JSON:
        return await self.room.bots.choose(level, decision.view, decision.legal)

    async def play_for(self, seat: int, level: str, *, with_draft: bool, autopilot: bool,
                       also: Callable[[], None] = nothing) -> tuple[JSON, Decision]:
        """A bot of ``level`` decides for ``seat`` and the room applies it; the action and what the
        seat had to decide."""
        decision = self.decision(seat, with_draft)
        action = await self.choose(decision, level)
        await self.room.steps.act(seat, action, None, also, autopilot=autopilot)
        return action, decision

    # --- the schedule --------------------------------------------------------------------------

    def schedule(self) -> None:
        """Start the timers of whatever is due without a player: an automatic step, a bot's turn."""
        room = self.room
        if room.closed:
            return
        due = room.due()
        if not self._running("auto") and isinstance(due, DealNeeded | AutoStepDue):
            pause = 0.0 if room.deals == 0 else room.timing.auto_pause
            self._start("auto", "an automatic step", lambda: self._auto_when_due(pause))
        if not isinstance(due, SeatsToAct):
            return
        for seat in due.seats:
            occupant = room.seats[seat]
            level = occupant.bot_level if occupant is not None else None
            if level is not None and not self._running(f"bot {seat}"):
                self._start(f"bot {seat}", f"the bot in seat {seat}", partial(self._bot_acts, seat, level))
        deadlines = [room.turn_clock.deadline(seat) for seat in self._awaited_people()]
        if not self._running("timer") and any(deadlines):
            wait = max(0.0, min(d for d in deadlines if d is not None) - room.clock.now())
            self._start("timer", "a turn timer", lambda: self._time_out(wait))

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """A task of the room's own, whose log lines name the room, not the connection that started it."""
        return asyncio.create_task(work, context=self.room.log_context)

    def pending(self) -> list[asyncio.Task[None]]:
        """The automatic step and bots' turns under way."""
        return [task for key, task in self._tasks.items() if key != "timer" and not task.done()]

    def _running(self, key: str) -> bool:
        """A task cancelled before it ran (``stop``) never cleared its key, but it is done."""
        task = self._tasks.get(key)
        return task is not None and not task.done()

    def _start(self, key: str, what: str, work: Callable[[], Awaitable[None]]) -> None:
        self._tasks[key] = self.spawn(self._background(key, what, work))

    async def _background(self, key: str, what: str, work: Callable[[], Awaitable[None]]) -> None:
        """Run a step nobody waits for, then schedule what is due next. A step the database did not
        take is tried again after ``timing.retry_pause``; any other failure is logged and waits as
        long, so a step that keeps failing never spins. Once another server has taken the room over
        nothing more is scheduled: that server plays on."""
        room = self.room
        try:
            await work()
        except RoomFenced:
            return
        except StepNotStored:
            await room.clock.sleep(room.timing.retry_pause)
        except Exception:
            log.exception("room %s: %s failed", room.id, what)
            await room.clock.sleep(room.timing.retry_pause)
        finally:
            del self._tasks[key]
        self.schedule()

    # --- turn timers --------------------------------------------------------------------------------

    async def _time_out(self, delay: float) -> None:
        """When a person's time is up the strong bot makes that decision for him; after too many
        in a row it keeps playing for him until he takes the seat back."""
        room = self.room
        await room.clock.sleep(delay)
        await self._trick_shown()
        async with room.lock:
            for seat in room.turn_clock.expired(room.clock.now(), self._awaited_people()):
                room.metrics.timeouts.inc()
                action, decision = await self.play_for(seat, "strong", with_draft=True, autopilot=True,
                                                       also=self._missed(seat))
                room.fanout.tell_timeout(seat, action, drafted=any(decision.view.get("draft") or ()))

    def _missed(self, seat: int) -> Callable[[], None]:
        """What a timed-out decision changes besides the game: one more miss for the seat, and past
        the limit the bot holds it."""
        def count() -> None:
            if self.room.turn_clock.timed_out(seat):
                self.autopilot(seat, True)
        return count

    # --- bots and the autopilot -------------------------------------------------------------------

    async def _bot_acts(self, seat: int, level: str) -> None:
        room = self.room
        await room.clock.sleep(room.timing.bot_delay)
        await self._trick_shown()
        async with room.lock:
            occupant = room.seats[seat]
            if (room.state is not None and seat in self.awaited() and occupant is not None
                    and occupant.bot_level is not None):
                await self.play_for(seat, level, with_draft=False, autopilot=occupant.bot is None)

    async def _trick_shown(self) -> None:
        """A completed trick stays on the table for ``timing.auto_pause`` before a bot or the
        autopilot plays to the next one (a person may play at once)."""
        room = self.room
        await room.clock.sleep(room.trick_shown_until - room.clock.now())

    # --- automatic steps and the pause between deals ---------------------------------------------

    async def _auto_when_due(self, delay: float) -> None:
        room = self.room
        await room.clock.sleep(delay)
        await self._deal_pause_over()
        await self._seeds_or_timeout()
        async with room.lock:
            if isinstance(room.due(), DealNeeded | AutoStepDue):
                await room.steps.automatic()

    async def _seeds_or_timeout(self) -> None:
        room = self.room
        pending = room.dealer.seeds.get(room.deals + 1)
        if pending is not None and isinstance(room.due(), DealNeeded):
            await room.clock.wait(pending.ready, room.timing.seed_wait)

    def between_deals(self) -> None:
        """After a step: a deal has ended and another is due, so its result stays until every player
        present has asked for the next deal or ``timing.deal_pause`` has passed; and when a deal is
        due, the room commits to its server seed and asks the players present for theirs."""
        room = self.room
        deal_due = isinstance(room.due(), DealNeeded)
        if not (deal_due and room.deals > 0):
            room.deal_pause = None
        elif room.deal_pause is None:
            room.deal_pause = DealPause(ends_at=room.clock.now() + room.timing.deal_pause)
        if deal_due:
            room.dealer.prepare(room.deals + 1, room.presence.people_present())

    def pause_changed(self) -> None:
        """Something a pause between deals waits for may have changed."""
        self._pause_changed.set()

    async def _deal_pause_over(self) -> None:
        """Wait until every player present has asked for the next deal, or the pause's time is up."""
        room = self.room
        while ((pause := room.deal_pause) is not None
               and not set(room.presence.people_present()) <= pause.ready):
            left = pause.ends_at - room.clock.now()
            if left <= 0:
                return
            self._pause_changed.clear()
            await room.clock.wait(self._pause_changed, left)

    # --- stopping --------------------------------------------------------------------------------

    def stop(self) -> None:
        """Cancel the room's own steps under way (an operator stopped its match), but not the caller."""
        for task in self._tasks.values():
            if task is not asyncio.current_task():
                task.cancel()

    async def close(self) -> None:
        """Stop everything the room has running (the server is shutting down)."""
        tasks = [*self._tasks.values(), *self.room.presence.tasks()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5)
