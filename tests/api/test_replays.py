"""Replays: whole matches of every game are played through the app, then rebuilt from what
``GET /api/matches/{id}`` gives alone (options, first dealer, stacks, decks, the log). Replaying the
log through the engine must reproduce each deal's points and the result."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient
from support import Client, game_result, seat_all, seat_owner_with_bots
from support.played_matches import app_client, concrete, play_out, with_bots

from app.games.base import JSON, Engine, Seating
from app.games.cards import parse_cards
from app.games.registry import ENGINES
from app.games.replay import replay, replay_transition


@pytest.fixture
def fast_client(fresh_sqlite_url: str) -> Iterator[TestClient]:
    with app_client(fresh_sqlite_url) as http:
        yield http


def replay_from_api(detail: JSON) -> tuple[dict[int, list[int]], Any]:
    """Rebuild the match from its API detail alone: each deal's points as the engine scores them
    on replay, and the final state (through :func:`app.games.replay.replay`)."""
    engine: Engine[Any, Any] = ENGINES[detail["game"]]
    stacks = tuple(detail["stacks"]) if detail["stacks"] else None
    seating = Seating(players=len(detail["seats"]), first_dealer=detail["first_dealer"], stacks=stacks)
    decks = {deal["number"]: parse_cards(deal["deck"]) for deal in detail["deals"]}
    steps = [(entry["seat"], entry["action"]) for entry in detail["actions"]]
    state = engine.start(detail["options"], seating)
    points: dict[int, list[int]] = {}
    for seat, action in steps:
        step = replay_transition(engine, state, seat, action, decks)
        for event in step.events:
            if event["type"] == "deal_end":
                points[event["number"]] = list(event["points"])
        state = step.state
    final = replay(engine, detail["options"], seating, decks, steps)
    assert engine.view(final, None) == engine.view(state, None)
    return points, final


def check_replay(http: TestClient, match_id: str) -> JSON:
    detail: JSON = http.get(f"/api/matches/{match_id}").json()
    assert detail["status"] == "finished"
    assert all(deal["deck"] is not None and "fairness" in deal for deal in detail["deals"])
    points, final = replay_from_api(detail)
    stored = {deal["number"]: deal["points"] for deal in detail["deals"] if deal["points"] is not None}
    assert points == stored and stored, "every deal scores on replay as it did in play"
    outcome = ENGINES[detail["game"]].outcome(final)
    assert outcome is not None and outcome.to_json() == game_result(detail["result"])
    return detail


# Random bots bid at random in Hasenpfeffer, which ruins both sides: only a target of 1 ends for sure.
@pytest.mark.parametrize(("game", "options"), [
    ("hazari", {"target": 300}),
    ("hasenpfeffer", {"target": 1}),
    ("hasenpfeffer", {"target": 1, "bidding": "pepper", "first_lead": "bidder"}),
])
def test_a_match_with_bots_replays_from_the_api(fast_client: TestClient, game: str,
                                                options: dict[str, Any]) -> None:
    detail = check_replay(fast_client, with_bots(fast_client, game, options, bots=3, seed=11))
    assert [seat["bot"] for seat in detail["seats"]] == [False, True, True, True]


def test_four_people_play_hasenpfeffer_to_ten_and_it_replays(fast_client: TestClient) -> None:
    players = [Client(fast_client, f"Hasen {seat}") for seat in range(4)]
    room_id = players[0].create_room("hasenpfeffer", {}, private=True)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "start"})
        final = play_out(dict(enumerate(players)), random.Random(4))
    detail = check_replay(fast_client, final["room"]["match_id"])
    assert len(detail["deals"]) >= 2 and max(detail["result"]["totals"]) >= 10


def test_azi_sessions_between_people_replay_from_the_api(fresh_sqlite_url: str) -> None:
    """Two and three people at an Azi table (with stacks from their chips), until one leaves."""
    with app_client(fresh_sqlite_url, reveal_pause=0.2) as http:
        for count, seed in ((2, 5), (3, 6)):
            players = [Client(http, f"Azi {count}-{seat}") for seat in range(count)]
            room_id = players[0].create_room("azi", {"stake": 10}, private=True)
            with ExitStack() as stack:
                seat_all(players, room_id, stack)
                players[0].send({"type": "start"})
                final = play_out(dict(enumerate(players)), random.Random(seed), leave=True)
            detail = check_replay(http, final["room"]["match_id"])
            assert detail["stacks"] == [1000] * count


def test_a_replay_from_the_api_reproduces_a_running_matchs_finished_deals(
        fast_client: TestClient) -> None:
    """While a match runs, the deals already scored replay too (the deal in play is hidden)."""
    client = fast_client
    owner = Client(client, "Watcher")
    room_id = owner.create_room("hazari", {"target": 5000}, private=True)
    with owner.connected(room_id):
        seat_owner_with_bots(owner)
        owner.send({"type": "start"})
        rng = random.Random(3)
        for _deal in range(2):
            state = owner.state_where(lambda m: bool(m["legal"]))
            owner.act(concrete(state["legal"][0], state["view"], rng))
            owner.state_where(lambda m: not m["legal"])
        owner.state_where(lambda m: m["view"]["phase"] == "arranging" and m["view"]["deal_number"] == 3)
        detail = client.get(f"/api/matches/{state['room']['match_id']}").json()
    assert detail["status"] == "running"
    scored = [deal for deal in detail["deals"] if deal["points"] is not None]
    assert len(scored) == 2 and detail["deals"][-1]["deck"] is None
    detail["deals"] = scored
    detail["actions"] = [entry for entry in detail["actions"] if entry["deal"] <= 2]
    points, _ = replay_from_api(detail)
    assert points == {deal["number"]: deal["points"] for deal in scored}
