"""Test helpers: players that talk to the app over HTTP and WebSockets."""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from starlette.testclient import TestClient, WebSocketTestSession

from app.config import Settings
from app.db.session import close_engine, make_engine
from app.games.cards import JOKER, Card, standard_deck
from app.main import create_app
from app.rooms.clock import Clock

Message = dict[str, Any]
PROJECT_DIR = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def installed(program: Path, name: str, tests: str, target: str) -> Path:
    """``program``, which ``make TARGET`` installs: missing, it fails the test in CI and skips it
    elsewhere with a printed notice."""
    if not program.exists():
        if IN_CI:
            pytest.fail(f"{name} must be installed in CI ({program}); `make {target}` installs it")
        print(f"\nNOTICE: {tests} tests skipped, no {name} at {program} (`make {target}` installs it)")
        pytest.skip(f"no {name} at {program}")
    return program


def make_settings(database_url: str, **overrides: object) -> Settings:
    """Test settings: test mode on, no pauses."""
    values: dict[str, object] = {"database_url": database_url, "test_mode": True,
                                 "reveal_pause": 0.0, "bot_delay": 0.0, "seed_wait": 0.0,
                                 "deal_pause_seconds": 0.0,
                                 "guests_per_hour": 100_000}
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


class ManualClock(Clock):
    """A room clock that stands still until the test moves it on. Its methods run in the app's event
    loop: from a test, through ``http.portal.call``."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.moment = start
        self.sleepers: list[tuple[float, asyncio.Future[None]]] = []
        self.changed: asyncio.Event | None = None

    def now(self) -> float:
        return self.moment

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        entry = (self.moment + seconds, asyncio.get_running_loop().create_future())
        self.sleepers.append(entry)
        self._tell()
        try:
            await entry[1]
        finally:
            self.sleepers.remove(entry)

    def advance(self, seconds: float) -> None:
        self.moment += seconds
        for wake, woken in self.sleepers:
            if wake <= self.moment and not woken.done():
                woken.set_result(None)

    async def sleeping_until(self, moment: float) -> None:
        """Returns once something sleeps until ``moment``."""
        while not any(wake == moment for wake, _ in self.sleepers):
            self.changed = asyncio.Event()
            await self.changed.wait()

    def _tell(self) -> None:
        if self.changed is not None:
            self.changed.set()


@contextmanager
def clocked_app(database_url: str, **settings: object) -> Iterator[tuple[TestClient, ManualClock]]:
    """The app (with ``settings``), its rooms on a :class:`ManualClock` that moves only when the
    test moves it (:func:`advance`)."""
    with TestClient(create_app(make_settings(database_url, **settings), run_migrations=False)) as http:
        clock = ManualClock()
        http.app.state.rooms.timing.clock = clock  # type: ignore[attr-defined]
        yield http, clock


def advance(http: TestClient, clock: ManualClock, seconds: float) -> None:
    assert http.portal is not None
    http.portal.call(clock.advance, seconds)


def deck_for_hands(hands: Sequence[Sequence[str]], dealer: int, order: Callable[[int, int], int],
                   widow: Sequence[str] = ()) -> list[str]:
    """The deck (top first) that deals ``hands[seat]`` when dealing one card at a time, where
    ``order(dealer, i)`` is the seat that gets the ``i``-th card."""
    given = [list(hand) for hand in hands]
    deck = [given[order(dealer, i)].pop(0) for i in range(sum(len(hand) for hand in hands))]
    return deck + list(widow)


class Client:
    """A guest player (or, without a name, a spectator) with one WebSocket to a room."""

    def __init__(self, http: TestClient, name: str | None) -> None:
        self.http = http
        self.name = name
        self.id: str | None = None
        self.token: str | None = None
        self.ws: WebSocketTestSession | None = None
        self.last_state: Message | None = None
        self.received: list[Message] = []
        if name is not None:
            body = http.post("/api/players", json={"name": name}).json()
            self.id, self.token = body["id"], body["token"]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def create_room(self, game: str, options: dict[str, Any] | None = None,
                    private: bool = False) -> str:
        response = self.http.post("/api/rooms", headers=self.auth,
                                  json={"game": game, "options": options or {}, "private": private})
        assert response.status_code == 201, response.text
        room_id: str = response.json()["id"]
        return room_id

    @contextmanager
    def connected(self, room_id: str) -> Iterator[Client]:
        with self.http.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            self.ws = ws
            if self.token:
                self.send({"type": "auth", "token": self.token})
                self.until(lambda m: m["type"] == "authenticated")
            self.until(lambda m: m["type"] == "state")
            try:
                yield self
            finally:
                self.ws = None

    def send(self, message: Message | str) -> None:
        assert self.ws is not None
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self) -> Message:
        assert self.ws is not None
        message: Message = json.loads(self.ws.receive_text())
        self.received.append(message)
        if message["type"] == "state":
            self.last_state = message
        return message

    def until(self, predicate: Callable[[Message], bool], limit: int = 2000) -> Message:
        for _ in range(limit):
            message = self.recv()
            if predicate(message):
                return message
        raise AssertionError(f"{self.name}: no matching message in {limit}")

    def state_where(self, predicate: Callable[[Message], bool]) -> Message:
        """The first state (the latest one seen, if it already matches) for which ``predicate`` holds."""
        if self.last_state is not None and predicate(self.last_state):
            return self.last_state
        return self.until(lambda m: m["type"] == "state" and predicate(m))

    def error(self) -> Message:
        return self.until(lambda m: m["type"] == "error")

    def act(self, action: Message, ref: str | None = None) -> None:
        message: Message = {"type": "act", "action": action}
        if ref is not None:
            message["id"] = ref
        self.send(message)


def game_result(result: Message) -> Message:
    """A stored match result without what the room adds to the game's outcome: who played each
    seat at the end and how many decisions the autopilot made for it."""
    return {key: value for key, value in result.items() if key not in ("played_by", "autopilot_decisions")}


def cards(text: str) -> list[str]:
    return [str(Card.parse(word)) for word in text.split()]


def seat_all(players: Sequence[Client], room_id: str, stack: ExitStack) -> None:
    """Connect every player to the room and seat player ``i`` in seat ``i``."""
    for seat, player in enumerate(players):
        stack.enter_context(player.connected(room_id))
        player.send({"type": "sit", "seat": seat})
        player.state_where(lambda m, s=seat, p=player: m["room"]["seats"][s]["player_id"] == p.id)


def seat_owner_with_bots(owner: Any, level: str = "random") -> None:
    """``owner`` (a ``Client`` or a ``LiveClient``, connected) sits at seat 0 and fills the other
    seats with bots of ``level``."""
    owner.send({"type": "sit", "seat": 0})
    owner.state_where(lambda m: m["room"]["seats"][0]["player_id"] == owner.id)
    for seat in (1, 2, 3):
        owner.send({"type": "add_bot", "seat": seat, "level": level})
    owner.state_where(lambda m: all(s["bot"] for s in m["room"]["seats"][1:]))


CARD_TEXTS = frozenset(str(card) for card in (*standard_deck(), JOKER))
# A JSON string whose whole text names a card (no card's name needs an escape).
CARD_IN_JSON = re.compile(r'"(JK|(?:10|[2-9JQKA])[SHDC])"')


def card_strings(value: Any) -> Iterator[str]:
    """Every string anywhere inside a JSON value that names a card."""
    if isinstance(value, str):
        if value in CARD_TEXTS:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from card_strings(item)


def cards_in_frame(frame: str) -> set[str]:
    """Every card named by a string in a JSON text (as a value or, stricter, as a key)."""
    return set(CARD_IN_JSON.findall(frame))


async def create_or_drop_database(server_url: str, name: str, create: bool) -> None:
    """Drops the PostgreSQL database ``name`` (its connections closed) on the server of ``server_url``,
    then creates it afresh when ``create``."""
    engine = create_async_engine(server_url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            await connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            if create:
                await connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        await close_engine(engine)


def query(url: str, statement: Any) -> list[Any]:
    """Rows straight from the database behind the app."""
    async def run() -> list[Any]:
        engine = make_engine(url)
        try:
            async with engine.connect() as connection:
                return list((await connection.execute(statement)).all())
        finally:
            await close_engine(engine)
    return asyncio.run(run())
