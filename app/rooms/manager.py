"""The rooms this process holds, and how a room is created from a client's request."""

from __future__ import annotations

from typing import Any

from app.db import models
from app.db.store import SavedRoom, Store, new_id, now
from app.games.base import Engine, InvalidOptions
from app.games.cards import Card, check_deck, parse_cards
from app.games.registry import ENGINES
from app.rooms.room import ChipRules, Occupant, Room, RoomError, TestSetup, Timing

TEST_OPTIONS = ("decks", "first_dealer")
CHIP_GAMES = frozenset({"azi"})


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
        return Occupant.for_bot(seat.seat, seat.bot)
    if seat.player_id is not None:
        return Occupant(seat.player_id, name or "player")
    return None


class RoomManager:
    def __init__(self, store: Store, timing: Timing, test_mode: bool, bot_stack: int) -> None:
        self.store = store
        self.timing = timing
        self.test_mode = test_mode
        self.bot_stack = bot_stack
        self.rooms: dict[str, Room] = {}

    def _room(self, row: models.Room, test_setup: TestSetup | None, seats: int | None = None) -> Room:
        engine = ENGINES[row.game]
        chips = ChipRules(enabled=row.game in CHIP_GAMES, bot_stack=self.bot_stack,
                          ante=int(row.options.get("stake", 0)))
        room = Room(room_id=row.id, engine=engine, options=row.options, private=row.private,
                    owner_id=row.owner_id, store=self.store, timing=self.timing, test_setup=test_setup,
                    seats=seats, chips=chips)
        room.busy_elsewhere = lambda player_id: self._at_chip_table(player_id, room)
        return room

    def _at_chip_table(self, player_id: str, asking: Room) -> bool:
        return any(room is not asking and room.chips.enabled and room.status != "finished"
                   and room.seat_of(player_id) is not None for room in self.rooms.values())

    async def create(self, owner_id: str, game: str, raw_options: dict[str, Any],
                     private: bool) -> Room:
        engine = ENGINES.get(game)
        if engine is None:
            raise RoomError(f"unknown game {game!r}; choose one of {sorted(ENGINES)}",
                            code="room/unknown_game")
        game_options, test_setup = split_test_options(engine, raw_options, self.test_mode)
        options = engine.make_options(game_options)
        row = models.Room(id=new_id(), game=game, options=options, private=private, owner_id=owner_id,
                          status="open", match_id=None, created_at=now(), version=0,
                          test_setup=test_setup.to_json() if test_setup else None)
        room = self._room(row, test_setup)
        await self.store.create_room(row, seats=len(room.seats))
        self.rooms[room.id] = room
        return room

    async def restore(self) -> int:
        """Bring back every unfinished room and its match, as they were stored; returns how many."""
        saved_rooms = await self.store.unfinished_rooms()
        for saved in saved_rooms:
            room = self._rebuild(saved)
            self.rooms[room.id] = room
            room.schedule()
        return len(saved_rooms)

    def _rebuild(self, saved: SavedRoom) -> Room:
        row = saved.room
        room = self._room(row, TestSetup.from_json(row.test_setup), seats=len(saved.seats))
        room.seats = [_occupant(seat, name) for seat, name in saved.seats]
        room.version = row.version
        if saved.match is not None:
            room.resume(saved.match, saved.match_seats, saved.decks, saved.actions)
        return room

    def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            raise RoomError(f"there is no room {room_id!r}", code="room/not_found")
        return room

    def public_rooms(self) -> list[Room]:
        return [room for room in self.rooms.values() if not room.private and room.status != "finished"]

    async def close(self) -> None:
        for room in self.rooms.values():
            await room.close()
