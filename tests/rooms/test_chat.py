"""Table chat and reactions through the real app: who may write, what a line may hold, the chat's
own rate limit, the history sent on joining, and the lines kept with the match."""

from __future__ import annotations

from contextlib import ExitStack
from datetime import datetime

import pytest
from starlette.testclient import TestClient
from support import Client, Message, make_settings, seat_all
from support.hazari import GROUPS, SEAT_ONE_WINS, hand_text

from app.main import create_app
from app.rooms.chat import REACTIONS


class Clock:
    """The chat limit's clock, moved by hand."""

    def __init__(self) -> None:
        self.moment = 1000.0

    def __call__(self) -> float:
        return self.moment


@pytest.fixture
def clock(client: TestClient) -> Clock:
    moved = Clock()
    client.app.state.chat_limit.clock = moved  # type: ignore[attr-defined]
    return moved


def chat(message: Message) -> bool:
    return message["type"] == "chat"


def refusal(player: Client, code: str) -> Message:
    error = player.error()
    assert error["code"] == code, error
    return error


def table(client: TestClient, count: int = 2, **options: object) -> tuple[list[Client], str]:
    players = [Client(client, f"Chatter {number}") for number in range(count)]
    room_id = players[0].create_room("hazari", dict(options), private=True)
    return players, room_id


def test_a_line_goes_to_everyone_in_the_room_with_who_said_it(client: TestClient) -> None:
    players, room_id = table(client)
    watcher = Client(client, None)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        stack.enter_context(watcher.connected(room_id))
        players[0].send({"type": "chat", "text": "  good luck, all  "})
        for listener in (*players, watcher):
            line = listener.until(chat)
            assert set(line) == {"type", "from", "text", "at"}
            assert line["from"] == {"player_id": players[0].id, "name": "Chatter 0", "seat": 0}
            assert line["text"] == "good luck, all"
            assert datetime.fromisoformat(line["at"]).tzinfo is not None
        players[1].send({"type": "chat", "text": "thanks"})
        assert players[0].until(chat)["from"]["seat"] == 1


def test_200_characters_pass_and_201_are_refused_not_cut(client: TestClient, clock: Clock) -> None:
    players, room_id = table(client)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "chat", "text": "x" * 201})
        assert "201" in refusal(players[0], "chat/too_long")["message"]
        players[0].send({"type": "chat", "text": "y" * 200})
        assert players[1].until(chat)["text"] == "y" * 200, "the refused line was never sent"


def test_a_10000_character_line_and_a_binary_frame_are_refused(client: TestClient) -> None:
    players, room_id = table(client)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "chat", "text": "z" * 10_000})
        refusal(players[0], "message/too_big")
        players[0].send({"type": "chat", "text": "still here"})
        assert players[1].until(chat)["text"] == "still here"
        assert players[0].ws is not None
        players[0].ws.send_bytes(b'{"type": "chat", "text": "binary"}')
        refusal(players[0], "message/not_text")
        heard_before = len(players[1].received)
        players[1].state_where(lambda m: m["room"]["seats"][0]["connected"] is False)
        assert not any(chat(message) for message in players[1].received[heard_before:])


@pytest.mark.parametrize(("text", "code"), [
    ("   ", "chat/empty"),
    ("", "chat/empty"),
    ("two\nlines", "chat/control_character"),
    ("nul\u0000here", "chat/control_character"),
    ("bell\u0007", "chat/control_character"),
    ("reversed \u202etxt.exe", "chat/control_character"),
])
def test_empty_lines_and_control_characters_are_refused(client: TestClient, text: str, code: str) -> None:
    players, room_id = table(client)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "chat", "text": text})
        refusal(players[0], code)
        players[0].send({"type": "chat", "text": "after"})
        assert players[1].until(chat)["text"] == "after"


@pytest.mark.parametrize("text", [42, None, ["hi"], {"text": "hi"}])
def test_a_text_that_is_not_a_string_is_refused(client: TestClient, text: object) -> None:
    players, room_id = table(client, count=1)
    with players[0].connected(room_id):
        players[0].send({"type": "chat", "text": text})
        refusal(players[0], "message/invalid")


def test_markup_comes_back_as_the_literal_text(client: TestClient) -> None:
    players, room_id = table(client)
    markup = '<img src=x onerror="alert(1)"><b>bold</b> &amp; <script>x()</script>'
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "chat", "text": markup})
        assert players[1].until(chat)["text"] == markup


def test_reactions_from_the_fixed_set_and_unknown_keys_refused(client: TestClient, clock: Clock) -> None:
    players, room_id = table(client)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        for key in ("rage", "GOOD_GAME", "", "<b>gg</b>"):
            players[0].send({"type": "react", "reaction": key})
            refusal(players[0], "chat/unknown_reaction")
        for key in REACTIONS[:5]:
            players[0].send({"type": "react", "reaction": key})
            line = players[1].until(chat)
            assert line["reaction"] == key and "text" not in line
            assert line["from"]["seat"] == 0


def test_the_rate_limit_allows_a_burst_of_five_then_one_a_second(client: TestClient, clock: Clock) -> None:
    players, room_id = table(client)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        for number in range(4):
            players[0].send({"type": "chat", "text": f"line {number}"})
        players[0].send({"type": "react", "reaction": "wow"})
        players[0].send({"type": "chat", "text": "one too many"})
        refusal(players[0], "chat/rate_limited")
        players[0].send({"type": "react", "reaction": "oops"})
        refusal(players[0], "chat/rate_limited")
        heard = [players[1].until(chat) for _ in range(5)]
        assert [line.get("text", line.get("reaction")) for line in heard] == [
            "line 0", "line 1", "line 2", "line 3", "wow"]
        clock.moment += 0.5
        players[0].send({"type": "chat", "text": "too soon"})
        refusal(players[0], "chat/rate_limited")
        clock.moment += 0.5
        players[0].send({"type": "chat", "text": "a second later"})
        assert players[1].until(chat)["text"] == "a second later"
        players[0].send({"type": "chat", "text": "and again"})
        refusal(players[0], "chat/rate_limited")
        players[1].send({"type": "chat", "text": "my own bucket"})
        assert players[0].until(chat)["text"] == "my own bucket"
        players[0].send({"type": "sit", "seat": 2})
        players[0].state_where(lambda m: m["room"]["seats"][2]["player_id"] == players[0].id)


def test_the_chat_limit_is_a_setting(fresh_sqlite_url: str) -> None:
    settings = make_settings(fresh_sqlite_url, chat_burst=2, chat_lines_per_second=0.001)
    with TestClient(create_app(settings, run_migrations=False)) as http:
        players, room_id = table(http)
        with ExitStack() as stack:
            seat_all(players, room_id, stack)
            players[0].send({"type": "chat", "text": "one"})
            players[0].send({"type": "chat", "text": "two"})
            players[0].send({"type": "chat", "text": "three"})
            refusal(players[0], "chat/rate_limited")


def test_spectators_read_but_do_not_write_by_default(client: TestClient) -> None:
    players, room_id = table(client, count=1)
    watcher, anonymous = Client(client, "Watcher"), Client(client, None)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        stack.enter_context(watcher.connected(room_id))
        stack.enter_context(anonymous.connected(room_id))
        assert players[0].last_state is not None
        assert players[0].last_state["room"]["options"]["spectator_chat"] is False
        watcher.send({"type": "chat", "text": "can I talk?"})
        refusal(watcher, "chat/spectators_read_only")
        watcher.send({"type": "react", "reaction": "wow"})
        refusal(watcher, "chat/spectators_read_only")
        anonymous.send({"type": "chat", "text": "me?"})
        refusal(anonymous, "chat/sign_in")
        players[0].send({"type": "chat", "text": "only players here"})
        assert watcher.until(chat)["text"] == "only players here"
        assert anonymous.until(chat)["text"] == "only players here"


def test_a_room_may_let_its_spectators_chat(client: TestClient) -> None:
    players, room_id = table(client, count=1, spectator_chat=True)
    watcher, anonymous = Client(client, "Watcher"), Client(client, None)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        stack.enter_context(watcher.connected(room_id))
        stack.enter_context(anonymous.connected(room_id))
        watcher.send({"type": "chat", "text": "hello from the rail"})
        line = players[0].until(chat)
        assert line["from"] == {"player_id": watcher.id, "name": "Watcher", "seat": None}
        anonymous.send({"type": "chat", "text": "me?"})
        refusal(anonymous, "chat/sign_in")


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_a_bad_spectator_chat_option_is_refused(client: TestClient, value: object) -> None:
    owner = Client(client, "Owner")
    response = client.post("/api/rooms", headers=owner.auth,
                           json={"game": "hazari", "options": {"spectator_chat": value}, "private": True})
    if value is None:
        assert response.status_code == 201 and response.json()["options"]["spectator_chat"] is False
    else:
        assert response.status_code == 400 and "spectator_chat" in response.json()["error"]["message"]


def test_joining_and_reconnecting_bring_the_last_50_lines(client: TestClient, clock: Clock) -> None:
    players, room_id = table(client)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        for number in range(60):
            clock.moment += 1
            players[number % 2].send({"type": "chat", "text": f"line {number}"})
        players[0].until(lambda m: chat(m) and m["text"] == "line 59")
        players[1].until(lambda m: chat(m) and m["text"] == "line 59")
        stack.close()
    late = Client(client, "Late")
    for joining in (players[0], late):
        with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            ws.send_json({"type": "auth", "token": joining.token})
            types = []
            while types[-3:-2] != ["authenticated"]:
                message = ws.receive_json()
                types.append(message["type"])
            # A socket is a spectator's until its auth message: the history comes after each first state.
            assert types == ["state", "chat_history", "authenticated", "state", "chat_history"]
            lines = message["lines"]
            assert [line["text"] for line in lines] == [f"line {number}" for number in range(10, 60)]
            assert set(lines[0]) == {"from", "text", "at"}
            assert lines[-1]["from"] == {"player_id": players[1].id, "name": "Chatter 1", "seat": 1}


def play_one_deal_match(players: list[Client]) -> Message:
    for player in players:
        state = player.state_where(lambda m: m["view"]["phase"] == "arranging")
        player.act({"kind": "up", "groups": GROUPS[hand_text(state)]})
    return players[0].state_where(lambda m: m["room"]["status"] == "finished")


def test_the_match_keeps_its_chat_in_time_with_its_steps(db_client: TestClient) -> None:
    players = [Client(db_client, f"Kept {seat}") for seat in range(4)]
    room_id = players[0].create_room("hazari", {"target": 300, "decks": [SEAT_ONE_WINS],
                                                "first_dealer": 0}, private=True)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "chat", "text": "before the start"})
        players[1].until(chat)
        players[0].send({"type": "start"})
        players[0].state_where(lambda m: m["view"]["phase"] == "arranging")
        players[2].send({"type": "react", "reaction": "thinking"})
        players[0].until(chat)
        running = players[0].last_state
        assert running is not None
        match_id = running["room"]["match_id"]
        final = play_one_deal_match(players)
        players[1].send({"type": "chat", "text": "<i>gg</i>"})
        players[0].until(chat)
        steps = len(db_client.get(f"/api/matches/{match_id}").json()["actions"])
        assert final["room"]["match_id"] == match_id
    lines = []
    for _ in range(200):
        lines = db_client.get(f"/api/matches/{match_id}").json()["chat"]
        if len(lines) == 2:
            break
    said = [(line["from"]["seat"], line.get("text"), line.get("reaction"), line["after_seq"])
            for line in lines]
    assert said == [(2, None, "thinking", 1), (1, "<i>gg</i>", None, steps)]
    assert all(line["at"].endswith("Z") for line in lines)


def test_lines_are_stored_by_a_clean_shutdown_and_come_back_after_a_restart(fresh_sqlite_url: str) -> None:
    settings = make_settings(fresh_sqlite_url)
    with TestClient(create_app(settings, run_migrations=False)) as http:
        players, room_id = table(http)
        with ExitStack() as stack:
            seat_all(players, room_id, stack)
            for text in ("first", "second"):
                players[0].send({"type": "chat", "text": text})
                players[1].until(chat)
            players[1].send({"type": "react", "reaction": "laugh"})
            players[0].until(chat)
    with (TestClient(create_app(settings, run_migrations=False)) as http,
          http.websocket_connect(f"/ws/rooms/{room_id}") as ws):
        message = ws.receive_json()
        while message["type"] != "chat_history":
            message = ws.receive_json()
    said = [line.get("text", line.get("reaction")) for line in message["lines"]]
    assert said == ["first", "second", "laugh"]

