"""Abuse at the edge: floods, binary frames, too many sockets or rooms, and a fuzzer throwing random and
mutated messages at a room in play. The server never falls over, every answer is a state or an error,
and the game and its chips stay consistent."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from support import Client, Message, make_settings, seat_all

from app.db.ledger import player_account, pot_account
from app.db.session import close_engine, make_engine, make_sessionmaker
from app.db.store import Store
from app.games.cards import standard_deck
from app.main import create_app


def app_client(url: str, **overrides: object) -> TestClient:
    return TestClient(create_app(make_settings(url, **overrides), run_migrations=False))


def test_a_flood_is_cut_off_with_1008_after_an_error(fresh_sqlite_url: str) -> None:
    with app_client(fresh_sqlite_url, ws_messages_per_second=5, ws_message_burst=10) as client:
        owner = Client(client, "Flood")
        room_id = owner.create_room("hazari")
        with client.websocket_connect(f"/ws/rooms/{room_id}?token={owner.token}") as ws:
            ws.receive_json()
            for _ in range(30):
                ws.send_text(json.dumps({"type": "sit", "seat": 0}))
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    codes.append(ws.receive_json().get("code"))
            assert closed.value.code == 1008
            assert codes[-1] == "message/rate_limited"


def test_binary_frames_are_refused_with_1003(client: TestClient) -> None:
    owner = Client(client, "Binary")
    room_id = owner.create_room("hazari")
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        ws.receive_json()
        ws.send_bytes(b"\x00\x01")
        assert ws.receive_json()["code"] == "message/not_text"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1003


def test_connections_per_address_and_rooms_per_player_are_limited(fresh_sqlite_url: str) -> None:
    with app_client(fresh_sqlite_url, max_connections_per_ip=2, max_rooms_per_player=2) as client:
        owner = Client(client, "Greedy")
        rooms = [owner.create_room("hazari") for _ in range(2)]
        third = client.post("/api/rooms", json={"game": "hazari"}, headers=owner.auth)
        assert third.status_code == 400 and third.json()["error"]["code"] == "room/too_many"
        with ExitStack() as stack:
            for _ in range(2):
                stack.enter_context(client.websocket_connect(f"/ws/rooms/{rooms[0]}")).receive_json()
            with client.websocket_connect(f"/ws/rooms/{rooms[0]}") as ws:
                assert ws.receive_json()["code"] == "limit/connections"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == 1008
        with client.websocket_connect(f"/ws/rooms/{rooms[0]}") as ws:
            assert ws.receive_json()["type"] == "state", "closed sockets free their place"


CARDS = [str(card) for card in standard_deck()] + ["JK", "1S", "AX", "", "10", "ZZZ"]
ACTIONS = st.one_of(
    st.fixed_dictionaries({"kind": st.sampled_from(["up", "bet", "call", "raise", "fold", "play",
                                                    "discard", "buy_in", "decline", "leave", "x"])}),
    st.fixed_dictionaries({"kind": st.just("up"), "groups": st.lists(
        st.lists(st.sampled_from(CARDS), max_size=5), max_size=5)}),
    st.fixed_dictionaries({"kind": st.sampled_from(["bet", "raise"]),
                           "amount": st.one_of(st.integers(-10, 3000), st.floats(), st.text(max_size=3),
                                               st.booleans(), st.none()),
                           "to": st.one_of(st.integers(-10, 3000), st.text(max_size=3))}),
    st.fixed_dictionaries({"kind": st.sampled_from(["play", "discard"]), "card": st.sampled_from(CARDS)}),
    st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=3),
)
MESSAGES = st.one_of(
    st.builds(lambda a, i: json.dumps({"type": "act", "id": i, "action": a}), ACTIONS,
              st.one_of(st.none(), st.text(max_size=8))),
    st.builds(lambda s: json.dumps({"type": "sit", "seat": s}), st.integers(-2, 8) | st.text(max_size=2)),
    st.sampled_from([json.dumps({"type": t}) for t in ("stand", "start", "hint", "close", "nope")]),
    st.builds(lambda s: json.dumps({"type": "add_bot", "seat": s}), st.integers(-1, 7)),
    st.text(max_size=40),
    st.binary(max_size=20).map(lambda b: b.decode("latin-1")),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                           max_size=3),
                 max_leaves=8).map(json.dumps),
)


@pytest.fixture
def fuzz_table(fresh_sqlite_url: str) -> Iterator[tuple[TestClient, list[Client], str, str]]:
    with app_client(fresh_sqlite_url, ws_messages_per_second=10_000, ws_message_burst=10_000) as client:
        players = [Client(client, f"Fuzz {seat}") for seat in range(3)]
        room_id = players[0].create_room("azi", {"stake": 10})
        with ExitStack() as stack:
            seat_all(players, room_id, stack)
            players[0].send({"type": "start"})
            state = players[0].state_where(lambda m: m["view"]["phase"] not in ("waiting",))
            for player in players:
                # What came before the start (the others' arrivals among it) is read and set aside.
                player.state_where(lambda m: m["view"]["phase"] != "waiting")
                player.received.clear()
            yield client, players, room_id, state["room"]["match_id"]


def ledger(url: str, player_ids: list[str], match_id: str) -> tuple[list[int], int]:
    """Each player's balance and the match's pot, as the database holds them."""
    async def read() -> tuple[list[int], int]:
        engine = make_engine(url)
        store = Store(make_sessionmaker(engine))
        try:
            balances = [await store.balance(player_account(pid)) for pid in player_ids]
            return balances, await store.balance(pot_account(match_id))
        finally:
            await close_engine(engine)
    return asyncio.run(read())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(st.tuples(st.integers(0, 2), MESSAGES), min_size=1, max_size=12))
def test_fuzzed_messages_never_break_the_room(
        fuzz_table: tuple[TestClient, list[Client], str, str], fresh_sqlite_url: str,
        batch: list[tuple[int, str]]) -> None:
    client, players, room_id, match_id = fuzz_table
    for seat, text in batch:
        players[seat].send(text)
        state = players[seat].last_state
        if state and state["legal"]:
            players[seat].act(plausible_action(state["legal"][0]))
    for player in players:
        player.act({"kind": "sync"}, ref="sync")
        player.until(lambda m: m.get("ref") == "sync")
        assert {m["type"] for m in player.received} <= {"state", "error", "hint"}
        player.received.clear()
    assert client.get("/api/health").json() == {"status": "ok"}
    room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    while True:
        version, state = room.version, room.state
        balances, pot = ledger(fresh_sqlite_url, [p.id for p in players if p.id], match_id)
        if room.version == version:
            break
    assert sum(balances) + pot == 3000, "no chip created or lost"
    assert pot == state.pot
    assert balances == list(state.stacks)


def plausible_action(entry: Message) -> Message:
    """A valid-looking action built from a legal entry, sent at a random moment of the game."""
    action: Message = {"kind": entry["kind"]}
    if "card" in entry:
        action["card"] = entry["card"]
    if entry["kind"] == "bet":
        action["amount"] = entry["min"]
    if entry["kind"] == "raise":
        action["to"] = entry["min"]
    return action
