"""A room: its seats, the match in play, and the order of its actions.

One lock per room: every change (sit, stand, start, an action, an automatic step) runs under it,
is written to the database, and only then applied and sent to every connection, each getting the
view of its own seat. The room holds what it is; its parts do the work:

- :mod:`app.rooms.presence`: its connections, and the grace of a dropped player;
- :mod:`app.rooms.lifecycle`: the match's start, resume and rematch, and closing the room;
- :mod:`app.rooms.pipeline`: every step, judged, stored, then committed and announced;
- :mod:`app.rooms.turns`: automatic steps, bots, the autopilot, turn timers and hints;
- :mod:`app.rooms.fanout`: what each connection is sent;
- :mod:`app.rooms.chip_table`: the buy-ins and stacks of a room played for chips.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from app.db import models
from app.db.ids import now
from app.db.store import SeatRow, Store
from app.games.base import JSON, Engine
from app.games.driver import NextStep, next_step
from app.logs import room_context
from app.metrics import game_metrics
from app.rooms.bots import BotSeats
from app.rooms.chat import ChatLine, TableChat
from app.rooms.chip_table import ChipRules, ChipTable
from app.rooms.clock import TurnClock
from app.rooms.connection import Connection
from app.rooms.dealing import Dealer
from app.rooms.errors import RoomError
from app.rooms.fanout import FanOut
from app.rooms.lifecycle import Lifecycle
from app.rooms.occupant import Occupant
from app.rooms.pipeline import StepPipeline, nothing
from app.rooms.presence import Presence
from app.rooms.rematch import RematchOffer
from app.rooms.status import RoomStatus
from app.rooms.testmode import TestSetup
from app.rooms.timing import DealPause, Timing
from app.rooms.turns import Turns


class Room:
    def __init__(self, *, room_id: str, engine: Engine[Any, Any], options: JSON, private: bool,
                 owner_id: str, store: Store, timing: Timing, test_setup: TestSetup | None = None,
                 seats: int | None = None, chips: ChipRules | None = None,
                 turn_seconds: int = 0, room_options: JSON | None = None) -> None:
        self.id = room_id
        self.engine = engine
        self.options = options
        self.room_options = room_options or {"turn_seconds": turn_seconds}
        self.private = private
        self.owner_id = owner_id
        self.store = store
        self.timing = timing
        self.clock = timing.clock
        self.test_setup = test_setup or TestSetup()
        self.lock = asyncio.Lock()
        # What the room is: its seats and the match in play.
        self.seats: list[Occupant | None] = [None] * (seats or engine.max_seats)
        self.status = RoomStatus.OPEN
        self.version = 0
        self.fence = 0
        """The room's fencing number this server holds (:mod:`app.db.fencing`): the writes of its rows
        carry it, and the database refuses them once another server has taken the room over."""
        self.when_fenced: Callable[[], None] = nothing
        """Called when a write of the room was refused because another server has taken it over."""
        self.state: Any = None
        self.match_id: str | None = None
        self.seq = 0
        self.deals = 0
        self.dealer = Dealer(engine.full_deck(), self.test_setup.decks)
        self.applied: dict[tuple[int, str], int] = {}
        self.drafts: dict[int, list[list[str]]] = {}
        self.deal_pause: DealPause | None = None
        self.trick_shown_until = 0.0
        self.rematch_offer: RematchOffer | None = None
        self.turn_clock = TurnClock(seconds=turn_seconds, missed_limit=timing.missed_limit)
        self.closed = False
        self.stopped = False
        self.removed: set[str] = set()
        self.when_changed: Callable[[JSON], None] = lambda public: None
        """Told the room's public JSON at each broadcast (a cluster's lobby keeps it)."""
        self.bots = BotSeats(engine.name)
        self.metrics = game_metrics(engine.name)
        self.log_context = room_context(self)
        self.chat = TableChat(lambda line: store.chat.append(line.to_row()))
        # Its parts.
        self.chips = ChipTable(chips or ChipRules(), engine, store)
        self.presence = Presence(self)
        self.fanout = FanOut(self)
        self.steps = StepPipeline(self)
        self.turns = Turns(self)
        self.lifecycle = Lifecycle(self)

    # --- what the room is ----------------------------------------------------------------

    @property
    def connections(self) -> set[Connection]:
        return self.presence.connections

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for seat, occupant in enumerate(self.seats):
            if occupant is not None and occupant.player_id == player_id:
                return seat
        return None

    def due(self, state: Any = None) -> NextStep | None:
        """What the match (or ``state``) awaits next; None before the match."""
        state = self.state if state is None else state
        return None if state is None else next_step(self.engine, state)

    def match_over(self) -> bool:
        """The match came to its end (the room finished with it, not stopped by an operator)."""
        return self.status is RoomStatus.FINISHED and self.state is not None and not self.stopped

    def public_json(self) -> JSON:
        return self.fanout.public_json()

    @property
    def phase(self) -> str:
        """Where the match is, as a spectator's view names it; ``waiting`` before the match."""
        if self.state is None:
            return "waiting"
        return str(self.engine.view(self.state, None).get("phase", "playing"))

    @property
    def spectators(self) -> int:
        """Connections without a player (not signed in)."""
        return sum(conn.player_id is None for conn in self.connections)

    @property
    def spectators_may_chat(self) -> bool:
        return bool(self.room_options.get("spectator_chat", False))

    def schedule(self) -> None:
        """Start the timers of whatever is due without a player: an automatic step, a bot's turn."""
        self.turns.schedule()

    # --- connections ---------------------------------------------------------------------

    def connect(self, conn: Connection) -> None:
        self.presence.connect(conn)

    def disconnect(self, conn: Connection) -> None:
        self.presence.disconnect(conn)

    def post_chat(self, conn: Connection, text: str | None = None, reaction: str | None = None) -> None:
        """Send a signed-in connection's chat line (``text``) or ``reaction`` to the whole room, as
        checked by the edge. It touches nothing of the match, so it takes no lock and no write waits."""
        player_id = self.require_player(conn)
        line = ChatLine(room_id=self.id, player_id=player_id, name=conn.name or "player",
                        seat=self.seat_of(player_id), at=now(), text=text, reaction=reaction,
                        match_id=self.match_id, after_seq=None if self.match_id is None else self.seq)
        self.fanout.to_all(self.chat.add(line))

    # --- seats -----------------------------------------------------------------------------

    async def sit(self, conn: Connection, seat: int, buy_in: int | None = None) -> None:
        """Take a seat, or take one's own seat back from the autopilot. At a chip table ``buy_in``
        is the table stack the player brings (by default the one he chose for the seat he moves
        from, else the table's maximum, or the whole wallet when it holds less)."""
        player_id = self.require_player(conn)
        async with self.lock:
            self._require_seat(seat, f"; this table has seats 0 to {len(self.seats) - 1}")
            occupant = self.seats[seat]
            if occupant is not None and occupant.player_id == player_id:
                if buy_in is not None:
                    raise RoomError("you already hold this seat; stand and sit again to bring another "
                                    "amount", code="room/already_seated")
                self.turns.autopilot(seat, False)
                self.fanout.resend()
                return
            if occupant is not None and (occupant.bot is None or self.state is not None):
                raise RoomError(f"seat {seat} is taken by {occupant.name}", code="room/seat_taken")
            self.require_not_started("change seats")
            chosen = await self.chips.checked_buy_in(player_id, buy_in) if buy_in is not None else None
            arriving = self.seat_of(player_id) is None
            await self.change_seats(lambda seats: self._move(seats, player_id, conn.name, seat, chosen))
            if arriving:
                self.fanout.tell_others("room/joined", seat)

    async def stand(self, conn: Connection) -> None:
        player_id = self.require_player(conn)
        async with self.lock:
            seat = self.seat_of(player_id)
            if seat is None:
                raise RoomError("you are not seated at this table", code="room/not_seated")
            self.require_not_started("leave your seat")
            leaving = self.seats[seat]
            await self.change_seats(lambda seats: seats.__setitem__(seat, None))
            self.fanout.tell_others("room/left", seat, leaving)

    async def add_bot(self, conn: Connection, seat: int, level: str) -> None:
        self.require_owner(conn)
        async with self.lock:
            self._require_seat(seat)
            if self.seats[seat] is not None:
                raise RoomError(f"seat {seat} is taken", code="room/seat_taken")
            self.require_not_started("add a bot")
            bot = Occupant.for_bot(seat, level, self.chips.rules.bot_buy_in)
            await self.change_seats(lambda seats: seats.__setitem__(seat, bot))

    def _require_seat(self, seat: int, which: str = "") -> None:
        if not 0 <= seat < len(self.seats):
            raise RoomError(f"seat {seat} does not exist{which}", code="room/bad_seat")

    def _move(self, seats: list[Occupant | None], player_id: str, name: str | None, seat: int,
              buy_in: int | None = None) -> None:
        old = self.seat_of(player_id)
        if old is not None:
            kept = seats[old]
            seats[old] = None
            if buy_in is None and kept is not None:
                buy_in = kept.buy_in
        seats[seat] = Occupant(player_id, name or "player", buy_in=buy_in)

    async def change_seats(self, change: Callable[[list[Occupant | None]], None],
                           audit: dict[str, Any] | None = None,
                           also: Callable[[], None] = nothing) -> None:
        """Store the seats as ``change`` leaves them (with ``also`` changing the room along with them),
        then seat everyone so."""
        seats = list(self.seats)
        change(seats)
        stored = [SeatRow(o.player_id, o.bot, o.buy_in) if o else SeatRow() for o in seats]

        def seat() -> None:
            also()
            self.seats = seats
            self.fanout.changed()
        rules = self.chips.rules
        await self.steps.store_then(self.store.save_room_seats(
            self.id, stored, self.version + 1, fence=self.fence, ante=rules.seat_ante,
            smallest=rules.min_buy_in, audit=audit), seat)

    # --- a seat's decisions --------------------------------------------------------------------

    async def act(self, conn: Connection, raw: Any, ref: str | None) -> None:
        began = time.perf_counter()
        async with self.lock:
            seat = self._acting_seat(conn)
            if ref is not None and (seat, ref) in self.applied:
                raise RoomError(f"action {ref!r} was already applied (step {self.applied[seat, ref]}); "
                                "it is not applied twice", code="action/already_applied")

            def back_in_seat() -> None:
                self.turns.autopilot(seat, False)
                self.turn_clock.acted(seat)
            await self.steps.act(seat, raw, ref, back_in_seat, began=began)
        self.schedule()

    async def hint(self, conn: Connection) -> None:
        """Send this connection alone what the ``strong`` bot would do in its seat now."""
        async with self.lock:
            decision = self.turns.decision(self._acting_seat(conn))
        if not decision.legal:
            raise RoomError("you have no decision to make now", code="room/no_decision")
        action = await self.turns.choose(decision, "strong")
        self.fanout.send_one(conn, {"type": "hint", "version": decision.version, "action": action})

    async def draft(self, conn: Connection, groups: Any) -> None:
        """Keep a seat's arrangement in the making, so that a timeout completes it instead of
        starting afresh. Only that seat's connections are told (the room's version stays)."""
        async with self.lock:
            seat = self._acting_seat(conn)
            check = self.engine.drafts
            if check is None:
                raise RoomError(f"{self.engine.title} has no arrangement to draft", code="room/no_draft")
            self.drafts[seat] = check(self.state, seat, groups)
            self.fanout.send_to_seat(seat)

    async def next_deal(self, conn: Connection) -> None:
        """A player has seen the deal's result: once every player present has, the next deal comes."""
        async with self.lock:
            seat = self._acting_seat(conn)
            if self.deal_pause is None:
                raise RoomError("no deal has just ended; there is no next deal to wait for",
                                code="room/no_deal_pause")
            self.deal_pause.ready.add(seat)
            self.fanout.resend()

    async def add_seed(self, conn: Connection, deal: int, seed: str) -> None:
        """A player's client seed for the deal the server has committed to (``docs/fairness.md``).
        Under the lock, so that no seed arrives while a deal drawn from the seeds is being stored."""
        async with self.lock:
            seat = self._acting_seat(conn)
            self.dealer.add_seed(deal, seat, seed)
            self.fanout.resend()

    # --- the room's life (:mod:`app.rooms.lifecycle`) ------------------------------------------

    async def start(self, conn: Connection) -> None:
        await self.lifecycle.start(conn)

    async def rematch(self, conn: Connection, accept: bool) -> None:
        await self.lifecycle.rematch(conn, accept)

    def resume(self, match: models.Match, seats: list[models.MatchSeat], deals: list[models.Deal],
               actions: list[models.Action]) -> None:
        self.lifecycle.resume(match, seats, deals, actions)

    async def close_table(self, conn: Connection) -> None:
        await self.lifecycle.close_table(conn)

    async def close_by_operator(self, audit: dict[str, Any]) -> None:
        await self.lifecycle.close_by_operator(audit)

    async def remove_player(self, player_id: str, audit: dict[str, Any]) -> None:
        await self.lifecycle.remove_player(player_id, audit)

    async def expire(self) -> None:
        await self.lifecycle.expire()

    async def close(self) -> None:
        """Stop everything the room has running (the server is shutting down)."""
        self.closed = True
        await self.turns.close()

    # --- who may do what ---------------------------------------------------------------------

    def require_player(self, conn: Connection) -> str:
        if conn.player_id is None:
            raise RoomError("spectators cannot do that; connect with a player's token",
                            code="auth/spectator")
        if conn.player_id in self.removed:
            raise RoomError("an operator removed you from this table", code="room/removed")
        return conn.player_id

    def require_owner(self, conn: Connection) -> None:
        if conn.player_id != self.owner_id:
            raise RoomError("only the room's owner can do that", code="room/not_owner")

    def require_not_started(self, what: str) -> None:
        if self.state is not None:
            raise RoomError(f"the match has started; you cannot {what} now", code="room/started")

    def _acting_seat(self, conn: Connection) -> int:
        player_id = self.require_player(conn)
        if self.stopped:
            raise RoomError("an operator has closed this table", code="room/closed")
        seat = self.seat_of(player_id)
        if seat is None:
            raise RoomError("you are not seated at this table", code="room/not_seated")
        if self.state is None:
            raise RoomError("the match has not started", code="room/not_started")
        return seat

