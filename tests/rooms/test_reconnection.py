"""Dropped connections, several tabs, re-sent actions, turn timers and the bot that holds a seat."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient
from support import Client, make_settings
from support.hazari import arranging, start, up

from app.main import create_app


@pytest.fixture
def quick(fresh_sqlite_url: str, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    grace = getattr(request, "param", 60.0)
    settings = make_settings(fresh_sqlite_url, grace_period=grace)
    with TestClient(create_app(settings, run_migrations=False)) as test_client:
        yield test_client


def test_a_dropped_player_comes_back_to_the_full_state(quick: TestClient) -> None:
    players = [Client(quick, f"R{seat}") for seat in range(4)]
    with ExitStack() as stack:
        room_id = start(players, stack)
        hand = arranging(players[2])["view"]["hand"]
        up(players[0], "a")
        players[2].state_where(lambda m: m["view"]["up"][0])
        stack.close()
    with ExitStack() as stack:
        for player in (players[0], players[1], players[3]):
            stack.enter_context(player.connected(room_id))
        seen = players[0].state_where(lambda m: m["room"]["seats"][2]["connected"] is False)
        assert seen["room"]["seats"][2]["autopilot"] is False
        stack.enter_context(players[2].connected(room_id))
        back = players[2].last_state
        assert back is not None
        assert back["view"]["hand"] == hand and back["view"]["up"] == [True, False, False, False]
        assert back["legal"] == [{"kind": "up"}]
        players[0].state_where(lambda m: m["room"]["seats"][2]["connected"] is True)
        for player in players[1:]:
            up(player, "b")
        assert players[0].state_where(lambda m: m["view"]["phase"] in ("showing", "dealing", "arranging")
                                      and m["view"]["scores"] != [0, 0, 0, 0])["view"]["scores"][1] == 360


def test_two_tabs_of_one_player_both_follow_the_table(quick: TestClient) -> None:
    players = [Client(quick, f"T{seat}") for seat in range(4)]
    second_tab = Client(quick, None)
    second_tab.token, second_tab.id = players[1].token, players[1].id
    with ExitStack() as stack:
        room_id = start(players, stack)
        stack.enter_context(second_tab.connected(room_id))
        assert second_tab.last_state is not None and second_tab.last_state["view"]["seat"] == 1
        up(second_tab, "from-tab-2")
        first = players[1].state_where(lambda m: m["view"]["up"][1])
        assert first["view"]["arrangement"] is not None
        second_tab.state_where(lambda m: m["view"]["up"][1])


def test_a_resent_action_is_applied_once(quick: TestClient) -> None:
    players = [Client(quick, f"I{seat}") for seat in range(4)]
    with ExitStack() as stack:
        room_id = start(players, stack)
        up(players[3], "same-id")
        applied = players[3].state_where(lambda m: m["view"]["up"][3])
        up(players[3], "same-id")
        error = players[3].error()
        assert error["code"] == "action/already_applied" and error["ref"] == "same-id"
        assert "already applied" in error["message"]
        players[3].send({"type": "sit", "seat": 3})
        after = players[3].until(lambda m: m["type"] == "state")
        assert after["version"] == applied["version"]
        detail = quick.get(f"/api/matches/{after['room']['match_id']}").json()
    assert detail["status"] == "running" and detail["room_id"] == room_id


def test_a_late_player_gets_the_bots_move_and_then_the_bot_holds_his_seat(quick: TestClient) -> None:
    players = [Client(quick, f"L{seat}") for seat in range(4)]
    with ExitStack() as stack:
        start(players, stack, arrange_seconds=1)
        state = arranging(players[1])
        deadline = state["view"]["deadline"]
        assert deadline is not None and 0 < deadline - time.time() <= 1.5
        assert set(state["view"]["deadlines"]) == {"0", "1", "2", "3"}
        for player in players[:3]:
            up(player, "d1")
        timed = players[0].state_where(lambda m: m["view"]["up"] == [True, True, True, True])
        assert timed["room"]["seats"][3]["autopilot"] is False
        for player in players[:3]:
            up(player, "d2", deal=2)
        second = players[0].state_where(lambda m: m["view"].get("deal_number") == 2 and all(m["view"]["up"]))
        assert second["room"]["seats"][3]["autopilot"] is True
        third = players[0].state_where(lambda m: m["view"].get("deal_number") == 3 and m["view"]["up"][3])
        assert third["view"]["up"] == [False, False, False, True], "the bot now plays for him at once"
        players[3].send({"type": "sit", "seat": 3})
        back = players[3].state_where(lambda m: m["room"]["seats"][3]["autopilot"] is False)
        assert back["room"]["seats"][3]["connected"] is True


@pytest.mark.parametrize("quick", [0.3], indirect=True)
def test_after_the_grace_period_a_bot_plays_for_the_absent_player(quick: TestClient) -> None:
    players = [Client(quick, f"G{seat}") for seat in range(4)]
    with ExitStack() as stack:
        room_id = start(players, stack, arrange_seconds=0)
        stack.close()
    with ExitStack() as stack:
        for player in players[:3]:
            stack.enter_context(player.connected(room_id))
        held = players[0].state_where(lambda m: m["room"]["seats"][3]["autopilot"] is True)
        assert held["room"]["seats"][3]["connected"] is False
        players[0].state_where(lambda m: m["view"]["up"][3])
        stack.enter_context(players[3].connected(room_id))
        players[0].state_where(lambda m: m["room"]["seats"][3]["autopilot"] is False)
