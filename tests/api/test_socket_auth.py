"""Signing a room socket in: the first message ``{"type": "auth", "token"}`` (or ``?token=``), and a
revoked token ending every socket opened with it at once (close 4401), in every room."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from support import Client, Message
from support.accounts import claim, closing, refusal, sign_in, unique
from support.played_matches import app_client


@pytest.fixture
def http(database_url: str) -> Iterator[TestClient]:
    with app_client(database_url) as client:
        yield client


def frame_where(ws: WebSocketTestSession, predicate: Callable[[Message], bool]) -> Message:
    while not predicate(frame := ws.receive_json()):
        pass
    return frame


def seat_of(state: Message, player_id: str | None) -> Message:
    return next((seat for seat in state["room"]["seats"] if seat["player_id"] == player_id),
                {"seat": None, "connected": False})


def test_the_auth_message_signs_the_socket_in(http: TestClient) -> None:
    owner = Client(http, unique("Owner"))
    room_id = owner.create_room("hazari")
    with owner.connected(room_id):
        assert [m["type"] for m in owner.received[:2]] == ["state", "authenticated"]
        assert owner.received[1] == {"type": "authenticated", "player_id": owner.id, "name": owner.name}
        owner.send({"type": "sit", "seat": 2})
        state = owner.state_where(lambda m: m["room"]["seats"][2]["player_id"] == owner.id)
        assert state["view"]["hand"] == []


def test_a_wrong_token_in_the_auth_message_is_refused_and_closed(http: TestClient) -> None:
    room_id = Client(http, unique("Owner")).create_room("hazari")
    for token in ("forged", "x" * 256):
        with http.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "auth", "token": token})
            frames, code = closing(ws)
        assert code == 1008
        assert refusal(frames) == {"type": "error", "code": "auth/bad_token",
                                   "message": "that token belongs to no player", "ref": None}


def test_an_auth_message_that_is_not_first_is_refused(http: TestClient) -> None:
    player = Client(http, unique("Late"))
    room_id = player.create_room("hazari")
    with http.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        ws.send_json({"type": "stand"})
        ws.send_json({"type": "auth", "token": player.token})
        late = frame_where(ws, lambda m: m["type"] == "error" and m["code"] == "auth/not_first")
        assert late["message"] == ("the auth message must be the socket's first message; open a new "
                                   "socket and send it first")
        ws.send_json({"type": "sit", "seat": 0})
        assert frame_where(ws, lambda m: m["type"] == "error")["code"] != "auth/not_first"
    with player.connected(room_id):
        assert player.last_state is not None
        assert all(seat["player_id"] is None for seat in player.last_state["room"]["seats"])


def test_a_socket_signed_in_on_its_address_takes_no_auth_message(http: TestClient) -> None:
    player = Client(http, unique("Twice"))
    room_id = player.create_room("hazari")
    with http.websocket_connect(f"/ws/rooms/{room_id}?token={player.token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "auth", "token": player.token})
        assert ws.receive_json()["code"] == "auth/already_signed_in"
        for bad in ({"type": "auth"}, {"type": "auth", "token": 7}, {"type": "auth", "token": ""}):
            ws.send_json(bad)
            assert ws.receive_json()["code"] == "message/invalid"


def test_signing_out_everywhere_closes_every_socket_of_the_tokens_at_once(http: TestClient) -> None:
    name = unique("Leaver")
    leaver = Client(http, name)
    claim(http, leaver)
    other_browser = sign_in(http, name).json()["token"]
    watcher = Client(http, unique("Watcher"))
    rooms = [watcher.create_room("hazari"), watcher.create_room("azi", {"stake": 10})]
    with ExitStack() as stack:
        stack.enter_context(watcher.connected(rooms[0]))
        sockets = []
        for room_id, token in ((rooms[0], leaver.token), (rooms[1], other_browser)):
            ws = stack.enter_context(http.websocket_connect(f"/ws/rooms/{room_id}"))
            ws.send_json({"type": "auth", "token": token})
            ws.send_json({"type": "sit", "seat": 1})
            sockets.append(ws)
        by_url = stack.enter_context(http.websocket_connect(f"/ws/rooms/{rooms[1]}?token={leaver.token}"))
        sockets.append(by_url)
        watcher.state_where(lambda m: seat_of(m, leaver.id)["connected"])

        assert http.delete("/api/sessions", headers=leaver.auth).status_code == 204
        held = http.app.state.rooms  # type: ignore[attr-defined]
        assert not [conn for room_id in rooms for conn in held.get(room_id).connections
                    if conn.player_id == leaver.id], "a revoked token's socket is still in its room"

        for ws in sockets:
            frames, code = closing(ws)
            assert code == 4401
            assert refusal(frames)["code"] == "auth/revoked"
        state = watcher.state_where(lambda m: not seat_of(m, leaver.id)["connected"])
        assert seat_of(state, leaver.id)["seat"] == 1
        watcher.send({"type": "sit", "seat": 0})
        watcher.state_where(lambda m: m["room"]["seats"][0]["player_id"] == watcher.id)

    fresh = sign_in(http, name).json()["token"]
    with http.websocket_connect(f"/ws/rooms/{rooms[0]}") as ws:
        ws.send_json({"type": "auth", "token": fresh})
        assert frame_where(ws, lambda m: m["type"] == "authenticated")["player_id"] == leaver.id
        assert seat_of(frame_where(ws, lambda m: m["type"] == "state"), leaver.id)["connected"]
