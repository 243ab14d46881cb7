"""A room: its seats, its connections, the match in play, and the order of its actions.

One lock per room: every change (sit, stand, start, an action, an automatic step) runs under it,
is written to the database, and only then applied and sent to every connection, each getting the
view of its own seat. A step is worked out from the pure engine without touching the room; nothing it
changes (the state, revealed seeds, chips, timers, autopilots, the version) is visible to anyone until
its write has committed, and a write that fails leaves the room exactly as it was.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from app.db import models
from app.db.store import (
    ChipMove,
    DealtDeck,
    LoggedAction,
    SeatRow,
    StepRecord,
    Store,
    bot_account,
    new_id,
    now,
    player_account,
)
from app.games.base import JSON, Engine, Rejection, Seating, Transition
from app.games.cards import card_texts, parse_cards
from app.games.replay import replay_step
from app.logs import room_context
from app.metrics import game_metrics
from app.rooms.bots import BotSeats
from app.rooms.chat import ChatLine, TableChat
from app.rooms.clock import TurnClock
from app.rooms.dealing import Dealer
from app.rooms.notices import timeout_text, timeout_text_for_others
from app.rooms.rematch import RematchOffer
from app.rooms.seating import (
    ChipRules,
    Connection,
    DealPause,
    Occupant,
    RoomError,
    TestSetup,
    Timing,
    encode_frame,
)

log = logging.getLogger(__name__)


WAITING_VIEW: JSON = {"phase": "waiting", "to_act": [], "hand": [], "scores": []}
STORE_ERRORS = (SQLAlchemyError, OSError)


class StepNotStored(RoomError):
    """The database did not take a step (a lock held too long, a dropped connection): nothing changed."""

    code = "server/not_stored"


def _nothing() -> None:
    pass


class Room:
    def __init__(self, *, room_id: str, engine: Engine[Any, Any], options: JSON, private: bool,
                 owner_id: str, store: Store, timing: Timing, test_setup: TestSetup | None = None,
                 seats: int | None = None, chips: ChipRules | None = None,
                 turn_seconds: int = 0, room_options: JSON | None = None) -> None:
        self.id = room_id
        self.room_options = room_options or {"turn_seconds": turn_seconds}
        self.clock = timing.clock
        self.turns = TurnClock(seconds=turn_seconds, missed_limit=timing.missed_limit)
        self.applied: dict[tuple[int, str], int] = {}
        self.drafts: dict[int, list[list[str]]] = {}
        self.deal_pause: DealPause | None = None
        self.trick_shown_until = 0.0
        self.rematch_offer: RematchOffer | None = None
        self._pause_changed = asyncio.Event()
        self._timer_task: asyncio.Task[None] | None = None
        self._grace_tasks: dict[int, asyncio.Task[None]] = {}
        self._grace_until: dict[int, float] = {}
        self.closed = False
        self.stopped = False
        self.removed: set[str] = set()
        self.chips = chips or ChipRules()
        self.engine = engine
        self.options = options
        self.private = private
        self.owner_id = owner_id
        self.store = store
        self.timing = timing
        self.test_setup = test_setup or TestSetup()
        self.dealer = Dealer(engine.full_deck(), self.test_setup.decks)
        self.seats: list[Occupant | None] = [None] * (seats or engine.max_seats)
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.version = 0
        self.state: Any = None
        self.match_id: str | None = None
        self.status = "open"
        self.seq = 0
        self.deals = 0
        self._auto_task: asyncio.Task[None] | None = None
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}
        self.bots = BotSeats(engine.name)
        self.metrics = game_metrics(engine.name)
        self.log_context = room_context(self)
        self._stored_at = 0.0
        self.chat = TableChat(lambda line: store.chat.append(line.to_row()))

    # --- what the room shows -------------------------------------------------------------

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for seat, occupant in enumerate(self.seats):
            if occupant is not None and occupant.player_id == player_id:
                return seat
        return None

    def is_connected(self, occupant: Occupant) -> bool:
        return any(conn.player_id == occupant.player_id for conn in self.connections)

    def public_json(self) -> JSON:
        seats = [{"seat": seat, "player_id": None, "name": None, "bot": False, "connected": False}
                 if occupant is None else
                 {"seat": seat, "player_id": occupant.player_id, "name": occupant.name,
                  "bot": occupant.bot is not None, "bot_level": occupant.bot,
                  "autopilot": occupant.autopilot, "buy_in": occupant.buy_in,
                  "connected": occupant.bot is not None or self.is_connected(occupant),
                  "grace_until": None if occupant.bot is not None or self.is_connected(occupant)
                  else self._grace_until.get(seat)}
                 for seat, occupant in enumerate(self.seats)]
        options = {**self.options, **self.room_options}
        return {"id": self.id, "game": self.engine.name, "options": options,
                "private": self.private, "owner": self.owner_id, "status": self.status,
                "match_id": self.match_id, "seats": seats,
                "rematch": self._rematch_json()}

    def shared_state(self) -> JSON:
        """What the ``state`` message of every connection has in common."""
        pause = self.deal_pause
        return {"version": self.version, "room": self.public_json(), "fairness": self._fairness(),
                "deadlines": self.turns.deadlines(),
                "next_deal": None if pause is None else pause.to_json(self._people_present())}

    def state_message(self, seat: int | None, shared: JSON) -> str:
        if self.state is None:
            view, legal = WAITING_VIEW, []
        else:
            deadlines = shared["deadlines"]
            view = self.seat_view(seat)
            legal = [] if seat is None else self.engine.legal_actions(self.state, seat)
            view["deadlines"] = deadlines
            view["deadline"] = deadlines.get(seat) if seat is not None else None
            view["next_deal"] = shared["next_deal"]
        return encode_frame({"type": "state", "version": shared["version"], "room": shared["room"],
                             "view": view, "legal": legal, "fairness": shared["fairness"]})

    def seat_view(self, seat: int | None) -> JSON:
        """The game's view of ``seat``, with the seat's own draft (never shown to anyone else)."""
        view = self.engine.view(self.state, seat)
        if seat in self.drafts:
            view["draft"] = self.drafts[seat]
        return view

    def _fairness(self) -> JSON | None:
        if self.state is None:
            return None
        return self.dealer.to_json(self.deals + 1 if self.engine.needs_deck(self.state) else self.deals)

    def broadcast(self) -> None:
        """Send every connection the state as its seat sees it. A connection whose state cannot be
        made into a frame is dropped and closed; the others still get theirs."""
        self._pause_changed.set()
        shared = self.shared_state()
        messages: dict[int | None, str | None] = {}
        for conn in list(self.connections):
            seat = self.seat_of(conn.player_id)
            if seat not in messages:
                messages[seat] = self._state_frame(seat, shared)
            message = messages[seat]
            if message is None:
                self._forget(conn)
                conn.close("server/error", "the server could not send this table's state; reconnect")
            else:
                conn.push(message)

    def _state_frame(self, seat: int | None, shared: JSON) -> str | None:
        try:
            return self.state_message(seat, shared)
        except Exception:
            log.exception("room %s: the state of seat %s cannot be sent", self.id, seat)
            return None

    # --- connections and seats ---------------------------------------------------------

    def connect(self, conn: Connection) -> None:
        seat = self.seat_of(conn.player_id)
        occupant = self.seats[seat] if seat is not None else None
        # A socket joins as a spectator and connects again once signed in: it is no one else's.
        coming_back = occupant is not None and not any(
            other.player_id == occupant.player_id for other in self.connections if other is not conn)
        self.connections.add(conn)
        if seat is not None and conn.player_id not in self.removed:
            grace = self._grace_tasks.pop(seat, None)
            self._grace_until.pop(seat, None)
            if grace is not None:
                grace.cancel()
            self._autopilot(seat, False)
        self.broadcast()
        if self.chat.lines:
            conn.push(self.chat.history_frame())
        if seat is not None and coming_back and conn.player_id not in self.removed:
            self._tell_others("room/back", seat)

    def disconnect(self, conn: Connection) -> None:
        if conn in self.connections:
            self._forget(conn)
            self.broadcast()
            if self.rematch_offer is not None:
                self._spawn(self._rematch_if_settled())

    def _forget(self, conn: Connection) -> None:
        """Take the connection off the room; a player left with none keeps his seat for the grace
        period."""
        self.connections.discard(conn)
        seat = self.seat_of(conn.player_id)
        occupant = self.seats[seat] if seat is not None else None
        if (seat is not None and occupant is not None and not self.is_connected(occupant)
                and seat not in self._grace_tasks):
            self._grace_until[seat] = self.clock.now() + self.timing.grace_period
            self._grace_tasks[seat] = self._spawn(self._grace_then_autopilot(seat))
            self._tell_others("room/left", seat)

    async def _grace_then_autopilot(self, seat: int) -> None:
        """A dropped player keeps his seat for the grace period (the seat shows until when); then
        the bot plays for him."""
        await self.clock.sleep(self.timing.grace_period)
        self._grace_tasks.pop(seat, None)
        self._grace_until.pop(seat, None)
        if self.state is not None and self.status == "playing":
            self._autopilot(seat, True)
            self.schedule()
        self.broadcast()

    def _tell_others(self, code: str, seat: int, occupant: Occupant | None = None) -> None:
        """Tell everyone but the person in ``seat`` (by default its occupant) that he came
        (``room/joined``), came back (``room/back``) or left (``room/left``); the client says it in
        words. Never about a bot."""
        occupant = occupant or self.seats[seat]
        if occupant is None or occupant.player_id is None:
            return
        frame = encode_frame({"type": "notice", "code": code, "seat": seat, "name": occupant.name,
                              "player_id": occupant.player_id})
        for conn in list(self.connections):
            if conn.player_id != occupant.player_id:
                conn.push(frame)

    def _autopilot(self, seat: int, on: bool) -> None:
        occupant = self.seats[seat]
        if occupant is not None and occupant.bot is None and occupant.autopilot != on:
            occupant.autopilot = on
            self.turns.acted(seat)
            if on:
                self.metrics.takeovers.inc()

    async def sit(self, conn: Connection, seat: int, buy_in: int | None = None) -> None:
        """Take a seat, or take one's own seat back from the autopilot. At a chip table ``buy_in``
        is the table stack the player brings (by default the one he chose for the seat he moves
        from, else the table's maximum, or the whole wallet when it holds less)."""
        player_id = self._require_player(conn)
        async with self.lock:
            if not 0 <= seat < len(self.seats):
                raise RoomError(f"seat {seat} does not exist; this table has seats 0 to "
                                f"{len(self.seats) - 1}", code="room/bad_seat")
            occupant = self.seats[seat]
            if occupant is not None and occupant.player_id == player_id:
                if buy_in is not None:
                    raise RoomError("you already hold this seat; stand and sit again to bring another "
                                    "amount", code="room/already_seated")
                self._autopilot(seat, False)
                self.broadcast()
                return
            if occupant is not None and (occupant.bot is None or self.state is not None):
                raise RoomError(f"seat {seat} is taken by {occupant.name}", code="room/seat_taken")
            self._require_not_started("change seats")
            chosen = await self._checked_buy_in(player_id, buy_in) if buy_in is not None else None
            arriving = self.seat_of(player_id) is None
            await self._change_seats(lambda seats: self._move(seats, player_id, conn.name, seat, chosen))
            if arriving:
                self._tell_others("room/joined", seat)

    async def _checked_buy_in(self, player_id: str, amount: int) -> int:
        if not self.chips.enabled:
            raise RoomError(f"{self.engine.title} is not played for chips; sit without a buy_in",
                            code="room/no_buy_in")
        low, high = self.chips.min_buy_in, self.chips.max_buy_in
        if not low <= amount <= high:
            raise RoomError(f"a buy-in at this table is from {low} to {high} chips; {amount} is out of "
                            "that range", code="room/bad_buy_in")
        wallet = await self.store.chips(player_id)
        if amount > wallet:
            raise RoomError(f"a buy-in of {amount} chips is more than the {wallet} in your wallet",
                            code="chips/insufficient")
        return amount

    async def stand(self, conn: Connection) -> None:
        player_id = self._require_player(conn)
        async with self.lock:
            seat = self.seat_of(player_id)
            if seat is None:
                raise RoomError("you are not seated at this table", code="room/not_seated")
            self._require_not_started("leave your seat")
            leaving = self.seats[seat]
            await self._change_seats(lambda seats: seats.__setitem__(seat, None))
            self._tell_others("room/left", seat, leaving)

    async def add_bot(self, conn: Connection, seat: int, level: str) -> None:
        self._require_owner(conn)
        async with self.lock:
            if not 0 <= seat < len(self.seats):
                raise RoomError(f"seat {seat} does not exist", code="room/bad_seat")
            if self.seats[seat] is not None:
                raise RoomError(f"seat {seat} is taken", code="room/seat_taken")
            self._require_not_started("add a bot")
            bot = Occupant.for_bot(seat, level, self.chips.max_buy_in if self.chips.enabled else None)
            await self._change_seats(lambda seats: seats.__setitem__(seat, bot))

    def _move(self, seats: list[Occupant | None], player_id: str, name: str | None, seat: int,
              buy_in: int | None = None) -> None:
        old = self.seat_of(player_id)
        if old is not None:
            kept = seats[old]
            seats[old] = None
            if buy_in is None and kept is not None:
                buy_in = kept.buy_in
        seats[seat] = Occupant(player_id, name or "player", buy_in=buy_in)

    async def _change_seats(self, change: Callable[[list[Occupant | None]], None],
                            audit: dict[str, Any] | None = None,
                            also: Callable[[], None] = _nothing) -> None:
        seats = list(self.seats)
        change(seats)
        stored = [SeatRow(o.player_id, o.bot, o.buy_in) if o else SeatRow() for o in seats]

        def seat() -> None:
            also()
            self.seats = seats
            self.version += 1
            self.broadcast()
        ante = self.chips.ante if self.chips.enabled else None
        await self._store_then(self.store.save_room_seats(self.id, stored, self.version + 1, ante=ante,
                                                          smallest=self.chips.min_buy_in, audit=audit),
                               seat)

    def _require_player(self, conn: Connection) -> str:
        if conn.player_id is None:
            raise RoomError("spectators cannot do that; connect with a player's token",
                            code="auth/spectator")
        if conn.player_id in self.removed:
            raise RoomError("an operator removed you from this table", code="room/removed")
        return conn.player_id

    def _require_owner(self, conn: Connection) -> None:
        if conn.player_id != self.owner_id:
            raise RoomError("only the room's owner can do that", code="room/not_owner")

    def _require_not_started(self, what: str) -> None:
        if self.state is not None:
            raise RoomError(f"the match has started; you cannot {what} now", code="room/started")

    # --- chat ---------------------------------------------------------------------------

    @property
    def spectators_may_chat(self) -> bool:
        return bool(self.room_options.get("spectator_chat", False))

    def post_chat(self, conn: Connection, text: str | None = None, reaction: str | None = None) -> None:
        """Send a signed-in connection's chat line (``text``) or ``reaction`` to the whole room, as
        checked by the edge. It touches nothing of the match, so it takes no lock and no write waits."""
        player_id = self._require_player(conn)
        line = ChatLine(room_id=self.id, player_id=player_id, name=conn.name or "player",
                        seat=self.seat_of(player_id), at=now(), text=text, reaction=reaction,
                        match_id=self.match_id, after_seq=None if self.match_id is None else self.seq)
        frame = self.chat.add(line)
        for other in list(self.connections):
            other.push(frame)

    # --- the match -----------------------------------------------------------------------

    async def start(self, conn: Connection) -> None:
        """The owner starts the match; once a match is over, the next one (:meth:`rematch`)."""
        self._require_owner(conn)
        async with self.lock:
            if self._match_over():
                await self._owner_starts_rematch(conn)
                return
            self._require_not_started("start it again")
            occupants = [occupant for occupant in self.seats if occupant is not None]
            self._check_seat_count(len(occupants))
            await self._start_match(occupants)
        self.schedule()

    def _check_seat_count(self, seated: int) -> None:
        engine = self.engine
        if not engine.min_seats <= seated <= engine.max_seats or (
                engine.min_seats == engine.max_seats and seated != len(self.seats)):
            wanted = (f"{engine.min_seats}" if engine.min_seats == engine.max_seats
                      else f"{engine.min_seats} to {engine.max_seats}")
            raise RoomError(f"{self.engine.title} needs {wanted} seated players; {seated} are seated",
                            code="room/seats_empty")

    async def _start_match(self, occupants: list[Occupant]) -> None:
        first_dealer = self.test_setup.first_dealer
        if first_dealer is None or first_dealer >= len(occupants):
            first_dealer = secrets.randbelow(len(occupants))
        match_id = new_id()
        record = StepRecord(match_id)
        stacks = await self._stacks(occupants, record)
        seating = Seating(players=len(occupants), first_dealer=first_dealer, stacks=stacks)
        match = models.Match(id=match_id, room_id=self.id, game=self.engine.name,
                             options=self.options, first_dealer=first_dealer,
                             stacks=list(stacks) if stacks else None, status="running",
                             started_at=now(), finished_at=None, result=None)
        seat_rows = [models.MatchSeat(match_id=match.id, seat=seat, player_id=o.player_id,
                                      name=o.name, bot=o.bot) for seat, o in enumerate(occupants)]
        state = self.engine.start(self.options, seating)
        held = [SeatRow(o.player_id, o.bot, o.buy_in) for o in occupants]
        ante = self.chips.ante if self.chips.enabled else None

        def begin() -> None:
            self._new_match()
            self.seats, self.match_id, self.status = list(occupants), match_id, "playing"
            self._commit(state, record)
            log.info("match started")
        await self._store_then(self.store.start_match(match, seat_rows, record, self.version + 1,
                                                      held, ante=ante), begin)

    def _new_match(self) -> None:
        """Forget what belongs to the match before (a rematch starts from its first deal)."""
        self.turns = TurnClock(seconds=self.turns.seconds, missed_limit=self.turns.missed_limit)
        self.dealer = Dealer(self.engine.full_deck(), self.test_setup.decks)
        self.applied, self.drafts, self.deal_pause, self.rematch_offer = {}, {}, None, None
        self.trick_shown_until, self.seq, self.deals = 0.0, 0, 0

    # --- play again --------------------------------------------------------------------------

    def _match_over(self) -> bool:
        """The match came to its end (the room finished with it, not stopped by an operator)."""
        return self.status == "finished" and self.state is not None and not self.stopped

    def _rematch_json(self) -> JSON | None:
        """Once a match is over (not stopped by an operator): the answers to playing again so far."""
        if not self._match_over():
            return None
        return (self.rematch_offer or RematchOffer(deadline=None)).to_json()

    def _people_at_table(self) -> list[int]:
        """Seats of people (not bots) with a connection to the room."""
        return [seat for seat, occupant in enumerate(self.seats) if occupant is not None
                and occupant.bot is None and self.is_connected(occupant)]

    async def rematch(self, conn: Connection, accept: bool) -> None:
        """A player of the finished match plays again or not (:mod:`app.rooms.rematch`)."""
        player_id = self._require_player(conn)
        async with self.lock:
            seat = self.seat_of(player_id)
            if seat is None:
                raise RoomError("only the players of this table's match can answer a rematch",
                                code="room/not_seated")
            if self.stopped:
                raise RoomError("an operator has closed this table", code="room/closed")
            if not self._match_over():
                raise RoomError("the match is not over; playing again is offered once it ends",
                                code="rematch/not_over")
            offer = self.rematch_offer or RematchOffer(deadline=self.clock.now() + self.timing.rematch_wait)
            offer.answer(seat, accept)
            self.rematch_offer = offer
            if offer.settled(self._people_at_table()):
                await self._start_rematch(offer)
            else:
                self.version += 1
                self.broadcast()
        self.schedule()

    async def _owner_starts_rematch(self, conn: Connection) -> None:
        offer = self.rematch_offer
        if offer is None:
            raise RoomError("nobody has asked to play again yet; send rematch to offer it",
                            code="rematch/no_offer")
        offer.check_owner_start(self.seat_of(conn.player_id), self._people_at_table(), self.clock.now())
        await self._start_rematch(offer)

    async def _rematch_if_settled(self) -> None:
        """A person left the table: the others may now all have answered."""
        async with self.lock:
            offer = self.rematch_offer
            if offer is not None and self._match_over() and offer.settled(self._people_at_table()):
                try:
                    await self._start_rematch(offer)
                except Rejection as refusal:
                    log.warning("room %s: the rematch did not start: %s", self.id, refusal)
        self.schedule()

    async def _start_rematch(self, offer: RematchOffer) -> None:
        occupants = offer.occupants(self.seats, self._people_at_table(), self.removed,
                                    self.chips.max_buy_in if self.chips.enabled else None)
        await self._start_match(occupants)

    def _account(self, match_id: str, seat: int) -> str:
        occupant = self.seats[seat]
        if occupant is not None and occupant.player_id is not None:
            return player_account(occupant.player_id)
        return bot_account(match_id, seat)

    async def _stacks(self, occupants: list[Occupant], record: StepRecord) -> tuple[int, ...] | None:
        """Chip games play on each player's balance, up to his buy-in (by default the table's
        largest); a bot brings its buy-in, granted to it."""
        if not self.chips.enabled:
            return None
        stacks = []
        for seat, occupant in enumerate(occupants):
            buy_in = occupant.buy_in or self.chips.max_buy_in
            if occupant.player_id is None:
                record.grants.append((bot_account(record.match_id, seat), buy_in))
                stacks.append(buy_in)
            else:
                stacks.append(min(await self.store.chips(occupant.player_id), buy_in))
        return tuple(stacks)

    def resume(self, match: models.Match, seats: list[models.MatchSeat], deals: list[models.Deal],
               actions: list[models.Action]) -> None:
        """Rebuild the match in play from its stored decks and log (after a restart)."""
        self.seats = [Occupant(seat.player_id, seat.name, seat.bot) for seat in seats]
        seating = Seating(players=len(seats), first_dealer=match.first_dealer,
                          stacks=tuple(match.stacks) if match.stacks else None)
        state = self.engine.start(match.options, seating)
        cards = {deal.number: parse_cards(deal.deck) for deal in deals}
        for deal in deals:
            self.dealer.restore(deal.number, deal.server_seed, deal.client_seeds, deal.points is not None)
        for action in actions:
            state = replay_step(self.engine, state, action.seat, action.action, cards)
            self.state = state
            self.turns.update(self._awaited(), action.at.replace(tzinfo=UTC).timestamp(),
                              () if action.seat is None else (action.seat,))
            if action.ref is not None and action.seat is not None:
                self.applied[action.seat, action.ref] = action.seq
        self.state, self.match_id, self.status = state, match.id, "playing"
        self.seq, self.deals = len(actions), len(deals)
        self.version += self.seq
        self._update_deal_pause()
        self._prepare_deal()

    async def act(self, conn: Connection, raw: Any, ref: str | None) -> None:
        began = time.perf_counter()
        async with self.lock:
            seat = self._acting_seat(conn)
            if ref is not None and (seat, ref) in self.applied:
                raise RoomError(f"action {ref!r} was already applied (step {self.applied[seat, ref]}); "
                                "it is not applied twice", code="action/already_applied")

            def back_in_seat() -> None:
                self._autopilot(seat, False)
                self.turns.acted(seat)
            await self._apply(seat, raw, ref, back_in_seat, began=began)
        self.schedule()

    async def _apply(self, seat: int, raw: Any, ref: str | None, also: Callable[[], None] = _nothing,
                     autopilot: bool = False, began: float | None = None) -> None:
        """Judge, store, then apply and announce one seat's action, with ``also`` changing the room
        along with it (``autopilot``: decided for a person by the bot). A refusal changes nothing.
        ``began``: when the room took the action up, if before this."""
        judging = time.perf_counter()
        action = self.engine.parse_action(raw)
        transition = self.engine.apply(self.state, seat, action)
        record = StepRecord(self.match_id or "")
        self._log(record, seat, self.engine.action_to_json(action), ref, autopilot)
        state = self._absorb(transition, record)
        completes_trick = any(event["type"] == "trick" for event in transition.events)

        def with_trick_shown() -> None:
            also()
            if completes_trick:
                self.trick_shown_until = self.clock.now() + self.timing.auto_pause
        judged = time.perf_counter()
        await self._store_then_commit(state, record, with_trick_shown)
        self.metrics.moved(judging if began is None else began, judging, judged, self._stored_at,
                           time.perf_counter())

    async def hint(self, conn: Connection) -> None:
        """Send this connection alone what the ``strong`` bot would do in its seat now."""
        async with self.lock:
            seat = self._acting_seat(conn)
            view, legal = self.seat_view(seat), self.engine.legal_actions(self.state, seat)
            version = self.version
        if not legal:
            raise RoomError("you have no decision to make now", code="room/no_decision")
        action = await self.bots.choose("strong", view, legal)
        conn.push(encode_frame({"type": "hint", "version": version, "action": action}))

    async def draft(self, conn: Connection, groups: Any) -> None:
        """Keep a seat's arrangement in the making, so that a timeout completes it instead of
        starting afresh. Only that seat's connections are told (the room's version stays)."""
        async with self.lock:
            seat = self._acting_seat(conn)
            check = getattr(self.engine, "check_draft", None)
            if check is None:
                raise RoomError(f"{self.engine.title} has no arrangement to draft", code="room/no_draft")
            self.drafts[seat] = check(self.state, seat, groups)
            self._send_to_seat(seat)

    def _send_to_seat(self, seat: int) -> None:
        shared = self.shared_state()
        frame = self._state_frame(seat, shared)
        for conn in list(self.connections):
            if frame is not None and self.seat_of(conn.player_id) == seat:
                conn.push(frame)

    async def next_deal(self, conn: Connection) -> None:
        """A player has seen the deal's result: once every player present has, the next deal comes."""
        async with self.lock:
            seat = self._acting_seat(conn)
            if self.deal_pause is None:
                raise RoomError("no deal has just ended; there is no next deal to wait for",
                                code="room/no_deal_pause")
            self.deal_pause.ready.add(seat)
            self.broadcast()

    async def close_table(self, conn: Connection) -> None:
        """The owner closes the room: before the start at once; a table game (Azi) between games."""
        self._require_owner(conn)
        async with self.lock:
            if self.status == "finished":
                raise RoomError("the room is already closed", code="room/finished")
            if self.state is None:
                await self._close_unstarted()
                return
            close = getattr(self.engine, "close", None)
            if close is None:
                raise RoomError(f"a {self.engine.title} match cannot be closed once it has started",
                                code="room/cannot_close")
            record = StepRecord(self.match_id or "")
            self._log(record, None, {"kind": "close"})
            state = self._absorb(close(self.state), record)
            await self._store_then_commit(state, record)

    async def _close_unstarted(self, audit: dict[str, Any] | None = None) -> None:
        await self._store_then(self.store.set_room_status(self.id, "finished", audit), self._closed)

    async def close_by_operator(self, audit: dict[str, Any]) -> None:
        """An operator closes the room, writing ``audit`` with the change: one not started at once;
        a chip game's match by its rules' close, which returns the pot of a game in play; any other
        match is stopped where it is (``closed``, with no result). Closing a closed room is refused."""
        async with self.lock:
            if self.status == "finished":
                raise RoomError("the room is already closed; nothing changed", code="room/finished")
            if self.state is None:
                await self._close_unstarted(audit)
                return
            close = getattr(self.engine, "close", None)
            if close is None:
                await self._store_then(self.store.set_room_status(
                    self.id, "finished", audit, stopped_match=self.match_id), self._stop)
                return
            record = StepRecord(self.match_id or "", audit=[audit])
            self._log(record, None, {"kind": "close", "by": "operator"})
            state = self._absorb(close(self.state, during_game=True), record)
            await self._store_then_commit(state, record)

    def _stop(self) -> None:
        self.stopped = True
        self._closed()
        for task in (self._auto_task, self._timer_task, *self._bot_tasks.values()):
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    async def remove_player(self, player_id: str, audit: dict[str, Any]) -> None:
        """An operator removes a player, writing ``audit`` with the change. He loses his seat as a
        player who leaves would: before the match at once (a chip seat's buy-in stays in his wallet);
        during it the autopilot plays it for him, an Azi seat leaving the table between games. He
        cannot sit here again."""
        async with self.lock:
            if self.status == "finished":
                raise RoomError("the room is closed; nothing changed", code="room/finished")
            seat = self.seat_of(player_id)
            watching = any(conn.player_id == player_id for conn in self.connections)
            if seat is None and not watching:
                raise RoomError(f"player {player_id!r} is neither seated nor connected in this room",
                                code="room/player_not_here")
            if seat is not None and self.state is None:
                await self._change_seats(lambda seats: seats.__setitem__(seat, None), audit,
                                         lambda: self.removed.add(player_id))
                return
            await self._store_then(self.store.record_audit(audit), lambda: self.removed.add(player_id))
            if seat is not None:
                self._autopilot(seat, True)
                self.broadcast()
                if {"kind": "leave"} in self.engine.legal_actions(self.state, seat):
                    await self._apply(seat, {"kind": "leave"}, None, autopilot=True)
        self.schedule()

    def _closed(self) -> None:
        self.status = "finished"
        self.version += 1
        self.broadcast()

    async def expire(self) -> None:
        """Close a room nobody uses: one not started at once; in one whose match is in play the
        autopilot takes every person's seat and plays the match to its end."""
        async with self.lock:
            if self.status == "finished":
                return
            if self.state is None:
                await self._close_unstarted()
                return
            for seat in range(len(self.seats)):
                self._autopilot(seat, True)
            self.broadcast()
        self.schedule()

    def _acting_seat(self, conn: Connection) -> int:
        player_id = self._require_player(conn)
        if self.stopped:
            raise RoomError("an operator has closed this table", code="room/closed")
        seat = self.seat_of(player_id)
        if seat is None:
            raise RoomError("you are not seated at this table", code="room/not_seated")
        if self.state is None:
            raise RoomError("the match has not started", code="room/not_started")
        return seat

    # --- steps: logging, persisting, applying -----------------------------------------------

    def _log(self, record: StepRecord, seat: int | None, action: JSON, ref: str | None = None,
             autopilot: bool = False) -> None:
        record.actions.append(LoggedAction(
            seq=self.seq + len(record.actions) + 1, deal=self.deals + len(record.deals), seat=seat,
            action=action, ref=ref, at=now(), autopilot=autopilot))

    def _deal(self, state: Any, record: StepRecord) -> Any:
        number = self.deals + len(record.deals) + 1
        deck, seeds = self.dealer.deck(number, len(self.seats))
        record.deals.append(DealtDeck(
            number=number, deck=card_texts(deck), server_seed=seeds.server_seed if seeds else None,
            commitment=seeds.commitment if seeds else None,
            client_seeds=seeds.in_seat_order(len(self.seats)) if seeds else None))
        self._log(record, None, {"kind": "deal", "deal": number})
        return self._absorb(self.engine.deal(state, deck), record)

    async def add_seed(self, conn: Connection, deal: int, seed: str) -> None:
        """A player's client seed for the deal the server has committed to (``docs/fairness.md``).
        Under the lock, so that no seed arrives while a deal drawn from the seeds is being stored."""
        async with self.lock:
            seat = self._acting_seat(conn)
            self.dealer.add_seed(deal, seat, seed)
            self.broadcast()

    def _absorb(self, transition: Transition[Any], record: StepRecord) -> Any:
        """Turn the engine's events into what the step writes (and the room applies once it is stored)."""
        seq = self.seq + len(record.actions)
        deal = self.deals + len(record.deals)
        for event in transition.events:
            if event["type"] == "deal_end":
                record.deal_results.append((event["number"], event["points"], event.get("detail", {})))
            elif event["type"] == "chips":
                record.chips.append(ChipMove(self._account(record.match_id, event["seat"]),
                                             event["delta"], event["reason"], deal, seq))
        outcome = self.engine.outcome(transition.state)
        if outcome is not None:
            record.result = {**outcome.to_json(), "played_by": self._played_by()}
        return transition.state

    def _played_by(self) -> list[str]:
        """Who holds each seat now: ``player``, ``autopilot`` (for a person away or too slow) or ``bot``."""
        return ["bot" if occupant is None or occupant.bot is not None
                else "autopilot" if occupant.autopilot else "player" for occupant in self.seats]

    async def _store_then_commit(self, state: Any, record: StepRecord,
                                 also: Callable[[], None] = _nothing) -> None:
        def commit() -> None:
            also()
            self._commit(state, record)
        await self._store_then(self.store.record_step(record), commit)

    async def _store_then(self, write: Awaitable[None], commit: Callable[[], None]) -> None:
        """Write, then ``commit`` (change the room and tell everyone). A write that fails raises
        :class:`StepNotStored` and commits nothing. A write under way is committed once stored even if
        the task that made it is cancelled meanwhile, so the room never falls behind its stored log."""
        writing = asyncio.ensure_future(write)
        try:
            await asyncio.shield(writing)
        except asyncio.CancelledError:
            await asyncio.wait([writing])
            if not writing.cancelled() and writing.exception() is None:
                commit()
            raise
        except STORE_ERRORS as error:
            log.warning("room %s: a step was not stored, nothing changed: %s", self.id,
                        str(error).splitlines()[0] if str(error) else type(error).__name__)
            raise StepNotStored("the database did not store this step; nothing changed, "
                                "send it again") from error
        self._stored_at = time.perf_counter()
        commit()

    def _commit(self, state: Any, record: StepRecord) -> None:
        self.state = state
        for action in record.actions:
            if action.ref is not None and action.seat is not None:
                self.applied[action.seat, action.ref] = action.seq
        for deck in record.deals:
            self.dealer.stored(deck.number)
        for number, _points, _detail in record.deal_results:
            self.dealer.reveal(number)
        self.seq += len(record.actions)
        self.deals += len(record.deals)
        self.version += 1
        self.turns.update(self._awaited(), self.clock.now(),
                          {action.seat for action in record.actions if action.seat is not None})
        self.drafts = {seat: draft for seat, draft in self.drafts.items() if seat in self.turns.due_since}
        self._update_deal_pause()
        self._prepare_deal()
        if record.result is not None:
            self.status = "finished"
            log.info("match finished")
        self.broadcast()

    # --- automatic steps ---------------------------------------------------------------------

    def _prepare_deal(self) -> None:
        """When a deal is due, commit to its server seed and ask the players present for theirs."""
        if self.state is None or not self.engine.needs_deck(self.state):
            return
        self.dealer.prepare(self.deals + 1, self._people_present())

    def _people_present(self) -> list[int]:
        """Seats of connected people playing for themselves (no bot, no autopilot)."""
        return [seat for seat, occupant in enumerate(self.seats) if occupant is not None
                and occupant.bot_level is None and self.is_connected(occupant)]

    def _update_deal_pause(self) -> None:
        """A deal has ended and another is due: its result stays until every player present has
        asked for the next deal or ``timing.deal_pause`` has passed."""
        between = (self.deals > 0 and self.state is not None and self.engine.outcome(self.state) is None
                   and self.engine.needs_deck(self.state))
        if not between:
            self.deal_pause = None
        elif self.deal_pause is None:
            self.deal_pause = DealPause(ends_at=self.clock.now() + self.timing.deal_pause)

    async def _deal_pause_over(self) -> None:
        """Wait until every player present has asked for the next deal, or the pause's time is up."""
        while (pause := self.deal_pause) is not None and not set(self._people_present()) <= pause.ready:
            left = pause.ends_at - self.clock.now()
            if left <= 0:
                return
            self._pause_changed.clear()
            await self.clock.wait(self._pause_changed, left)

    def _has_auto_step(self) -> bool:
        if self.state is None or self.engine.outcome(self.state) is not None:
            return False
        return self.engine.needs_deck(self.state) or self.engine.has_auto_step(self.state)

    def schedule(self) -> None:
        """Start the timers of whatever is due without a player: an automatic step, a bot's turn."""
        if self.closed:
            return
        if self._auto_task is None and self._has_auto_step():
            pause = 0.0 if self.deals == 0 else self.timing.auto_pause
            self._auto_task = self._spawn(self._auto_after(pause))
        if self.state is None or self.engine.outcome(self.state) is not None:
            return
        for seat in self.engine.to_act(self.state):
            occupant = self.seats[seat]
            level = occupant.bot_level if occupant is not None else None
            if level is not None and seat not in self._bot_tasks:
                self._bot_tasks[seat] = self._spawn(self._bot_turn(seat, level))
        deadlines = [self.turns.deadline(seat) for seat in self._awaited_people()]
        if self._timer_task is None and any(deadlines):
            wait = min(d for d in deadlines if d is not None) - self.clock.now()
            self._timer_task = self._spawn(self._timer_after(max(0.0, wait)))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """A task of the room's own, whose log lines name the room, not the connection that started it."""
        return asyncio.create_task(work, context=self.log_context)

    def _awaited(self) -> tuple[int, ...]:
        if self.state is None or self.engine.outcome(self.state) is not None:
            return ()
        if self.engine.needs_deck(self.state) or self.engine.has_auto_step(self.state):
            return ()
        return self.engine.to_act(self.state)

    def _awaited_people(self) -> list[int]:
        """Awaited seats of people who play for themselves (no bot, no autopilot)."""
        return [seat for seat in self._awaited()
                if (occupant := self.seats[seat]) is not None and occupant.bot_level is None]

    async def _timer_after(self, delay: float) -> None:
        try:
            await self._background("a turn timer", self._time_out(delay))
        finally:
            self._timer_task = None
        self.schedule()

    async def _time_out(self, delay: float) -> None:
        """When a person's time is up the strong bot makes that decision for him; after too many
        in a row it keeps playing for him until he takes the seat back."""
        await self.clock.sleep(delay)
        await self._trick_shown()
        async with self.lock:
            for seat in self.turns.expired(self.clock.now(), self._awaited_people()):
                self.metrics.timeouts.inc()
                view = self.seat_view(seat)
                legal = self.engine.legal_actions(self.state, seat)
                action = await self.bots.choose("strong", view, legal)
                await self._apply(seat, action, None, self._missed(seat), autopilot=True)
                self._tell_timeout(seat, action, drafted=any(view.get("draft") or ()))

    def _tell_timeout(self, seat: int, action: JSON, drafted: bool) -> None:
        """Say in words what the autopilot did for a seat whose time ran out: to that seat, and
        without its hidden cards to everyone else."""
        occupant = self.seats[seat]
        if occupant is None:
            return
        held = occupant.autopilot
        said = {"type": "notice", "code": "timer/expired", "seat": seat, "name": occupant.name,
                "autopilot": held}
        own = encode_frame({**said, "action": action, "drafted": drafted,
                            "text": timeout_text(action, drafted, held)})
        others = encode_frame({**said, "text": timeout_text_for_others(occupant.name, held)})
        for conn in list(self.connections):
            conn.push(own if conn.player_id == occupant.player_id else others)

    def _missed(self, seat: int) -> Callable[[], None]:
        """What a timed-out decision changes besides the game: one more miss for the seat, and past
        the limit the bot holds it."""
        def count() -> None:
            if self.turns.timed_out(seat):
                self._autopilot(seat, True)
        return count

    async def _bot_turn(self, seat: int, level: str) -> None:
        try:
            await self._background(f"the bot in seat {seat}", self._bot_acts(seat, level))
        finally:
            self._bot_tasks.pop(seat, None)
        self.schedule()

    async def _bot_acts(self, seat: int, level: str) -> None:
        await self.clock.sleep(self.timing.bot_delay)
        await self._trick_shown()
        async with self.lock:
            occupant = self.seats[seat]
            if (self.state is not None and seat in self._awaited() and occupant is not None
                    and occupant.bot_level is not None):
                view = self.engine.view(self.state, seat)
                legal = self.engine.legal_actions(self.state, seat)
                action = await self.bots.choose(level, view, legal)
                await self._apply(seat, action, None, autopilot=occupant.bot is None)

    async def _trick_shown(self) -> None:
        """A completed trick stays on the table for ``timing.auto_pause`` before a bot or the
        autopilot plays to the next one (a person may play at once)."""
        await self.clock.sleep(self.trick_shown_until - self.clock.now())

    async def _auto_after(self, delay: float) -> None:
        try:
            await self._background("an automatic step", self._auto_when_due(delay))
        finally:
            self._auto_task = None
        self.schedule()

    async def _auto_when_due(self, delay: float) -> None:
        await self.clock.sleep(delay)
        await self._deal_pause_over()
        await self._seeds_or_timeout()
        async with self.lock:
            if self._has_auto_step():
                await self._auto_step()

    async def _background(self, what: str, work: Awaitable[None]) -> None:
        """Run a step nobody waits for. A step the database did not take is tried again (by
        ``schedule``) after ``timing.retry_pause``; any other failure is logged and waits as long, so a
        step that keeps failing never spins."""
        try:
            await work
        except StepNotStored:
            await self.clock.sleep(self.timing.retry_pause)
        except Exception:
            log.exception("room %s: %s failed", self.id, what)
            await self.clock.sleep(self.timing.retry_pause)

    async def _seeds_or_timeout(self) -> None:
        pending = self.dealer.seeds.get(self.deals + 1)
        if pending is not None and self.state is not None and self.engine.needs_deck(self.state):
            await self.clock.wait(pending.ready, self.timing.seed_wait)

    async def _auto_step(self) -> None:
        record = StepRecord(self.match_id or "")
        if self.engine.needs_deck(self.state):
            state = self._deal(self.state, record)
        else:
            self._log(record, None, {"kind": "auto"})
            state = self._absorb(self.engine.auto_step(self.state), record)
        await self._store_then_commit(state, record)

    async def close(self) -> None:
        """Stop everything the room has running (the server is shutting down)."""
        self.closed = True
        tasks = [task for task in (self._auto_task, self._timer_task, *self._bot_tasks.values(),
                                   *self._grace_tasks.values()) if task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5)
