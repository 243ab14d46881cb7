"""No frame leaks a card: a thousand deals of each game through the room layer, every seat played by the
bot for a person whose every frame is recorded, plus spectators and history requests during play.
A frame to a seat may name no card that the engine says that seat may not know at that moment; a
frame to a spectator names no hidden card at all."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support import card_strings

from app.db.history import match_detail
from app.db.session import make_engine, make_sessionmaker
from app.db.store import Store
from app.rooms.manager import RoomManager
from app.rooms.room import Room
from app.rooms.seating import Connection, Timing

DEALS = 1000
# Hazari's strong bot is quick; the other games use random bots so that a thousand deals stay short.
LEVELS = {"hazari": ("strong", "random"), "azi": ("random",), "hasenpfeffer": ("random",)}


@dataclass(eq=False)
class RecordingConnection(Connection):
    """A connection that checks each frame against what its seat may know when it is sent."""

    room: Room | None = None
    frames: int = 0
    leaks: list[str] = field(default_factory=list)

    def push(self, message: str) -> None:
        assert self.room is not None
        self.frames += 1
        state = self.room.state
        if state is None:
            return
        seat = self.room.seat_of(self.player_id)
        hidden = {str(card) for card in self.room.engine.hidden_cards(state, seat)}
        named = set(card_strings(json.loads(message)))
        if named & hidden:
            self.leaks.append(f"seat {seat}: {sorted(named & hidden)} in {message[:300]}")


async def play_deals(game: str, url: str, deals: int) -> tuple[int, list[str]]:
    engine = make_engine(url)
    store = Store(make_sessionmaker(engine))
    manager = RoomManager(store, Timing(grace_period=3600), test_mode=True, bot_stack=1000,
                          max_rooms_per_player=10_000)
    frames, leaks, played = 0, [], 0
    try:
        while played < deals:
            room, watchers = await open_table(manager, store, game)
            played += await run_until(room, deals - played, store, leaks)
            frames += sum(conn.frames for conn in watchers)
            leaks += [leak for conn in watchers for leak in conn.leaks]
            await room.close()
    finally:
        await manager.close()
        await engine.dispose()
    return frames, leaks


async def open_table(manager: RoomManager, store: Store, game: str) -> tuple[Room, list[RecordingConnection]]:
    seats = 4 if game != "azi" else 3
    players = [(await store.create_player(f"{game}{seat}", 1000))[0] for seat in range(seats)]
    # Random Hasenpfeffer bidders rarely reach 10 points: short matches keep each log small.
    options = {"bidding": "pepper", "target": 1} if game == "hasenpfeffer" else {}
    room = await manager.create(players[0].id, game, {**options, "turn_seconds": 0}, private=True)
    watchers = [RecordingConnection(player.id, player.name, room=room) for player in players]
    watchers += [RecordingConnection(None, None, room=room) for _ in range(2)]
    for conn in watchers:
        room.connect(conn)
    for seat, conn in enumerate(watchers[:seats]):
        await room.sit(conn, seat)
    await room.start(watchers[0])
    levels = LEVELS[game]
    for seat, occupant in enumerate(room.seats):
        assert occupant is not None
        occupant.bot = levels[seat % len(levels)]
    room.schedule()
    return room, watchers


async def run_until(room: Room, wanted: int, store: Store, leaks: list[str]) -> int:
    """Let the bots play until ``wanted`` deals are scored or the match ends, fetching the history now
    and then: it must show neither the deck nor the moves of a deal in play. Returns the deals scored."""
    scored = 0
    while room.status != "finished" and scored < wanted:
        await asyncio.sleep(0.05)
        async with store.sessions() as session:
            detail = await match_detail(session, room.match_id or "")
        assert detail is not None
        in_play = {deal["number"] for deal in detail["deals"] if deal["points"] is None}
        if any(deal["deck"] is not None for deal in detail["deals"] if deal["number"] in in_play) or any(
                action["deal"] in in_play for action in detail["actions"] if action["seat"] is not None):
            leaks.append(f"the history shows deal(s) {sorted(in_play)} while they are played")
        scored = len(detail["deals"]) - len(in_play)
    return scored


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("game", ["hazari", "azi", "hasenpfeffer"])
def test_a_thousand_deals_leak_no_card(game: str, tmp_path: Path, sqlite_template: Path) -> None:
    database = tmp_path / "leaks.db"
    database.write_bytes(sqlite_template.read_bytes())
    frames, leaks = asyncio.run(play_deals(game, f"sqlite+aiosqlite:///{database}", DEALS))
    assert leaks == []
    assert frames > DEALS * 4

