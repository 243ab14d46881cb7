"""Replays: whole matches of every game are played through the app, then rebuilt from what
``GET /api/matches/{id}`` gives alone (options, first dealer, stacks, decks, the log). Replaying the
log through the engine must reproduce each deal's points and the result."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient
from support import Client, Message, game_result, make_settings

from app.config import Settings
from app.games.base import JSON, Engine, Seating
from app.games.cards import card_texts, parse_cards
from app.games.hazari.arrangements import random_arrangement
from app.games.registry import ENGINES
from app.games.replay import replay, replay_transition
from app.main import create_app

# These tests send many moves quickly: lift the per-connection message rate limit where there is one.
UNLIMITED = {"ws_messages_per_second": 1e6, "ws_message_burst": 1e6}


@contextmanager
def app_client(database_url: str, **overrides: object) -> Iterator[TestClient]:
    """The app in test mode, with no pauses and no message rate limit."""
    lifted = {name: value for name, value in UNLIMITED.items() if name in Settings.model_fields}
    settings = make_settings(database_url, **{**lifted, **overrides})
    with TestClient(create_app(settings, run_migrations=False)) as http:
        yield http


@pytest.fixture
def fast_client(fresh_sqlite_url: str) -> Iterator[TestClient]:
    with app_client(fresh_sqlite_url) as http:
        yield http


def concrete(entry: JSON, view: JSON, rng: random.Random) -> JSON:
    """A move a person could send for one entry of ``legal``, amounts drawn within their range."""
    kind = entry["kind"]
    if kind == "up":
        groups = random_arrangement(parse_cards(view["hand"]), rng)
        return {"kind": "up", "groups": [card_texts(group) for group in groups]}
    if kind == "bet":
        return {"kind": "bet", "amount": rng.randint(entry["min"], entry["max"])}
    if kind == "raise":
        return {"kind": "raise", "to": rng.randint(entry["min"], entry["max"])}
    if kind == "call":
        return {"kind": "call"}
    return dict(entry)


def choose(legal: list[JSON], view: JSON, rng: random.Random) -> JSON:
    """A person's move: at random, except in a Hasenpfeffer auction, where the first to speak bids
    the least and the others pass (random bidding ruins both sides, and a match to a target would
    seldom end)."""
    bids = [entry for entry in legal if entry["kind"] == "bid"]
    if bids and view.get("high_bid") is None:
        return bids[0]
    if {"kind": "pass"} in legal:
        return {"kind": "pass"}
    return concrete(rng.choice(legal), view, rng)


def is_over(state: Message) -> bool:
    return bool(state["room"]["status"] == "finished")


def play_out(humans: Mapping[int, Client], rng: random.Random, *, leave: bool = False,
             limit: int = 20_000) -> Message:
    """Drive the seated ``humans`` (seat to client, all connected) with random legal moves until the
    match is over; the first of them watches every state in order. With ``leave``, a human leaves
    an Azi table at the first break between games. Returns the last state the watcher saw."""
    watcher = next(iter(humans.values()))
    acted: dict[int, int] = {}
    for _ in range(limit):
        state = watcher.until(lambda m: m["type"] == "state")
        if is_over(state):
            return state
        version = state["version"]
        for seat, human in humans.items():
            if acted.get(seat, -1) >= version:
                continue
            waiting = seat in state["view"].get("to_act", [])
            if not waiting and not (leave and seat == next(iter(humans))):
                continue
            own = state if human is watcher else human.until(
                lambda m, v=version: m["type"] == "state" and m["version"] >= v)
            legal = own["legal"]
            if leave and legal == [{"kind": "leave"}]:
                human.act({"kind": "leave"})
                acted[seat] = own["version"]
            elif waiting and legal:
                human.act(choose(legal, own["view"], rng))
                acted[seat] = own["version"]
    raise AssertionError("the match did not end")


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


def with_bots(http: TestClient, game: str, options: dict[str, Any], bots: int, seed: int) -> str:
    """One guest at seat 0 and random bots after it play a whole match; returns the match id."""
    owner = Client(http, f"Replayer {game}")
    room_id = owner.create_room(game, options, private=True)
    with owner.connected(room_id):
        owner.send({"type": "sit", "seat": 0})
        owner.state_where(lambda m: m["room"]["seats"][0]["player_id"] == owner.id)
        for seat in range(1, bots + 1):
            owner.send({"type": "add_bot", "seat": seat, "level": "random"})
        owner.state_where(lambda m: all(s["bot"] for s in m["room"]["seats"][1:bots + 1]))
        owner.send({"type": "start"})
        final = play_out({0: owner}, random.Random(seed))
    match_id: str = final["room"]["match_id"]
    return match_id


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
        for seat, player in enumerate(players):
            stack.enter_context(player.connected(room_id))
            player.send({"type": "sit", "seat": seat})
            player.state_where(lambda m, s=seat, p=player: m["room"]["seats"][s]["player_id"] == p.id)
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
                for seat, player in enumerate(players):
                    stack.enter_context(player.connected(room_id))
                    player.send({"type": "sit", "seat": seat})
                    player.state_where(lambda m, s=seat, p=player: m["room"]["seats"][s]["player_id"] == p.id)
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
        owner.send({"type": "sit", "seat": 0})
        owner.state_where(lambda m: m["room"]["seats"][0]["player_id"] == owner.id)
        for seat in (1, 2, 3):
            owner.send({"type": "add_bot", "seat": seat, "level": "random"})
        owner.state_where(lambda m: m["room"]["seats"][3]["bot"])
        owner.send({"type": "start"})
        rng = random.Random(3)
        for _deal in range(2):
            state = owner.state_where(lambda m: bool(m["legal"]))
            owner.act(concrete(state["legal"][0], state["view"], rng))
            owner.state_where(lambda m: not m["legal"])
        owner.state_where(lambda m: m["view"]["phase"] == "arranging" and m["view"]["deal"] == 3)
        detail = client.get(f"/api/matches/{state['room']['match_id']}").json()
    assert detail["status"] == "running"
    scored = [deal for deal in detail["deals"] if deal["points"] is not None]
    assert len(scored) == 2 and detail["deals"][-1]["deck"] is None
    detail["deals"] = scored
    detail["actions"] = [entry for entry in detail["actions"] if entry["deal"] <= 2]
    points, _ = replay_from_api(detail)
    assert points == {deal["number"]: deal["points"] for deal in scored}
