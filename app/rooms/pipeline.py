"""The path of every step of a match: judge it on the pure engine, store it, then commit it to the
room and announce it.

A step is worked out without touching the room: nothing it changes (the state, revealed seeds,
chips, timers, autopilots, the version) is visible to anyone until its write has committed, and a
write that fails leaves the room exactly as it was. :meth:`StepPipeline.record` is the one place a
stored step (:class:`~app.db.step_rows.StepRecord`) is made; it carries the room's fence, and a write
the database refuses because another server has taken the room over
(:class:`~app.db.fencing.RoomFenced`) also calls the room's ``when_fenced``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from app.db.fencing import RoomFenced
from app.db.ids import now
from app.db.ledger import bot_account, player_account
from app.db.step_rows import ChipMove, DealtDeck, LoggedAction, StepRecord
from app.games.base import JSON, MoneyRules, Transition
from app.games.cards import card_texts
from app.games.driver import DealNeeded, MatchOver
from app.rooms.errors import StepNotStored
from app.rooms.status import RoomStatus

if TYPE_CHECKING:
    from app.rooms.room import Room

log = logging.getLogger("app.rooms.room")  # a room's lines, from any of its parts (docs/operations.md)

STORE_ERRORS = (SQLAlchemyError, OSError)


def nothing() -> None:
    pass


class StepPipeline:
    def __init__(self, room: Room) -> None:
        self.room = room
        self.stored_at = 0.0
        """When the last write was stored (``time.perf_counter``), for the step's metrics."""

    def record(self, match_id: str | None = None, audit: JSON | None = None) -> StepRecord:
        """A new stored step of the room's match (or of ``match_id``, the one it starts)."""
        return StepRecord(match_id or self.room.match_id or "", audit=[] if audit is None else [audit],
                          fence=self.room.fence)

    # --- judging: what a step would change ------------------------------------------------

    def log(self, record: StepRecord, seat: int | None, action: JSON, ref: str | None = None,
            autopilot: bool = False) -> None:
        room = self.room
        record.actions.append(LoggedAction(
            seq=room.seq + len(record.actions) + 1, deal=room.deals + len(record.deals), seat=seat,
            action=action, ref=ref, at=now(), autopilot=autopilot))

    def deal(self, state: Any, record: StepRecord) -> Any:
        room = self.room
        number = room.deals + len(record.deals) + 1
        deck, seeds = room.dealer.deck(number, len(room.seats))
        record.deals.append(DealtDeck(
            number=number, deck=card_texts(deck), server_seed=seeds.server_seed if seeds else None,
            commitment=seeds.commitment if seeds else None,
            client_seeds=seeds.in_seat_order(len(room.seats)) if seeds else None))
        self.log(record, None, {"kind": "deal", "deal": number})
        return self.absorb(room.engine.deal(state, deck), record)

    def absorb(self, transition: Transition[Any], record: StepRecord) -> Any:
        """Turn the engine's events into what the step writes (and the room applies once it is stored)."""
        room = self.room
        seq = room.seq + len(record.actions)
        deal = room.deals + len(record.deals)
        for event in transition.events:
            if event["type"] == "deal_end":
                record.deal_results.append((event["number"], event["points"], event.get("detail", {})))
            elif event["type"] == "chips":
                record.chips.append(ChipMove(self._account(record.match_id, event["seat"]),
                                             event["delta"], event["reason"], deal, seq))
        due = room.due(transition.state)
        if isinstance(due, MatchOver):
            record.result = {**due.outcome.to_json(), "played_by": self._played_by()}
        return transition.state

    def _account(self, match_id: str, seat: int) -> str:
        occupant = self.room.seats[seat]
        if occupant is not None and occupant.player_id is not None:
            return player_account(occupant.player_id)
        return bot_account(match_id, seat)

    def _played_by(self) -> list[str]:
        """Who holds each seat now: ``player``, ``autopilot`` (for a person away or too slow) or ``bot``."""
        return ["bot" if occupant is None or occupant.bot is not None
                else "autopilot" if occupant.autopilot else "player" for occupant in self.room.seats]

    # --- the steps -------------------------------------------------------------------------

    async def act(self, seat: int, raw: Any, ref: str | None, also: Callable[[], None] = nothing,
                  autopilot: bool = False, began: float | None = None) -> None:
        """Judge, store, then apply and announce one seat's action, with ``also`` changing the room
        along with it (``autopilot``: decided for a person by the bot). A refusal changes nothing.
        ``began``: when the room took the action up, if before this."""
        room = self.room
        judging = time.perf_counter()
        action = room.engine.parse_action(raw)
        transition = room.engine.apply(room.state, seat, action)
        record = self.record()
        self.log(record, seat, room.engine.action_to_json(action), ref, autopilot)
        state = self.absorb(transition, record)
        completes_trick = any(event["type"] == "trick" for event in transition.events)

        def with_trick_shown() -> None:
            also()
            if completes_trick:
                room.trick_shown_until = room.clock.now() + room.timing.auto_pause
        judged = time.perf_counter()
        await self.store_then_commit(state, record, with_trick_shown)
        room.metrics.moved(judging if began is None else began, judging, judged, self.stored_at,
                           time.perf_counter())

    async def automatic(self) -> None:
        """The step no player decides: the next deal, or the engine's forced step."""
        room = self.room
        record = self.record()
        if isinstance(room.due(), DealNeeded):
            state = self.deal(room.state, record)
        else:
            self.log(record, None, {"kind": "auto"})
            state = self.absorb(room.engine.auto_step(room.state), record)
        await self.store_then_commit(state, record)

    async def close(self, rules: MoneyRules[Any], audit: JSON | None = None) -> None:
        """End a chip game's session by its ``rules`` (an operator's, with ``audit``: also during a
        game)."""
        room = self.room
        record = self.record(audit=audit)
        self.log(record, None, {"kind": "close"} if audit is None else {"kind": "close", "by": "operator"})
        state = self.absorb(rules.close(room.state, audit is not None), record)
        await self.store_then_commit(state, record)

    # --- storing, then committing ------------------------------------------------------------

    async def store_then_commit(self, state: Any, record: StepRecord,
                                also: Callable[[], None] = nothing) -> None:
        def commit() -> None:
            also()
            self.commit(state, record)
        await self.store_then(self.room.store.record_step(record), commit)

    async def store_then(self, write: Awaitable[None], commit: Callable[[], None]) -> None:
        """Write, then ``commit`` (change the room and tell everyone). A write that fails raises
        :class:`StepNotStored` (:class:`RoomFenced` when another server has taken the room over) and
        commits nothing. A write under way is committed once stored even if the task that made it is
        cancelled meanwhile, so the room never falls behind its stored log."""
        writing = asyncio.ensure_future(write)
        try:
            await asyncio.shield(writing)
        except asyncio.CancelledError:
            await asyncio.wait([writing])
            if not writing.cancelled() and writing.exception() is None:
                commit()
            raise
        except RoomFenced:
            log.warning("room %s: another server has taken this room over; nothing changed", self.room.id)
            self.room.when_fenced()
            raise
        except STORE_ERRORS as error:
            log.warning("room %s: a step was not stored, nothing changed: %s", self.room.id,
                        str(error).splitlines()[0] if str(error) else type(error).__name__)
            raise StepNotStored("the database did not store this step; nothing changed, "
                                "send it again") from error
        self.stored_at = time.perf_counter()
        commit()

    def commit(self, state: Any, record: StepRecord) -> None:
        """Apply a stored step to the room, and announce it."""
        room = self.room
        room.state = state
        for action in record.actions:
            if action.ref is not None and action.seat is not None:
                room.applied[action.seat, action.ref] = action.seq
        for deck in record.deals:
            room.dealer.stored(deck.number)
        for number, _points, _detail in record.deal_results:
            room.dealer.reveal(number)
        room.seq += len(record.actions)
        room.deals += len(record.deals)
        room.turn_clock.update(room.turns.awaited(), room.clock.now(),
                               {action.seat for action in record.actions if action.seat is not None})
        room.drafts = {seat: draft for seat, draft in room.drafts.items()
                       if seat in room.turn_clock.due_since}
        room.turns.between_deals()
        if record.result is not None:
            room.status = RoomStatus.FINISHED
            log.info("match finished")
        room.fanout.changed()
