"""No frame leaks a card: a thousand deals of each game through the room layer, every seat played by the
bot for a person whose every frame is recorded, plus spectators and history requests during play.
A frame to a seat may name no card that the engine says that seat may not know at that moment; a
frame to a spectator names no hidden card at all.

One seeded generator per game (its seed printed by a failure, and taken from CARDROOM_LEAK_SEED to
replay it) orders every deck, through test mode's ``decks``, draws the first dealers, and makes the
bots' choices. The bots decide in this process rather than in the server's bot process: what is
checked is every frame the room sends, and the pool's round trips would make a thousand deals slow.

The players chat and react all along: a chat frame holds what its sender said and who he is, and
nothing else (no card, no field the server added from the game)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support import cards_in_frame

from app.db.history import match_detail
from app.db.session import close_engine, make_engine, make_sessionmaker
from app.db.store import Store
from app.games.registry import ENGINES
from app.rooms.bots import decide
from app.rooms.chat import REACTIONS
from app.rooms.connection import Connection
from app.rooms.manager import RoomManager
from app.rooms.room import Room
from app.rooms.timing import Timing

DEALS = 1000
HISTORY_POLL_SECONDS = 0.2
WATCH_SECONDS = 0.01
# A long match is left after this many deals for a new table: its log, read back now and then, stays short.
DEALS_PER_ROOM = 20
# More decks than a table's deals need (an Azi re-deal takes one more).
DECKS_PER_ROOM = 3 * DEALS_PER_ROOM
# Hazari's strong bot is quick; the other games use random bots so that a thousand deals stay short.
LEVELS = {"hazari": ("strong", "random"), "azi": ("random",), "hasenpfeffer": ("random",)}
SAYINGS = ("good luck", "nice one", "<b>hm</b>", "well played, all")
CHAT_KEYS = ({"type", "from", "text", "at"}, {"type", "from", "reaction", "at"})


@dataclass(eq=False)
class RecordingConnection(Connection):
    """A connection that checks each frame against what its seat may know when it is sent."""

    room: Room | None = None
    frames: int = 0
    chats: int = 0
    leaks: list[str] = field(default_factory=list)

    def push(self, message: str) -> None:
        assert self.room is not None
        self.frames += 1
        if message.startswith('{"type":"chat'):
            self.chats += 1
            self.check_chat(message)
        state = self.room.state
        if state is None:
            return
        seat = self.room.seat_of(self.player_id)
        hidden = {str(card) for card in self.room.engine.hidden_cards(state, seat)}
        named = cards_in_frame(message)
        if named & hidden:
            self.leaks.append(f"seat {seat}: {sorted(named & hidden)} in {message[:300]}")


    def check_chat(self, message: str) -> None:
        """A chat frame (or the history) carries only the line as said, its sender and its time."""
        assert self.room is not None
        frame = json.loads(message)
        lines = frame["lines"] if frame["type"] == "chat_history" else [frame]
        for line in lines:
            keys = set(line) | {"type"}
            sender = line["from"]
            said = line.get("text", line.get("reaction"))
            if (keys not in CHAT_KEYS or set(sender) != {"player_id", "name", "seat"}
                    or said not in (*SAYINGS, *REACTIONS) or cards_in_frame(message)):
                self.leaks.append(f"a chat frame holds more than the line: {message[:300]}")


async def play_deals(game: str, url: str, deals: int, seed: int) -> tuple[int, int, list[str]]:
    """Plays ``deals`` deals; returns the frames sent, the chat frames among them and the leaks."""
    engine = make_engine(url)
    store = Store(make_sessionmaker(engine))
    manager = RoomManager(store, Timing(grace_period=3600), test_mode=True,
                          max_rooms_per_player=10_000)
    frames, chats, leaks, played = 0, 0, [], 0
    rng = random.Random(seed)
    try:
        while played < deals:
            room, watchers = await open_table(manager, store, game, rng)
            bots_in_process(room, rng)
            played += await run_until(room, min(deals - played, DEALS_PER_ROOM), store, leaks, rng)
            frames += sum(conn.frames for conn in watchers)
            chats += sum(conn.chats for conn in watchers)
            leaks += [leak for conn in watchers for leak in conn.leaks]
            await room.close()
    finally:
        await manager.close()
        await close_engine(engine)
    return frames, chats, leaks


async def open_table(manager: RoomManager, store: Store, game: str,
                     rng: random.Random) -> tuple[Room, list[RecordingConnection]]:
    seats = 4 if game != "azi" else 3
    players = [(await store.create_player(f"{game}{seat}", 1000))[0] for seat in range(seats)]
    # Random Hasenpfeffer bidders rarely reach 10 points: shorter matches keep each log small.
    options = {"bidding": "pepper", "target": 5} if game == "hasenpfeffer" else {}
    pack = [str(card) for card in ENGINES[game].full_deck()]
    dealt = {"decks": [rng.sample(pack, len(pack)) for _ in range(DECKS_PER_ROOM)],
             "first_dealer": rng.randrange(seats)}
    room = await manager.create(players[0].id, game, {**options, **dealt, "turn_seconds": 0}, private=True)
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


def bots_in_process(room: Room, rng: random.Random) -> None:
    """The room's bots decide here, seeded by ``rng``."""
    async def choose(level: str, view: object, legal: list[object]) -> object:
        return decide(room.engine.name, level, view, legal, rng.getrandbits(64))
    room.bots.choose = choose  # type: ignore[method-assign,assignment]


def talk(room: Room, rng: random.Random, chance: float = 0.2) -> None:
    """Now and then (``chance``) a seated player says something or reacts (as the edge lets through)."""
    if rng.random() >= chance:
        return
    seated = [conn for conn in room.connections if room.seat_of(conn.player_id) is not None]
    if not seated:
        return
    speaker = rng.choice(seated)
    if rng.random() < 0.5:
        room.post_chat(speaker, text=rng.choice(SAYINGS))
    else:
        room.post_chat(speaker, reaction=rng.choice(REACTIONS))


async def run_until(room: Room, wanted: int, store: Store, leaks: list[str], rng: random.Random) -> int:
    """Let the bots play until ``wanted`` deals are scored or the match ends, reading the history now
    and then and once more at the end. Returns the deals scored."""
    scored, waited = 0, 0.0
    talk(room, rng, chance=1.0)
    while scored < wanted:
        talk(room, rng)
        finished = room.status == "finished"
        if finished or waited >= HISTORY_POLL_SECONDS:
            waited = 0.0
            scored = await history_in_play(room, store, leaks)
            if finished:
                break
        await asyncio.sleep(WATCH_SECONDS)
        waited += WATCH_SECONDS
    return scored


async def history_in_play(room: Room, store: Store, leaks: list[str]) -> int:
    """The match's history must show neither the deck nor the moves of a deal in play. Returns the
    deals scored so far."""
    async with store.sessions() as session:
        detail = await match_detail(session, room.match_id or "")
    assert detail is not None
    in_play = {deal["number"] for deal in detail["deals"] if deal["points"] is None}
    if any(deal["deck"] is not None for deal in detail["deals"] if deal["number"] in in_play) or any(
            action["deal"] in in_play for action in detail["actions"] if action["seat"] is not None):
        leaks.append(f"the history shows deal(s) {sorted(in_play)} while they are played")
    return len(detail["deals"]) - len(in_play)


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("game", ["hazari", "azi", "hasenpfeffer"])
def test_a_thousand_deals_leak_no_card(game: str, sqlite_template: Path) -> None:
    seed = int(os.environ.get("CARDROOM_LEAK_SEED", secrets.randbits(32)))
    # A database in memory-backed files where the system has them: thousands of commits, no disk waits.
    folder = Path(tempfile.mkdtemp(dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    try:
        database = folder / "leaks.db"
        shutil.copyfile(sqlite_template, database)
        frames, chats, leaks = asyncio.run(play_deals(game, f"sqlite+aiosqlite:///{database}", DEALS, seed))
    finally:
        shutil.rmtree(folder)
    assert leaks == [], f"bots seeded with CARDROOM_LEAK_SEED={seed}"
    assert frames > DEALS * 4 and chats > 0


@pytest.mark.parametrize("game", ["hazari", "azi", "hasenpfeffer"])
def test_chat_frames_in_a_few_deals_leak_no_card(game: str, sqlite_template: Path, tmp_path: Path) -> None:
    seed = int(os.environ.get("CARDROOM_LEAK_SEED", secrets.randbits(32)))
    database = tmp_path / "chat-leaks.db"
    shutil.copyfile(sqlite_template, database)
    frames, chats, leaks = asyncio.run(play_deals(game, f"sqlite+aiosqlite:///{database}", 3, seed))
    assert leaks == [], f"bots seeded with CARDROOM_LEAK_SEED={seed}"
    assert frames > 3 * 4 and chats > 0
