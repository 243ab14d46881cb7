"""Time a player can see and plan for: the arrangement's own timer, a draft the timeout completes, and
the notice that says what the autopilot did."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient
from support import Client, Message, make_settings
from support.azi import AziTable
from support.hazari import GROUPS, THIRD, arranging, hand_text, start

from app.main import create_app

PLAYERS = 4


@pytest.fixture
def limit_one(database_url: str) -> Iterator[TestClient]:
    """The autopilot holds a seat after one missed decision."""
    with TestClient(create_app(make_settings(database_url, missed_turns_limit=1),
                               run_migrations=False)) as http:
        yield http


def notice(player: Client) -> Message:
    return player.until(lambda m: m["type"] == "notice")


def test_hazari_rooms_time_the_arrangement_apart_from_single_decisions(db_client: TestClient) -> None:
    owner = Client(db_client, "Owner")
    games = {game["game"]: [option["name"] for option in game["options"]]
             for game in db_client.get("/api/games").json()}
    assert "arrange_seconds" in games["hazari"] and "arrange_seconds" not in games["azi"]
    public = owner.create_room("hazari")
    private = owner.create_room("hazari", private=True)
    rooms = {room["id"]: room for room in db_client.get("/api/rooms").json()}
    assert rooms[public]["options"]["arrange_seconds"] == 120
    assert rooms[public]["options"]["turn_seconds"] == 30
    with owner.connected(private):
        options = owner.last_state["room"]["options"] if owner.last_state else {}
    assert options["arrange_seconds"] == 0 and options["turn_seconds"] == 0


@pytest.mark.parametrize(("game", "options", "wanted"), [
    ("hazari", {"arrange_seconds": 3601}, "at most 3600"),
    ("hazari", {"arrange_seconds": -1}, "at least 0"),
    ("hazari", {"arrange_seconds": "120"}, "whole number"),
    ("azi", {"arrange_seconds": 60}, "arrange_seconds"),
])
def test_a_bad_arrange_seconds_is_refused(db_client: TestClient, game: str, options: Message,
                                          wanted: str) -> None:
    owner = Client(db_client, "Owner")
    response = db_client.post("/api/rooms", headers=owner.auth,
                              json={"game": game, "options": options, "private": False})
    assert response.status_code == 400
    assert wanted in response.json()["error"]["message"]
    assert all(room["owner"] != owner.id for room in db_client.get("/api/rooms").json())


def test_the_deadline_of_an_arrangement_follows_arrange_seconds(db_client: TestClient) -> None:
    players = [Client(db_client, f"D{seat}") for seat in range(PLAYERS)]
    with ExitStack() as stack:
        start(players, stack, arrange_seconds=600, turn_seconds=1)
        state = arranging(players[2])
    deadline = state["view"]["deadline"]
    assert deadline is not None and 590 < deadline - time.time() <= 600
    assert set(state["view"]["deadlines"]) == {"0", "1", "2", "3"}


def test_a_timeout_completes_the_draft_and_says_so(limit_one: TestClient) -> None:
    players = [Client(limit_one, f"T{seat}") for seat in range(PLAYERS)]
    slow = players[3]
    with ExitStack() as stack:
        start(players, stack, arrange_seconds=1)
        assert hand_text(arranging(slow)) == THIRD
        slow.send({"type": "draft", "groups": [["6S", "6H", "6D"], [], [], ["4S"]]})
        drafted = slow.state_where(lambda m: "draft" in m["view"])
        assert drafted["view"]["draft"] == [["6S", "6H", "6D"], [], [], ["4S"]]
        for player in players[:3]:
            player.act({"kind": "up", "groups": GROUPS[hand_text(arranging(player))]})
        told = notice(slow)
        seen = notice(players[0])
        done = slow.state_where(lambda m: m["view"]["up"][3])
        others = players[0].last_state
        slow.send({"type": "sit", "seat": 3})
        back = slow.state_where(lambda m: m["room"]["seats"][3]["autopilot"] is False)
    made = told.pop("action")
    assert made["kind"] == "up" and made["groups"] == done["view"]["arrangement"]
    assert told == {"type": "notice", "code": "timer/expired", "seat": 3, "name": "T3", "autopilot": True,
                    "drafted": True,
                    "text": "Time ran out: the autopilot completed your arrangement. It keeps playing "
                            "for you until you take your seat back."}
    assert seen["seat"] == 3 and seen["text"].startswith("Time ran out for T3: the autopilot decided")
    assert seen["name"] == "T3" and seen["autopilot"] is True
    assert "action" not in seen and "drafted" not in seen and "6S" not in json.dumps(seen)
    groups = done["view"]["arrangement"]
    assert sorted(groups[0]) == ["6D", "6H", "6S"] and "4S" in groups[3]
    assert done["room"]["seats"][3]["autopilot"] is True
    assert others is not None and "draft" not in others["view"]
    assert all("draft" not in m.get("view", {}) for m in players[0].received)
    assert back["room"]["seats"][3]["connected"] is True


def test_a_timeout_with_an_empty_draft_arranges_the_hand(limit_one: TestClient) -> None:
    players = [Client(limit_one, f"N{seat}") for seat in range(PLAYERS)]
    with ExitStack() as stack:
        start(players, stack, arrange_seconds=1)
        players[3].send({"type": "draft", "groups": [[], [], [], []]})
        players[3].state_where(lambda m: "draft" in m["view"])
        for player in players[:3]:
            player.act({"kind": "up", "groups": GROUPS[hand_text(arranging(player))]})
        told = notice(players[3])
    assert told["text"].startswith("Time ran out: the autopilot arranged your hand for you.")


@pytest.mark.parametrize(("groups", "code"), [
    ([["6S", "6H", "6D", "5S"]], "action/group_sizes"),
    ([["AS"]], "action/card_not_in_hand"),
    ([["6S"], ["6S"]], "action/duplicate_card"),
    ([[], [], [], [], ["6S"]], "action/group_sizes"),
    ("6S 6H", "action/bad_groups"),
    ([["ZZ"]], "action/bad_card"),
])
def test_a_bad_draft_is_refused_and_changes_nothing(db_client: TestClient, groups: object,
                                                    code: str) -> None:
    players = [Client(db_client, f"B{seat}") for seat in range(PLAYERS)]
    with ExitStack() as stack:
        start(players, stack)
        before = arranging(players[3])
        players[3].send({"type": "draft", "groups": groups})
        error = players[3].error()
        players[3].send({"type": "hint"})
        players[3].until(lambda m: m["type"] == "hint")
    assert error["code"] == code
    assert "draft" not in (players[3].last_state or before)["view"]


def test_only_an_arrangement_can_be_drafted(db_client: TestClient) -> None:
    with ExitStack() as stack:
        table = AziTable(db_client, stack, 2, {"first_dealer": 0})
        table.start()
        table.owner.send({"type": "draft", "groups": [["AS"]]})
        error = table.owner.error()
    assert error["code"] == "room/no_draft"


def test_a_timed_out_azi_decision_is_told_in_words(limit_one: TestClient) -> None:
    with ExitStack() as stack:
        table = AziTable(limit_one, stack, 2, {"first_dealer": 0, "turn_seconds": 1})
        opening = table.start()
        slow = opening["view"]["to_act"][0]
        told = notice(table.players[slow])
        seen = notice(table.players[1 - slow])
    assert told["seat"] == slow and told["text"].startswith("Time ran out: the autopilot bet ")
    assert told["text"].endswith("It keeps playing for you until you take your seat back.")
    assert seen["text"].startswith(f"Time ran out for {table.players[slow].name}: the autopilot decided")
