"""A step the database does not take changes nothing anyone can see.

The database's write lock is held from another connection, as another process would hold it (SQLite
``BEGIN EXCLUSIVE``, PostgreSQL ``LOCK TABLE actions``), past the server's short lock wait, while a
step that ends a deal is tried: an Azi fold, the fourth Hasenpfeffer pass of a thrown-in deal, and an
Azi decision the turn timer makes. The step is refused (``server/not_stored``), the room shows the same
version, views, fairness block, chips, deadlines and seats as before, no frame carries the live deal's
server seed, and once the lock is released the same step goes through. An HTTP request that cannot
write in time is answered 503 ``server/busy`` and changes nothing either."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

import asyncpg
import pytest
from sqlalchemy.engine import make_url
from starlette.testclient import TestClient
from support import Client, Message, make_settings, seat_all
from support.azi import BET10, FOLD, AziTable

from app.games.cards import card_texts
from app.games.fairness import deck_order
from app.games.registry import ENGINES
from app.main import create_app
from app.rooms.room import Room

LOCK_WAIT = 0.3
WIDOW = 24  # the 25th card of a Hasenpfeffer deck (HP-4)


@contextmanager
def write_lock(database_url: str, tables: str = "actions, room_seats") -> Iterator[None]:
    """Hold the database's write lock (on PostgreSQL, on ``tables``: by default the match steps and
    the seats) from a connection of its own."""
    if make_url(database_url).get_backend_name() == "sqlite":
        holder = sqlite3.connect(str(make_url(database_url).database), isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    loop = asyncio.new_event_loop()
    connection = loop.run_until_complete(asyncpg.connect(database_url.replace("+asyncpg", "")))
    try:
        loop.run_until_complete(connection.execute(
            f"BEGIN; LOCK TABLE {tables} IN EXCLUSIVE MODE"))
        yield
    finally:
        loop.run_until_complete(connection.close())
        loop.close()


class StepsNotStored(logging.Handler):
    """Counts the room's reports of steps that did not go through."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.changed = threading.Condition()

    def emit(self, record: logging.LogRecord) -> None:
        if "not stored" in record.getMessage() or "failed" in record.getMessage():
            with self.changed:
                self.count += 1
                self.changed.notify_all()

    def wait_for(self, count: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: self.count >= count, timeout=30), self.count


@pytest.fixture
def not_stored() -> Iterator[StepsNotStored]:
    handler = StepsNotStored()
    logger = logging.getLogger("app.rooms.room")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def app_client(database_url: str, **settings: object) -> TestClient:
    limits = {"ws_messages_per_second": 1000.0, "ws_message_burst": 1000.0}
    return TestClient(create_app(make_settings(database_url, db_lock_timeout=LOCK_WAIT, **limits,
                                               **settings), run_migrations=False))


def room_of(http: TestClient, room_id: str) -> Room:
    room: Room = http.app.state.rooms.rooms[room_id]  # type: ignore[attr-defined]
    return room


def late_spectator_sees(http: TestClient, room_id: str) -> Message:
    """The state a spectator who connects now is shown (every connection is sent it again too)."""
    with Client(http, None).connected(room_id) as late:
        assert late.last_state is not None
        return late.last_state


def seed_shown(frames: list[Message], deal: int) -> bool:
    return any(entry["deal"] == deal and entry["server_seed"] for frame in frames
               if frame["type"] == "state" and frame["fairness"] for entry in frame["fairness"]["deals"])


def same_room(before: Message, after: Message) -> None:
    for key in ("version", "room", "view", "legal", "fairness"):
        assert after[key] == before[key], key


@dataclass
class Watched:
    """A connection's state before a step, and where its frames since then begin."""

    client: Client
    before: Message
    mark: int


def watch(clients: list[Client], version: int) -> list[Watched]:
    watched = []
    for client in clients:
        before = client.state_where(lambda m: m["version"] >= version)
        assert before["version"] == version
        watched.append(Watched(client, before, len(client.received)))
    return watched


def unchanged_until_the_step(watched: list[Watched]) -> list[Message]:
    """Each connection's first state after the one it had: one version later, and every state it
    was sent in between is the one it had. Returns those states."""
    steps = []
    for each in watched:
        version = each.before["version"]
        step = each.client.state_where(lambda m, v=version: m["version"] > v)
        assert step["version"] == version + 1
        between = [frame for frame in each.client.received[each.mark:-1] if frame["type"] == "state"]
        for frame in between:
            same_room(each.before, frame)
        steps.append(step)
    return steps


def test_an_azi_fold_that_ends_a_deal_changes_nothing_until_it_is_stored(database_url: str) -> None:
    with app_client(database_url) as http, ExitStack() as stack:
        table = AziTable(http, stack, 2, {"first_dealer": 0, "turn_seconds": 0}, prefix="Fold")
        spectator = stack.enter_context(Client(http, None).connected(table.room_id))
        table.start()
        bet = table.act(1, BET10)
        live = room_of(http, table.room_id).deals
        watched = watch([*table.players, spectator], bet["version"])
        assert not seed_shown([watched[2].before], live)
        chips = table.chips()

        with write_lock(database_url):
            table.players[0].act(FOLD, ref="fold-1")
            error = table.players[0].error()
            assert error["code"] == "server/not_stored" and error["ref"] == "fold-1"
            assert "nothing changed" in error["message"]
            same_room(watched[2].before, late_spectator_sees(http, table.room_id))
            assert table.chips() == chips
        assert room_of(http, table.room_id).dealer.seeds[live].revealed is False

        table.players[0].act(FOLD, ref="fold-1")
        steps = unchanged_until_the_step(watched)
        assert seed_shown(steps[2:], live), "the seed shows once the end of its deal is stored"
        assert table.chips() != chips


def joker_widow_seeds(server_seed: str) -> list[str]:
    """Client seeds that, with this server seed, leave the Joker as the widow of deal 1."""
    pack = ENGINES["hasenpfeffer"].full_deck()
    for attempt in range(10_000):
        seeds = [f"{attempt:016x}{seat:016x}" for seat in range(4)]
        if card_texts(deck_order(pack, server_seed, seeds, 1))[WIDOW] == "JK":
            return seeds
    raise AssertionError("no seeds found")


def pass_in_turn(players: list[Client], state: Message, ref: str) -> Client:
    speaker = players[state["view"]["to_act"][0]]
    speaker.act({"kind": "pass"}, ref=ref)
    return speaker


def test_the_last_pass_of_a_thrown_in_deal_changes_nothing_until_it_is_stored(
        database_url: str) -> None:
    with app_client(database_url, seed_wait=60.0) as http, ExitStack() as stack:
        players = [Client(http, f"Pass {seat}") for seat in range(4)]
        room_id = players[0].create_room("hasenpfeffer", {"first_dealer": 0}, private=True)
        seat_all(players, room_id, stack)
        spectator = stack.enter_context(Client(http, None).connected(room_id))
        players[0].send({"type": "start"})
        players[0].state_where(lambda m: bool(m["fairness"] and m["fairness"]["deals"]))
        seeds = joker_widow_seeds(room_of(http, room_id).dealer.seeds[1].server_seed)
        for seat, player in enumerate(players):
            player.send({"type": "seed", "deal": 1, "seed": seeds[seat]})
        state = spectator.state_where(lambda m: m["view"]["phase"] == "bidding")
        for turn in range(3):
            pass_in_turn(players, state, f"pass-{turn}")
            state = spectator.state_where(lambda m, v=state["version"]: m["version"] > v)
        watched = watch([*players, spectator], state["version"])
        assert all("JK" not in each.before["view"]["hand"] for each in watched[:4]), "the widow"

        with write_lock(database_url):
            assert pass_in_turn(players, state, "pass-3").error()["code"] == "server/not_stored"
            same_room(watched[4].before, late_spectator_sees(http, room_id))

        pass_in_turn(players, state, "pass-3")
        steps = unchanged_until_the_step(watched)
        assert steps[4]["view"]["phase"] != "bidding" and seed_shown(steps[4:], 1)


def test_a_timed_out_decision_changes_nothing_until_it_is_stored(
        database_url: str, not_stored: StepsNotStored) -> None:
    with app_client(database_url, missed_turns_limit=1) as http, ExitStack() as stack:
        table = AziTable(http, stack, 2, {"first_dealer": 0, "turn_seconds": 1}, prefix="Slow")
        spectator = stack.enter_context(Client(http, None).connected(table.room_id))
        dealt = table.start()
        assert dealt["view"]["to_act"] == [1] and dealt["view"]["deadlines"]
        watched = watch([*table.players, spectator], dealt["version"])
        with write_lock(database_url):
            not_stored.wait_for(1)
            shown = late_spectator_sees(http, table.room_id)
            same_room(watched[2].before, shown)
            assert shown["room"]["seats"][1]["autopilot"] is False, "the bot takes over with the step"
        steps = unchanged_until_the_step(watched)
        assert steps[2]["room"]["seats"][1]["autopilot"] is True


def test_a_seat_change_changes_nothing_until_it_is_stored(database_url: str) -> None:
    with app_client(database_url) as http:
        owner = Client(http, "Sitter")
        room_id = owner.create_room("hazari")
        with owner.connected(room_id):
            before = owner.last_state
            assert before is not None
            with write_lock(database_url):
                owner.send({"type": "sit", "seat": 0})
                assert owner.error()["code"] == "server/not_stored"
                shown = late_spectator_sees(http, room_id)
                assert (shown["version"], shown["room"]) == (before["version"], before["room"])
            owner.send({"type": "sit", "seat": 0})
            seated = owner.state_where(lambda m: m["room"]["seats"][0]["player_id"] == owner.id)
            assert seated["version"] == before["version"] + 1


def test_an_http_write_that_cannot_be_stored_is_answered_busy(database_url: str) -> None:
    with app_client(database_url) as http:
        owner = Client(http, "Builder")
        body = {"game": "hazari", "options": {}, "private": False}
        before = http.get("/api/rooms").json()
        with write_lock(database_url, "rooms"):
            refused = http.post("/api/rooms", headers=owner.auth, json=body)
        assert refused.status_code == 503, refused.text
        assert refused.json()["error"]["code"] == "server/busy"
        assert refused.headers["Retry-After"] == "1"
        assert http.get("/api/rooms").json() == before
        created = http.post("/api/rooms", headers=owner.auth, json=body)
        assert created.status_code == 201, created.text
        assert http.get("/api/rooms").json()[0]["id"] == created.json()["id"]
