"""Pacing: a finished deal's result stays until every player present asks for the next deal (or the
pause runs out); bots and spectators never hold it up."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient
from support import Client, Message, make_settings, seat_all, seat_owner_with_bots
from test_hazari_protocol import GROUPS, deck_giving, hand_text

from app.main import create_app

DECKS = [deck_giving(1, dealer=0)] * 4
LONG = 600.0


def app_with_pause(database_url: str, seconds: float) -> TestClient:
    return TestClient(create_app(make_settings(database_url, deal_pause_seconds=seconds),
                                 run_migrations=False))


@pytest.fixture
def long_pause(database_url: str) -> Iterator[TestClient]:
    with app_with_pause(database_url, LONG) as http:
        yield http


@pytest.fixture
def short_pause(database_url: str) -> Iterator[TestClient]:
    with app_with_pause(database_url, 0.2) as http:
        yield http


def arranging(player: Client, deal: int) -> Message:
    return player.state_where(lambda m: m["view"].get("deal") == deal and m["view"]["phase"] == "arranging")


def play_deal(players: list[Client], deal: int) -> None:
    for player in players:
        player.act({"kind": "up", "groups": GROUPS[hand_text(arranging(player, deal))]})


def deal_ended(player: Client) -> Message:
    return player.state_where(lambda m: m["view"].get("next_deal") is not None)


def start_four(players: list[Client], stack: ExitStack) -> str:
    room_id = players[0].create_room("hazari", {"decks": DECKS, "first_dealer": 0, "target": 1000}, True)
    seat_all(players, room_id, stack)
    players[0].send({"type": "start"})
    return room_id


def finish_first_deal(players: list[Client], stack: ExitStack) -> Message:
    """Four people play deal 1; the state as seat 0 sees it once the deal has ended."""
    start_four(players, stack)
    play_deal(players, 1)
    return deal_ended(players[0])


def test_the_next_deal_waits_until_every_player_asks_for_it(long_pause: TestClient) -> None:
    players = [Client(long_pause, f"W{seat}") for seat in range(4)]
    with ExitStack() as stack:
        ended = finish_first_deal(players, stack)
        for seat in (0, 1, 2):
            players[seat].send({"type": "next_deal"})
            players[3].state_where(lambda m, s=seat: s in (m["view"]["next_deal"] or {}).get("ready", []))
        waiting = players[3].last_state
        players[3].send({"type": "next_deal"})
        second = arranging(players[0], 2)
    assert ended["view"]["phase"] == "dealing" and ended["view"]["deal"] == 1
    assert ended["view"]["next_deal"]["ready"] == [] and ended["view"]["next_deal"]["waiting"] == [0, 1, 2, 3]
    assert ended["view"]["last_deal_points"] is not None
    assert waiting is not None and waiting["view"]["deal"] == 1
    assert waiting["view"]["next_deal"]["waiting"] == [3]
    assert waiting["version"] == ended["version"], "asking for the next deal changes no stored step"
    assert second["view"]["next_deal"] is None


def test_the_next_deal_comes_when_the_pause_runs_out(short_pause: TestClient) -> None:
    players = [Client(short_pause, f"S{seat}") for seat in range(4)]
    with ExitStack() as stack:
        ended = finish_first_deal(players, stack)
        second = arranging(players[0], 2)
    assert ended["view"]["next_deal"]["ready"] == []
    assert second["view"]["deal"] == 2


def test_bots_and_spectators_never_hold_up_the_next_deal(long_pause: TestClient) -> None:
    owner = Client(long_pause, "Owner")
    spectator = Client(long_pause, None)
    room_id = owner.create_room("hazari", {"decks": DECKS, "first_dealer": 0}, private=True)
    with ExitStack() as stack:
        stack.enter_context(owner.connected(room_id))
        stack.enter_context(spectator.connected(room_id))
        seat_owner_with_bots(owner)
        owner.send({"type": "start"})
        play_deal([owner], 1)
        ended = deal_ended(owner)
        owner.send({"type": "next_deal"})
        second = arranging(owner, 2)
        watched = spectator.state_where(lambda m: m["view"].get("deal") == 2)
    assert ended["view"]["next_deal"]["waiting"] == [0]
    assert second["view"]["deal"] == 2 and watched["view"]["deal"] == 2


def test_asking_for_a_next_deal_while_none_is_waited_for_is_refused(long_pause: TestClient) -> None:
    players = [Client(long_pause, f"R{seat}") for seat in range(4)]
    spectator = Client(long_pause, None)
    with ExitStack() as stack:
        room_id = start_four(players, stack)
        before = arranging(players[0], 1)
        players[0].send({"type": "next_deal"})
        error = players[0].error()
        stack.enter_context(spectator.connected(room_id))
        spectator.send({"type": "next_deal"})
        refused = spectator.error()
        players[0].send({"type": "hint"})
        players[0].until(lambda m: m["type"] == "hint")
    assert error["code"] == "room/no_deal_pause" and "no deal has just ended" in error["message"]
    assert refused["code"] == "auth/spectator"
    assert players[0].last_state is not None and players[0].last_state["version"] == before["version"]
