"""Bad input at the edge: every kind gets an error naming the problem, and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from support import Client, Message, deck_for_hands, make_settings, seat_all
from test_hazari_protocol import GROUPS, STRONG, deck_giving, hand_text

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
