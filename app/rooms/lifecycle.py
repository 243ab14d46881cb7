"""A room's life after its seats are taken: the match starts, is rebuilt after a restart, is played
again, and the room is closed (by its owner, by an operator, or for lack of use)."""

from __future__ import annotations

import logging
import secrets
from datetime import UTC
from typing import TYPE_CHECKING, Any

from app.db import models
from app.db.ids import new_id, now
from app.db.store import SeatRow
from app.games.base import Rejection, Seating, SessionEnd
from app.games.cards import parse_cards
from app.games.replay import replay_step
from app.rooms.clock import TurnClock
from app.rooms.connection import Connection
from app.rooms.dealing import Dealer
from app.rooms.errors import RoomError
from app.rooms.occupant import Occupant
from app.rooms.rematch import RematchOffer
from app.rooms.status import RoomStatus

if TYPE_CHECKING:
    from app.rooms.room import Room

log = logging.getLogger("app.rooms.room")  # a room's lines, from any of its parts (docs/operations.md)


class Lifecycle:
    def __init__(self, room: Room) -> None:
        self.room = room

    # --- the start ---------------------------------------------------------------------------

    async def start(self, conn: Connection) -> None:
        """The owner starts the match; once a match is over, the next one (:meth:`rematch`)."""
        room = self.room
        room.require_owner(conn)
        async with room.lock:
            if room.match_over():
                await self._owner_starts_rematch(conn)
                return
            room.require_not_started("start it again")
            occupants = [occupant for occupant in room.seats if occupant is not None]
            self._check_seat_count(len(occupants))
            await self._start_match(occupants)
        room.schedule()

    def _check_seat_count(self, seated: int) -> None:
        engine = self.room.engine
        if not engine.min_seats <= seated <= engine.max_seats or (
                engine.min_seats == engine.max_seats and seated != len(self.room.seats)):
            wanted = (f"{engine.min_seats}" if engine.min_seats == engine.max_seats
                      else f"{engine.min_seats} to {engine.max_seats}")
            raise RoomError(f"{engine.title} needs {wanted} seated players; {seated} are seated",
                            code="room/seats_empty")

    async def _start_match(self, occupants: list[Occupant]) -> None:
        room = self.room
        first_dealer = room.test_setup.first_dealer
        if first_dealer is None or first_dealer >= len(occupants):
            first_dealer = secrets.randbelow(len(occupants))
        record = room.steps.record(new_id())
        match_id = record.match_id
        stacks = await room.chips.stacks(occupants, record)
        seating = Seating(players=len(occupants), first_dealer=first_dealer, stacks=stacks)
        match = models.Match(id=match_id, room_id=room.id, game=room.engine.name,
                             options=room.options, first_dealer=first_dealer,
                             stacks=list(stacks) if stacks else None, status="running",
                             started_at=now(), finished_at=None, result=None)
        seat_rows = [models.MatchSeat(match_id=match.id, seat=seat, player_id=o.player_id,
                                      name=o.name, bot=o.bot) for seat, o in enumerate(occupants)]
        state = room.engine.start(room.options, seating)
        held = [SeatRow(o.player_id, o.bot, o.buy_in) for o in occupants]

        def begin() -> None:
            self._new_match()
            room.seats, room.match_id, room.status = list(occupants), match_id, RoomStatus.PLAYING
            room.steps.commit(state, record)
            log.info("match started")
        await room.steps.store_then(room.store.start_match(match, seat_rows, record, room.version + 1, held,
                                                           fence=room.fence, ante=room.chips.rules.seat_ante),
                                    begin)

    def _new_match(self) -> None:
        """Forget what belongs to the match before (a rematch starts from its first deal)."""
        room = self.room
        clock = room.turn_clock
        room.turn_clock = TurnClock(seconds=clock.seconds, missed_limit=clock.missed_limit)
        room.dealer = Dealer(room.engine.full_deck(), room.test_setup.decks)
        room.applied, room.drafts, room.deal_pause, room.rematch_offer = {}, {}, None, None
        room.trick_shown_until, room.seq, room.deals = 0.0, 0, 0

    def resume(self, match: models.Match, seats: list[models.MatchSeat], deals: list[models.Deal],
               actions: list[models.Action]) -> None:
        """Rebuild the match in play from its stored decks and log (after a restart)."""
        room = self.room
        room.seats = [Occupant(seat.player_id, seat.name, seat.bot) for seat in seats]
        seating = Seating(players=len(seats), first_dealer=match.first_dealer,
                          stacks=tuple(match.stacks) if match.stacks else None)
        state = room.engine.start(match.options, seating)
        cards = {deal.number: parse_cards(deal.deck) for deal in deals}
        for deal in deals:
            room.dealer.restore(deal.number, deal.server_seed, deal.client_seeds, deal.points is not None)
        for action in actions:
            state = replay_step(room.engine, state, action.seat, action.action, cards)
            room.state = state
            room.turn_clock.update(room.turns.awaited(), action.at.replace(tzinfo=UTC).timestamp(),
                                   () if action.seat is None else (action.seat,))
            if action.ref is not None and action.seat is not None:
                room.applied[action.seat, action.ref] = action.seq
        room.state, room.match_id, room.status = state, match.id, RoomStatus.PLAYING
        room.seq, room.deals = len(actions), len(deals)
        room.version += room.seq
        room.turns.between_deals()

    # --- play again ----------------------------------------------------------------------------

    async def rematch(self, conn: Connection, accept: bool) -> None:
        """A player of the finished match plays again or not (:mod:`app.rooms.rematch`)."""
        room = self.room
        player_id = room.require_player(conn)
        async with room.lock:
            seat = room.seat_of(player_id)
            if seat is None:
                raise RoomError("only the players of this table's match can answer a rematch",
                                code="room/not_seated")
            if room.stopped:
                raise RoomError("an operator has closed this table", code="room/closed")
            if not room.match_over():
                raise RoomError("the match is not over; playing again is offered once it ends",
                                code="rematch/not_over")
            offer = room.rematch_offer or RematchOffer(deadline=room.clock.now() + room.timing.rematch_wait)
            offer.answer(seat, accept)
            room.rematch_offer = offer
            if offer.settled(room.presence.people_at_table()):
                await self._start_rematch(offer)
            else:
                room.fanout.changed()
        room.schedule()

    async def _owner_starts_rematch(self, conn: Connection) -> None:
        room = self.room
        offer = room.rematch_offer
        if offer is None:
            raise RoomError("nobody has asked to play again yet; send rematch to offer it",
                            code="rematch/no_offer")
        offer.check_owner_start(room.seat_of(conn.player_id), room.presence.people_at_table(),
                                room.clock.now())
        await self._start_rematch(offer)

    async def rematch_if_settled(self) -> None:
        """A person left the table: the others may now all have answered."""
        room = self.room
        async with room.lock:
            offer = room.rematch_offer
            if offer is not None and room.match_over() and offer.settled(room.presence.people_at_table()):
                try:
                    await self._start_rematch(offer)
                except Rejection as refusal:
                    log.warning("room %s: the rematch did not start: %s", room.id, refusal)
        room.schedule()

    async def _start_rematch(self, offer: RematchOffer) -> None:
        room = self.room
        occupants = offer.occupants(room.seats, room.presence.people_at_table(), room.removed,
                                    room.chips.rules.bot_buy_in)
        await self._start_match(occupants)

    # --- closing ---------------------------------------------------------------------------------

    async def close_table(self, conn: Connection) -> None:
        """The owner closes the room: before the start at once; a game without an end of its own
        (:class:`~app.games.base.SessionEnd`) between games."""
        room = self.room
        room.require_owner(conn)
        async with room.lock:
            if room.status is RoomStatus.FINISHED:
                raise RoomError("the room is already closed", code="room/finished")
            if room.state is None:
                await self._close_unstarted()
                return
            rules = room.engine.chips
            if rules is None or rules.session_end is not SessionEnd.CLOSE:
                raise RoomError(f"a {room.engine.title} match cannot be closed once it has started",
                                code="room/cannot_close")
            await room.steps.close(rules)

    async def _close_unstarted(self, audit: dict[str, Any] | None = None) -> None:
        room = self.room
        await room.steps.store_then(room.store.set_room_status(room.id, RoomStatus.FINISHED,
                                                               fence=room.fence, audit=audit),
                                    self._closed)

    async def close_by_operator(self, audit: dict[str, Any]) -> None:
        """An operator closes the room, writing ``audit`` with the change: one not started at once;
        a chip game's match by its rules' close, which returns the pot of a game in play; any other
        match is stopped where it is (``closed``, with no result). Closing a closed room is refused."""
        room = self.room
        async with room.lock:
            if room.status is RoomStatus.FINISHED:
                raise RoomError("the room is already closed; nothing changed", code="room/finished")
            if room.state is None:
                await self._close_unstarted(audit)
                return
            rules = room.engine.chips
            if rules is None:
                await room.steps.store_then(room.store.set_room_status(
                    room.id, RoomStatus.FINISHED, fence=room.fence, audit=audit,
                    stopped_match=room.match_id), self._stop)
                return
            await room.steps.close(rules, audit)

    def _stop(self) -> None:
        self.room.stopped = True
        self._closed()
        self.room.turns.stop()

    def _closed(self) -> None:
        self.room.status = RoomStatus.FINISHED
        self.room.fanout.changed()

    async def remove_player(self, player_id: str, audit: dict[str, Any]) -> None:
        """An operator removes a player, writing ``audit`` with the change. He loses his seat as a
        player who leaves would: before the match at once (a chip seat's buy-in stays in his wallet);
        during it the autopilot plays it for him, leaving the table between games where the game lets
        a player leave. He cannot sit here again."""
        room = self.room
        async with room.lock:
            if room.status is RoomStatus.FINISHED:
                raise RoomError("the room is closed; nothing changed", code="room/finished")
            seat = room.seat_of(player_id)
            watching = any(conn.player_id == player_id for conn in room.connections)
            if seat is None and not watching:
                raise RoomError(f"player {player_id!r} is neither seated nor connected in this room",
                                code="room/player_not_here")
            if seat is not None and room.state is None:
                await room.change_seats(lambda seats: seats.__setitem__(seat, None), audit,
                                        lambda: room.removed.add(player_id))
                return
            await room.steps.store_then(room.store.record_audit(audit), lambda: room.removed.add(player_id))
            if seat is not None:
                room.turns.autopilot(seat, True)
                room.fanout.resend()
                if {"kind": "leave"} in room.engine.legal_actions(room.state, seat):
                    await room.steps.act(seat, {"kind": "leave"}, None, autopilot=True)
        room.schedule()

    async def expire(self) -> None:
        """Close a room nobody uses: one not started at once; in one whose match is in play the
        autopilot takes every person's seat and plays the match to its end."""
        room = self.room
        async with room.lock:
            if room.status is RoomStatus.FINISHED:
                return
            if room.state is None:
                await self._close_unstarted()
                return
            for seat in range(len(room.seats)):
                room.turns.autopilot(seat, True)
            room.fanout.resend()
        room.schedule()
