"""Hazari over the real protocol: four WebSocket clients play whole matches through the ASGI app."""

from __future__ import annotations

import random
from contextlib import ExitStack

from starlette.testclient import TestClient
from support import Client, make_settings, seat_all
from support.hazari import CLUBS, GROUPS, deck_giving, hand_text

from app.games.cards import card_texts, parse_cards
from app.games.hazari.arrangements import random_arrangement
from app.main import create_app


def play_deal_with_groups(players: list[Client], deal: int) -> None:
    for player in players:
        state = player.state_where(lambda m: m["view"].get("deal_number") == deal
                                   and m["view"]["phase"] == "arranging")
        player.act({"kind": "up", "groups": GROUPS[hand_text(state)]}, ref=f"up-{deal}")


def test_fixed_decks_play_a_whole_match_with_the_expected_scores(client: TestClient) -> None:
    players = [Client(client, f"Player {seat}") for seat in range(4)]
    decks = [deck_giving(1, dealer=0), deck_giving(0, dealer=1), deck_giving(1, dealer=2)]
    room_id = players[0].create_room("hazari", {"target": 700, "decks": decks, "first_dealer": 0})
    spectator = Client(client, None)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        stack.enter_context(spectator.connected(room_id))
        players[0].send({"type": "start"})
        for deal in (1, 2, 3):
            play_deal_with_groups(players, deal)
        final = players[2].state_where(lambda m: m["view"]["phase"] == "finished")
        watched = spectator.state_where(lambda m: m["view"]["phase"] == "finished")
    assert final["view"]["scores"] == [360, 720, 0, 0]
    assert final["room"]["status"] == "finished"
    assert watched["view"]["hand"] in ([], None)
    assert final["legal"] == []

    history = client.get("/api/matches", params={"player": players[3].id}).json()
    match = history["matches"][0]
    assert match["result"]["winners"] == [1]
    assert match["result"]["totals"] == [360, 720, 0, 0]
    detail = client.get(f"/api/matches/{match['id']}").json()
    assert [deal["points"] for deal in detail["deals"]] == [[0, 360, 0, 0], [360, 0, 0, 0],
                                                             [0, 360, 0, 0]]
    assert [deal["deck"] for deal in detail["deals"]] == decks
    ups = [entry for entry in detail["actions"] if entry["action"]["kind"] == "up"]
    assert len(ups) == 12
    assert {entry["seat"] for entry in ups} == {0, 1, 2, 3}


def random_valid_groups(hand: list[str], rng: random.Random) -> list[list[str]]:
    return [card_texts(group) for group in random_arrangement(parse_cards(hand), rng)]


def test_a_full_match_to_1000_with_shuffled_decks(client: TestClient) -> None:
    rng = random.Random(7)
    players = [Client(client, f"Random {seat}") for seat in range(4)]
    room_id = players[0].create_room("hazari")
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "start"})
        deal = 1
        while True:
            states = [p.state_where(lambda m, d=deal: m["view"]["phase"] == "finished"
                                    or (m["view"].get("deal_number") == d
                                        and m["view"]["phase"] == "arranging"))
                      for p in players]
            if states[0]["view"]["phase"] == "finished":
                break
            for player, state in zip(players, states, strict=True):
                player.act({"kind": "up", "groups": random_valid_groups(state["view"]["hand"], rng)})
            deal += 1
    scores = states[0]["view"]["scores"]
    assert max(scores) >= 1000
    assert sum(scores) == 360 * (deal - 1)
    detail = client.get(f"/api/matches/{states[0]['room']['match_id']}").json()
    assert all(sum(d["points"]) == 360 for d in detail["deals"])
    assert detail["status"] == "finished"


def test_rounds_are_revealed_one_at_a_time_after_the_pause(fresh_sqlite_url: str) -> None:
    settings = make_settings(fresh_sqlite_url, reveal_pause=0.05)
    with TestClient(create_app(settings, run_migrations=False)) as paced:
        players = [Client(paced, f"Paced {seat}") for seat in range(4)]
        room_id = players[0].create_room("hazari", {"decks": [deck_giving(1, dealer=0)],
                                                    "first_dealer": 0})
        with ExitStack() as stack:
            seat_all(players, room_id, stack)
            players[0].send({"type": "start"})
            play_deal_with_groups(players, 1)
            showing = players[0].state_where(lambda m: m["view"]["phase"] == "showing")
            players[3].act({"kind": "up", "groups": GROUPS[CLUBS]}, ref="late")
            error = players[3].error()
            assert error["code"] == "action/not_your_turn" and error["ref"] == "late"
            revealed = [showing]
            while len(revealed[-1]["view"]["rounds"]) < 4:
                revealed.append(players[0].until(lambda m: m["type"] == "state"))
    counts = [len(state["view"]["rounds"]) for state in revealed]
    assert counts == list(range(counts[0], 5))
    versions = [state["version"] for state in revealed]
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    assert [r["winner"] for r in revealed[-1]["view"]["rounds"]] == [1, 1, 1, 1]
    assert [r["leader"] for r in revealed[-1]["view"]["rounds"]] == [1, 1, 1, 1]
