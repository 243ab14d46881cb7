"""The rooms this process holds, and how a room is created from a client's request."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from app.db import models
from app.db.ids import new_id, now
from app.db.store import SavedRoom, Store
from app.games.base import JSON, Engine, InvalidOptions, OptionSpec
from app.games.cards import Card, check_deck, parse_cards
from app.games.registry import ENGINES
from app.rooms.chat import ChatLine
from app.rooms.chip_table import ChipRules
from app.rooms.errors import RoomError
from app.rooms.occupant import Occupant
from app.rooms.room import Room
from app.rooms.status import RoomStatus
from app.rooms.testmode import TestSetup
from app.rooms.timing import Timing

if TYPE_CHECKING:
    from app.cluster.coordinator import Coordinator
    from app.cluster.node import ClusterNode

log = logging.getLogger(__name__)

TEST_OPTIONS = ("decks", "first_dealer")
TURN_SECONDS = OptionSpec("turn_seconds", None, "seconds a player has for each decision; 0 turns the "
                          "timer off (default: on in public rooms, off in private ones)",
                          minimum=0, maximum=3600)
ARRANGE_SECONDS = OptionSpec("arrange_seconds", None, "seconds a player has to arrange his 13 cards; "
                             "0 turns the timer off (default: on in public rooms, off in private ones)",
                             minimum=0, maximum=3600)
MIN_BUY_IN = OptionSpec("min_buy_in", 20, "the smallest table stack a player may bring, in multiples "
                        "of the stake", minimum=1, maximum=1000)
MAX_BUY_IN = OptionSpec("max_buy_in", 100, "the largest table stack a player may bring, in multiples "
                        "of the stake", minimum=1, maximum=1000)
SPECTATOR_CHAT = OptionSpec("spectator_chat", False, "whether spectators may write in the table chat "
                            "(they always read it)", choices=(False, True))
ARRANGING_GAMES = frozenset({"hazari"})
"""Games whose every decision is a whole arrangement: ``arrange_seconds`` times them."""


def room_option_specs(game: str) -> tuple[OptionSpec, ...]:
    """The options a room adds to its game's: its timers, a chip table's buy-in range, and whether
    spectators may chat."""
    if game in ARRANGING_GAMES:
        return TURN_SECONDS, ARRANGE_SECONDS, SPECTATOR_CHAT
    if _has_buy_in(game):
        return TURN_SECONDS, MIN_BUY_IN, MAX_BUY_IN, SPECTATOR_CHAT
    return TURN_SECONDS, SPECTATOR_CHAT


def _has_buy_in(game: str) -> bool:
    """Whether a player brings a buy-in to a table of ``game`` (the game's money rules say)."""
    engine = ENGINES.get(game)
    chips = None if engine is None else engine.chips
    return chips is not None and chips.buy_in


def split_room_options(raw: dict[str, Any], private: bool, game: str,
                       public_defaults: dict[str, int]) -> tuple[dict[str, Any], dict[str, int]]:
    """The game's options, and the room's own (timers in seconds, which private rooms default to 0;
    a chip table's buy-in range; ``spectator_chat``, a boolean)."""
    specs = room_option_specs(game)
    rest = {name: value for name, value in raw.items() if name not in {spec.name for spec in specs}}
    own = {spec.name: _room_default(spec, private, public_defaults) if raw.get(spec.name) is None
           else spec.check(raw[spec.name]) for spec in specs}
    if own.get(MIN_BUY_IN.name, 0) > own.get(MAX_BUY_IN.name, 0):
        raise InvalidOptions(f"option 'min_buy_in' ({own[MIN_BUY_IN.name]}) must not exceed 'max_buy_in' "
                             f"({own[MAX_BUY_IN.name]})")
    return rest, own


def _room_default(spec: OptionSpec, private: bool, public_defaults: dict[str, int]) -> int:
    if spec.default is not None:
        default: int = spec.default
        return default
    return 0 if private else public_defaults.get(spec.name, 0)


def decision_seconds(game: str, timers: dict[str, int]) -> int:
    """The seconds each decision of ``game`` gets."""
    return timers[ARRANGE_SECONDS.name] if game in ARRANGING_GAMES else timers[TURN_SECONDS.name]


def split_test_options(engine: Engine[Any, Any], raw: dict[str, Any],
                       test_mode: bool) -> tuple[dict[str, Any], TestSetup | None]:
    """The game's own options, and the test-mode ones (refused outside test mode)."""
    given = [name for name in TEST_OPTIONS if name in raw]
    if given and not test_mode:
        raise InvalidOptions(f"option(s) {given} exist only when the server runs in test mode",
                             code="options/test_mode_only")
    game_options = {name: value for name, value in raw.items() if name not in TEST_OPTIONS}
    if not given:
        return game_options, None
    return game_options, TestSetup(decks=_test_decks(engine, raw.get("decks", [])),
                                   first_dealer=_first_dealer(engine, raw.get("first_dealer")))


def _test_decks(engine: Engine[Any, Any], raw: Any) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(raw, list):
        raise InvalidOptions("option 'decks' must be a list of decks", code="options/bad_deck")
    decks = tuple(parse_cards(deck) if isinstance(deck, list) else _not_a_deck(deck) for deck in raw)
    for deck in decks:
        check_deck(deck, engine.full_deck())
    return decks


def _not_a_deck(value: Any) -> tuple[Card, ...]:
    raise InvalidOptions(f"a deck must be a list of cards, got {value!r}", code="options/bad_deck")


def _first_dealer(engine: Engine[Any, Any], raw: Any) -> int | None:
    if raw is None:
        return None
    if type(raw) is not int or not 0 <= raw < engine.max_seats:
        raise InvalidOptions(f"option 'first_dealer' must be a seat from 0 to {engine.max_seats - 1}, "
                             f"got {raw!r}")
    return raw


def _occupant(seat: models.RoomSeat, name: str | None) -> Occupant | None:
    if seat.bot is not None:
        return Occupant.for_bot(seat.seat, seat.bot, seat.buy_in)
    if seat.player_id is not None:
        return Occupant(seat.player_id, name or "player", buy_in=seat.buy_in)
    return None


class ConnectionCounter:
    """Open WebSockets per client address, under a limit: this node's, and in a cluster every node's
    (counted in Redis; while Redis does not answer, this node's alone)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open_by_ip: dict[str, int] = {}
        self.shared: Coordinator | None = None

    async def open(self, ip: str) -> bool:
        own = self.open_by_ip.get(ip, 0)
        if own >= self.limit:
            return False
        if self.shared is not None:
            try:
                if not await self.shared.open_socket(ip, self.limit, own):
                    return False
            except (RedisError, OSError):
                log.warning("sockets per address counted on this node alone: Redis does not answer")
        self.open_by_ip[ip] = self.open_by_ip.get(ip, 0) + 1
        return True

    async def close(self, ip: str) -> None:
        left = self.open_by_ip.get(ip, 1) - 1
        if left > 0:
            self.open_by_ip[ip] = left
        else:
            self.open_by_ip.pop(ip, None)
        if self.shared is not None:
            with contextlib.suppress(RedisError, OSError):
                await self.shared.close_socket(ip)


class RoomManager:
    def __init__(self, store: Store, timing: Timing, test_mode: bool, turn_seconds: int = 0,
                 arrange_seconds: int = 0, max_rooms_per_player: int = 5,
                 max_connections_per_ip: int = 50, idle_minutes: float = 30.0,
                 clock: Callable[[], datetime] = now, node_id: str = "") -> None:
        self.node_id = node_id
        self.paused = False
        """An operator has paused new rooms."""
        self.notice: dict[str, Any] | None = None
        """The operator's maintenance notice (``{"text", "at"}``) shown at every table, if any."""
        self.idle = timedelta(minutes=idle_minutes)
        self.clock = clock
        self.player_seen: dict[str, datetime] = {}
        self._sweeping: asyncio.Task[None] | None = None
        self.timer_defaults = {TURN_SECONDS.name: turn_seconds, ARRANGE_SECONDS.name: arrange_seconds}
        self.max_rooms_per_player = max_rooms_per_player
        self.connections = ConnectionCounter(max_connections_per_ip)
        self.store = store
        self.timing = timing
        self.test_mode = test_mode
        self.rooms: dict[str, Room] = {}
        self.created_at: dict[str, datetime] = {}
        self.cluster: ClusterNode | None = None
        """In a cluster, the node: rooms are held by the node that owns them (:meth:`take`)."""

    def _room(self, row: models.Room, test_setup: TestSetup | None, seats: int | None = None) -> Room:
        engine = ENGINES[row.game]
        options, timers = split_room_options(row.options, row.private, row.game, self.timer_defaults)
        chips = ChipRules.of(engine.chips, options,
                             (timers.get(MIN_BUY_IN.name, 0), timers.get(MAX_BUY_IN.name, 0)))
        room = Room(room_id=row.id, engine=engine, options=options, private=row.private,
                    owner_id=row.owner_id, store=self.store, timing=self.timing, test_setup=test_setup,
                    seats=seats, chips=chips, turn_seconds=decision_seconds(row.game, timers),
                    room_options=timers)
        self.created_at[row.id] = row.created_at
        return room

    async def create(self, owner_id: str, game: str, raw_options: dict[str, Any],
                     private: bool) -> Room:
        engine = ENGINES.get(game)
        if engine is None:
            raise RoomError(f"unknown game {game!r}; choose one of {sorted(ENGINES)}",
                            code="room/unknown_game")
        if self.paused:
            raise RoomError("an operator has paused new rooms for now; join an open one or try again "
                            "later", code="room/creation_paused")
        if await self.store.rooms_owned(owner_id) >= self.max_rooms_per_player:
            raise RoomError(f"a player may own at most {self.max_rooms_per_player} open rooms; close one "
                            "first", code="room/too_many")
        game_options, test_setup = split_test_options(engine, raw_options, self.test_mode)
        game_options, timers = split_room_options(game_options, private, game, self.timer_defaults)
        options = {**engine.make_options(game_options), **timers}
        row = models.Room(id=new_id(), game=game, options=options, private=private, owner_id=owner_id,
                          status=RoomStatus.OPEN, match_id=None, created_at=now(), version=0,
                          test_setup=test_setup.to_json() if test_setup else None)
        room = self._room(row, test_setup)
        await self.store.create_room(row, seats=len(room.seats))
        if self.cluster is not None:
            await self.cluster.room_created(room)
            self.created_at.pop(room.id, None)
        else:
            self.rooms[room.id] = room
        return room

    async def take(self, room_id: str) -> Room | None:
        """Become the room's owner (its fence moved past any former owner's) and rebuild it from
        what is stored, its timers and bots started; None when no such room is unfinished."""
        fence = await self.store.take_room(room_id)
        if fence is None:
            return None
        log.info("room %s: its fence raised to %d", room_id, fence)
        saved = await self.store.saved_room(room_id)
        if saved is None:
            return None
        room = self._rebuild(saved)
        room.fence = fence
        self.rooms[room.id] = room
        self.player_seen[room.id] = self.clock()
        room.schedule()
        return room

    def drop(self, room: Room) -> None:
        """Forget the room here (another node runs it now)."""
        for held in (self.rooms, self.created_at, self.player_seen):
            held.pop(room.id, None)

    async def restore(self) -> int:
        """Bring back every unfinished room and its match, as they were stored; returns how many.
        A room whose match has not started within the idle time of its making is closed instead."""
        restored = 0
        moment = self.clock()
        for saved in await self.store.unfinished_rooms():
            if saved.match is None and moment - saved.room.created_at >= self.idle:
                await self.store.set_room_status(saved.room.id, RoomStatus.FINISHED, fence=saved.room.fence)
                continue
            room = self._rebuild(saved)
            self.rooms[room.id] = room
            self.player_seen[room.id] = moment
            room.schedule()
            restored += 1
        return restored

    def _rebuild(self, saved: SavedRoom) -> Room:
        row = saved.room
        room = self._room(row, TestSetup.from_json(row.test_setup), seats=len(saved.seats))
        room.seats = [_occupant(seat, name) for seat, name in saved.seats]
        room.version = row.version
        room.fence = row.fence
        room.chat.restore(ChatLine.from_row(line) for line in saved.chat)
        if saved.match is not None:
            room.resume(saved.match, saved.match_seats, saved.deals, saved.actions)
        return room

    def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise RoomError(f"there is no room {room_id!r}", code="room/not_found")
        return room

    async def public_listing(self) -> list[tuple[tuple[datetime, str], JSON]]:
        """The public rooms not finished, as the lobby shows them, each with its place in the
        lobby's order: this node's, or in a cluster every node's."""
        if self.cluster is not None:
            listed = [(datetime.fromisoformat(entry["created_at"]), entry["room"])
                      for entry in await self.cluster.listing()]
        else:
            listed = [(self.created_at[room.id], room.public_json()) for room in self.rooms.values()]
        return [((created, room["id"]), room) for created, room in listed
                if not room["private"] and room["status"] != RoomStatus.FINISHED]

    async def public_room(self, room_id: str) -> JSON:
        """One room as the lobby shows it, wherever it is held."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room.public_json()
        listed = await self.cluster.listed(room_id) if self.cluster is not None else None
        if listed is None:
            raise RoomError(f"there is no room {room_id!r}", code="room/not_found")
        public: JSON = listed["room"]
        return public

    def is_idle(self, room: Room, moment: datetime) -> bool:
        """Whether nobody has used ``room`` for the idle time: its match has not started since the
        room was made, or no player (a connection with a token) has been connected to it."""
        if room.state is None and moment - self.created_at[room.id] >= self.idle:
            return True
        return moment - self.player_seen.get(room.id, self.created_at[room.id]) >= self.idle

    async def sweep(self) -> None:
        """Close the rooms nobody uses (:meth:`is_idle`) and forget the finished ones nobody watches."""
        moment = self.clock()
        for room in list(self.rooms.values()):
            if any(conn.player_id is not None for conn in room.connections):
                self.player_seen[room.id] = moment
            try:
                if room.status is not RoomStatus.FINISHED and self.is_idle(room, moment):
                    await room.expire()
                if room.status is RoomStatus.FINISHED and not room.connections:
                    await self._forget(room)
            except Exception:
                log.exception("room %s: closing it as unused failed", room.id)

    async def _forget(self, room: Room) -> None:
        await room.close()
        self.drop(room)
        if self.cluster is not None:
            await self.cluster.room_forgotten(room)

    def start_sweeping(self, every: float) -> None:
        self._sweeping = asyncio.create_task(self._sweep_every(every))

    async def _sweep_every(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            await self.sweep()

    async def close(self) -> None:
        if self._sweeping is not None:
            self._sweeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeping
        for room in self.rooms.values():
            await room.close()
