"""Bad input at the edge: every kind gets an error naming the problem, and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from support import Client, Message, deck_for_hands, make_settings, seat_all
from support.azi import AziTable, refused
from support.hazari import GROUPS, STRONG, deck_giving, hand_text
from support.live import LiveClient, LiveServer
from websockets.exceptions import ConnectionClosed

from app.games.azi.actions import MAX_AMOUNT
from app.games.base import OptionSpec
from app.main import create_app

ORDERED = deck_giving(1, dealer=0)


def hand_of(player: Client) -> str:
    return hand_text(player.state_where(lambda m: m["view"]["phase"] == "arranging"))


@pytest.fixture
def started(client: TestClient) -> Iterator[tuple[list[Client], str]]:
    players = [Client(client, f"P{seat}") for seat in range(4)]
    room_id = players[0].create_room("hazari", {"decks": [ORDERED] * 30, "first_dealer": 0})
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "start"})
        for player in players:
            player.state_where(lambda m: m["view"]["phase"] == "arranging")
        yield players, room_id


def unchanged_after(player: Client, message: Message | str, code: str) -> Message:
    """Send ``message``, expect the error ``code``, and check the room's version did not move."""
    before = player.last_state
    assert before is not None
    player.send(message)
    error = player.error()
    assert error["code"] == code, error
    assert error["message"]
    player.send({"type": "sit", "seat": before["room"]["seats"].index(
        next(s for s in before["room"]["seats"] if s["player_id"] == player.id))})
    after = player.until(lambda m: m["type"] == "state")
    assert after["version"] == before["version"]
    assert after["view"] == before["view"]
    return error


def up(groups: list[list[str]], ref: str = "r1") -> Message:
    return {"type": "act", "id": ref, "action": {"kind": "up", "groups": groups}}


def test_malformed_messages_are_refused(started: tuple[list[Client], str]) -> None:
    player = started[0][1]
    unchanged_after(player, "{not json", "message/bad_json")
    unchanged_after(player, "[1, 2]", "message/invalid")
    unchanged_after(player, {"type": "dance"}, "message/unknown_type")
    unchanged_after(player, {"type": "sit", "seat": "1"}, "message/invalid")
    unchanged_after(player, {"type": "act", "action": "up"}, "message/invalid")
    unchanged_after(player, "x" * 5000, "message/too_big")
    error = unchanged_after(player, up(GROUPS[hand_of(player)], ref="a\x00b"), "message/invalid")
    assert "id" in error["message"]


def test_illegal_arrangements_are_refused_with_the_reason(started: tuple[list[Client], str]) -> None:
    player = started[0][1]
    groups = GROUPS[hand_of(player)]
    error = unchanged_after(player, {"type": "act", "id": "a1", "action": {"kind": "fold"}},
                            "action/unknown_kind")
    assert error["ref"] == "a1"
    unchanged_after(player, up([["AS", "AH", "XX"], *groups[1:]]), "action/bad_card")
    unchanged_after(player, up([groups[3], *groups[:3]]), "action/group_sizes")
    unchanged_after(player, up([["AS", "AH", "AS"], *groups[1:]]), "action/duplicate_card")
    unchanged_after(player, up([["AS", "AH", "AC"], *groups[1:]]), "action/card_not_in_hand")
    error = unchanged_after(player, up([groups[1], groups[0], groups[2], groups[3]]),
                            "action/bad_order")
    assert "G2" in error["message"] and "G1" in error["message"]


def test_acting_twice_out_of_turn_or_as_spectator(client: TestClient,
                                                  started: tuple[list[Client], str]) -> None:
    players, room_id = started
    player = players[1]
    player.send(up(GROUPS[hand_of(player)]))
    player.state_where(lambda m: m["view"].get("up", [False] * 4)[1])
    unchanged_after(player, up(GROUPS[hand_of(player)], "again"), "action/already_up")
    spectator = Client(client, None)
    with spectator.connected(room_id):
        spectator.send(up(GROUPS[STRONG]))
        assert spectator.error()["code"] == "auth/spectator"
        spectator.send({"type": "sit", "seat": 0})
        assert spectator.error()["code"] == "auth/spectator"


def test_seats_and_start_are_guarded(client: TestClient) -> None:
    owner, guest = Client(client, "Owner"), Client(client, "Guest")
    room_id = owner.create_room("hazari")
    with owner.connected(room_id), guest.connected(room_id):
        owner.send({"type": "sit", "seat": 0})
        owner.state_where(lambda m: m["room"]["seats"][0]["player_id"] == owner.id)
        guest.send({"type": "sit", "seat": 0})
        assert guest.error()["code"] == "room/seat_taken"
        guest.send({"type": "sit", "seat": 9})
        assert guest.error()["code"] == "room/bad_seat"
        guest.send({"type": "start"})
        assert guest.error()["code"] == "room/not_owner"
        owner.send({"type": "start"})
        error = owner.error()
        assert error["code"] == "room/seats_empty" and "1 are seated" in error["message"]
        guest.send({"type": "act", "action": {"kind": "up", "groups": []}})
        assert guest.error()["code"] == "room/not_seated"


def test_acting_after_the_match_is_over(client: TestClient) -> None:
    players = [Client(client, f"F{seat}") for seat in range(4)]
    room_id = players[0].create_room("hazari", {"target": 300, "decks": [ORDERED],
                                               "first_dealer": 0})
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "start"})
        for player in players:
            player.send(up(GROUPS[hand_of(player)]))
        done = players[0].state_where(lambda m: m["view"]["phase"] == "finished")
        assert done["view"]["scores"] == [0, 360, 0, 0]
        players[0].send(up(GROUPS[STRONG], "after-the-end"))
        assert players[0].error()["code"] == "action/game_over"


def test_tokens_rooms_and_matches_that_do_not_exist(client: TestClient) -> None:
    with client.websocket_connect("/ws/rooms/nowhere") as ws:
        assert ws.receive_json()["code"] == "room/not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
    owner = Client(client, "Owner")
    room_id = owner.create_room("hazari")
    with client.websocket_connect(f"/ws/rooms/{room_id}?token=forged") as ws:
        assert ws.receive_json()["code"] == "auth/bad_token"
    assert client.post("/api/rooms", json={"game": "hazari"}).json()["error"]["code"] == \
        "auth/missing_token"
    response = client.post("/api/rooms", json={"game": "hazari"},
                           headers={"Authorization": "Bearer forged"})
    assert response.status_code == 401 and response.json()["error"]["code"] == "auth/bad_token"
    assert client.get("/api/rooms/nowhere").json()["error"]["code"] == "room/not_found"
    response = client.get("/api/matches/nowhere")
    assert response.status_code == 404 and response.json()["error"]["code"] == "match/not_found"
    assert client.get("/api/players/nowhere").status_code == 404


@pytest.mark.parametrize("limit", [0, -1, 101, 10_000])
def test_history_limit_out_of_range(client: TestClient, limit: int) -> None:
    response = client.get("/api/matches", params={"limit": limit})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "request/bad_limit"


def test_bad_room_requests(client: TestClient) -> None:
    owner = Client(client, "Owner")
    cases = [
        ({"game": "poker"}, "room/unknown_game"),
        ({"game": "hazari", "options": {"target": 999}}, "options/invalid"),
        ({"game": "hazari", "options": {"target": "1000"}}, "options/invalid"),
        ({"game": "hazari", "options": {"colour": "red"}}, "options/invalid"),
        ({"game": "hazari", "options": {"decks": [["AS"]]}}, "options/bad_deck"),
        ({"game": "hazari", "private": "yes"}, "request/invalid"),
    ]
    for body, code in cases:
        response = client.post("/api/rooms", json=body, headers=owner.auth)
        assert response.status_code in (400, 422), body
        assert response.json()["error"]["code"] == code, (body, response.json())
    assert client.post("/api/players", json={"name": "   "}).status_code == 422
    assert client.post("/api/players", content=b"{oops",
                       headers={"Content-Type": "application/json"}).status_code == 422


def test_test_mode_options_are_refused_outside_test_mode(fresh_sqlite_url: str) -> None:
    settings = make_settings(fresh_sqlite_url, test_mode=False)
    with TestClient(create_app(settings, run_migrations=False)) as plain:
        owner = Client(plain, "Owner")
        deck = deck_for_hands([STRONG.split()] * 4, 0, lambda d, i: (d + 1 + i) % 4)
        for options in ({"first_dealer": 0}, {"decks": [deck]}):
            response = plain.post("/api/rooms", json={"game": "hazari", "options": options},
                                  headers=owner.auth)
            assert response.status_code == 400
            assert response.json()["error"]["code"] == "options/test_mode_only"


FAR_OFFSETS = ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59"]


@pytest.mark.parametrize("moment", FAR_OFFSETS)
def test_a_time_that_leaves_the_calendar_in_utc_is_refused(db_client: TestClient, moment: str) -> None:
    player = Client(db_client, "Timely")
    for path in ("/api/matches", f"/api/players/{player.id}/matches.ndjson"):
        response = db_client.get(path, params={"since": moment})
        assert response.status_code == 400, response.text
        error = response.json()["error"]
        assert error["code"] == "request/bad_filter" and "since" in error["message"]


@pytest.mark.parametrize("path", ["/api/players/a%00b", "/api/matches/a%00b", "/api/rooms/a%00b",
                                  "/api/matches?player=a%00b", "/api/matches?opponent=x%00&player=y",
                                  "/api/players/a%00b/matches.ndjson", "/api/leaderboard?game=azi%00"])
def test_a_nul_byte_in_an_id_or_filter_is_named(db_client: TestClient, path: str) -> None:
    response = db_client.get(path)
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "request/bad_character"
    assert "control character" in response.json()["error"]["message"]


def test_a_nul_byte_in_a_sign_in_name_is_named(db_client: TestClient) -> None:
    response = db_client.post("/api/sessions", json={"name": "Ad\x00min", "password": "secret"})
    assert response.status_code == 422, response.text
    assert "name" in response.json()["error"]["message"]


def test_a_wrong_method_names_the_allowed_ones(client: TestClient) -> None:
    for path, allowed in (("/api/rooms", "GET, POST"), ("/api/sessions", "DELETE, POST"),
                          ("/api/health", "GET"), ("/index.html", "GET, HEAD")):
        response = client.put(path)
        assert response.status_code == 405, path
        assert response.headers["Allow"] == allowed
        assert response.json()["error"]["code"] == "request/method_not_allowed"


def test_a_body_over_the_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    declared = client.post("/api/players", json={"name": "x" * 70_000})
    assert declared.status_code == 413
    assert declared.json()["error"]["code"] == "request/too_large"
    streamed = client.post("/api/players", content=iter([b'{"name": "', b"y" * 70_000, b'"}']),
                           headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413
    assert client.post("/api/players", json={"name": "Fits"}).status_code == 201


NESTED = "[" * 2048 + "]" * 2048


@pytest.mark.parametrize(("frame", "code"), [
    (NESTED, "message/bad_json"),
    ("[" * 4096, "message/bad_json"),
    ('{"a": ' * 400 + "[" * 1000, "message/bad_json"),
    ('{"type": "act", "id": "deep", "action": {"kind": "up", "groups": ' + "[" * 1000 + "]" * 1000
     + "}}", "message/bad_json"),
    ('{"type": "sit", "seat": ' + "9" * 4000 + "}", "message/bad_json"),
    ('{"type": "sit", "seat": 1e999}', "message/bad_json"),
    ('{"type": "sit", "seat": NaN}', "message/bad_json"),
    ('{"type": "sit", "seat": 18446744073709551616}', "message/invalid"),
    ('{"type": "act", "id": "\\ud800", "action": {"kind": "fold"}}', "message/bad_json"),
    ('{"type": "act", "id": "\ud800", "action": {"kind": "fold"}}', "message/bad_json"),
    ("null", "message/invalid"),
    ("42", "message/invalid"),
    ('"sit"', "message/invalid"),
    ("", "message/bad_json"),
])
def test_any_frame_that_is_not_a_message_gets_a_clean_error(started: tuple[list[Client], str],
                                                           frame: str, code: str) -> None:
    """Deep nesting, numbers out of range, lone surrogates, JSON that is not an object: each is
    refused with an error frame, and the connection goes on as before."""
    player = started[0][1]
    error = unchanged_after(player, frame, code)
    assert error["ref"] is None
    unchanged_after(player, {"type": "act", "id": "after", "action": {"kind": "fold"}},
                    "action/unknown_kind")


def test_a_text_frame_that_is_not_utf8_closes_only_its_own_connection(tmp_path: Path) -> None:
    """The server's WebSocket stack refuses the frame (close 1007) before the room sees it; the room and
    its other connections go on."""
    with LiveServer(f"sqlite+aiosqlite:///{tmp_path / 'cardroom.db'}", tmp_path / "server.log") as server:
        owner, guest = LiveClient(server, "Owner"), LiveClient(server, "Guest")
        room_id = server.post("/api/rooms", {"game": "hazari", "options": {}}, owner.token)["id"]
        owner.connect(room_id)
        guest.connect(room_id)
        assert guest.ws is not None
        guest.ws.send(b'{"type": "sit", "seat": "\xff"}', text=True)
        with pytest.raises(ConnectionClosed) as closed:
            guest.until(lambda m: False)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        owner.send({"type": "sit", "seat": 0})
        seated = owner.state_where(lambda m: m["room"]["seats"][0]["player_id"] == owner.id)
        assert seated["room"]["seats"][0]["connected"]
        owner.close()


def test_every_numeric_option_has_a_maximum_that_is_enforced(client: TestClient) -> None:
    owner = Client(client, "Owner")
    for game in client.get("/api/games").json():
        for option in game["options"]:
            allowed = option["allowed"]
            if "choices" in allowed:
                continue
            assert "maximum" in allowed, (game["game"], option["name"])
            too_big = allowed["maximum"] + allowed.get("multiple_of", 1)
            for value in (too_big, 2**64):
                response = client.post("/api/rooms", headers=owner.auth, json={
                    "game": game["game"], "options": {option["name"]: value}})
                assert response.status_code == 400, (game["game"], option["name"], value)
                error = response.json()["error"]
                assert error["code"] == "options/invalid"
                assert f"at most {allowed['maximum']}" in error["message"]
    with pytest.raises(ValueError, match="maximum"):
        OptionSpec("rounds", 10, "a number with no upper bound", minimum=1)


def test_an_amount_beyond_the_maximum_is_refused(client: TestClient) -> None:
    with ExitStack() as stack:
        table = AziTable(client, stack, 2, {"first_dealer": 0, "turn_seconds": 0})
        table.start()
        for action in ({"kind": "bet", "amount": MAX_AMOUNT + 1}, {"kind": "bet", "amount": 2**63}):
            error = refused(table, 1, action, "action/bad_amount")
            assert f"{MAX_AMOUNT:,}" in error["message"]


class HugeView:
    """An engine whose view for one seat holds a number no JSON frame can carry."""

    def __init__(self, engine: Any, seat: int) -> None:
        self.engine, self.seat = engine, seat

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def view(self, state: Any, seat: int | None) -> Message:
        view: Message = self.engine.view(state, seat)
        return {**view, "huge": 2**64} if seat == self.seat else view


def closed_with_error(http: TestClient, room_id: str) -> None:
    """A connection that opens now is told ``server/error`` and closed with 1011."""
    with http.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        assert ws.receive_json()["code"] == "server/error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1011


def test_a_state_that_cannot_be_sent_closes_only_the_connections_it_was_for(client: TestClient) -> None:
    with ExitStack() as stack:
        table = AziTable(client, stack, 2, {"first_dealer": 0, "turn_seconds": 0})
        spectator = stack.enter_context(Client(client, None).connected(table.room_id))
        dealt = table.start()
        room = client.app.state.rooms.rooms[table.room_id]  # type: ignore[attr-defined]
        room.engine = HugeView(room.engine, 0)
        with Client(client, None).connected(table.room_id):
            pass
        assert table.players[0].error()["code"] == "server/error"
        with pytest.raises(WebSocketDisconnect) as closed:
            table.players[0].recv()
        assert closed.value.code == 1011
        left = sorted(str(conn.player_id) for conn in room.connections)
        assert left == sorted([str(table.players[1].id), "None"]), "off the room's list at once"
        table.players[1].act({"kind": "bet", "amount": 10})
        bet = spectator.state_where(lambda m: m["version"] > dealt["version"])
        assert bet["view"]["to_act"] == [0]


def test_a_room_whose_state_cannot_be_sent_keeps_no_connection(client: TestClient) -> None:
    """A room holding an option no frame can carry (as one stored before options had a maximum)."""
    owner = Client(client, "Owner")
    room_id = owner.create_room("azi")
    room = client.app.state.rooms.rooms[room_id]  # type: ignore[attr-defined]
    with owner.connected(room_id):
        room.options["stake"] = 2**64
        closed_with_error(client, room_id)
        assert owner.error()["code"] == "server/error"
        assert not room.connections
    room.options["stake"] = 10
    with Client(client, None).connected(room_id) as spectator:
        assert spectator.last_state is not None and len(room.connections) == 1


@pytest.mark.timeout(60)
def test_a_connection_whose_socket_fails_to_send_leaves_the_room(client: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    owner, guest = Client(client, "Owner"), Client(client, "Guest")
    room_id = owner.create_room("hazari")
    room = client.app.state.rooms.rooms[room_id]  # type: ignore[attr-defined]
    with owner.connected(room_id), guest.connected(room_id):
        failing = next(conn for conn in room.connections if conn.player_id == guest.id)

        async def refuse(_text: str) -> None:
            raise ValueError("this socket takes no more frames")
        monkeypatch.setattr(failing.websocket, "send_text", refuse)
        owner.send({"type": "sit", "seat": 0})
        with pytest.raises(WebSocketDisconnect) as closed:
            guest.until(lambda m: False)
        assert closed.value.code == 1011
        assert failing not in room.connections
        owner.send({"type": "sit", "seat": 1})
        moved = owner.state_where(lambda m: m["room"]["seats"][1]["player_id"] == owner.id)
        assert moved["room"]["seats"][0]["player_id"] is None
