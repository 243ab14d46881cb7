"""``GET /api/matches/{id}/replay``: the views after each step of a finished match of every game,
checked against the engine replaying the same log, deal by deal, face up and per seat; and the
refusals of an unknown or unfinished match and of a bad deal or seat (an archived match's refusal is
in ``test_archive.py``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient
from support import Client, seat_all, seat_owner_with_bots
from support.azi import AZI_PACK
from support.hazari import hazari_match
from support.played_matches import app_client, people, play_out, with_bots

from app.games.base import JSON, Seating
from app.games.cards import parse_cards
from app.games.registry import ENGINES
from app.games.replay import face_up_view, replay_step


@pytest.fixture(scope="module")
def http(sqlite_template: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    copy = tmp_path_factory.mktemp("replay_views") / "cardroom.db"
    copy.write_bytes(sqlite_template.read_bytes())
    with app_client(f"sqlite+aiosqlite:///{copy}") as client:
        yield client


def azi_with_discards(http: TestClient) -> str:
    """Two people at a 4-card Azi table (each discards one card), until one leaves."""
    rng = random.Random(7)
    decks = [rng.sample(AZI_PACK, len(AZI_PACK)) for _ in range(60)]
    players = people(http, "Views", 2)
    room_id = players[0].create_room("azi", {"stake": 10, "hand_size": 4, "decks": decks,
                                             "first_dealer": 0}, private=True)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "start"})
        final = play_out(dict(enumerate(players)), rng, leave=True)
    match_id: str = final["room"]["match_id"]
    return match_id


@pytest.fixture(scope="module")
def matches(http: TestClient) -> dict[str, str]:
    return {"hazari": hazari_match(people(http, "Hazari", 4)),
            "hazari-bots": with_bots(http, "hazari", {"target": 300}, bots=3, seed=2),
            "hasenpfeffer": with_bots(http, "hasenpfeffer", {"target": 1}, bots=3, seed=3),
            "azi": azi_with_discards(http)}


def engine_views(detail: JSON, seat: int | None) -> list[JSON]:
    """The view after every logged step (the first before any), from the engine step by step."""
    engine = ENGINES[detail["game"]]
    players = len(detail["seats"])
    stacks = tuple(detail["stacks"]) if detail["stacks"] else None
    state = engine.start(detail["options"], Seating(players, detail["first_dealer"], stacks))
    decks = {deal["number"]: parse_cards(deal["deck"]) for deal in detail["deals"]}

    def show(state: Any) -> JSON:
        return face_up_view(engine, state, players) if seat is None else engine.view(state, seat)

    views = [show(state)]
    for entry in detail["actions"]:
        state = replay_step(engine, state, entry["seat"], entry["action"], decks)
        views.append(show(state))
    return views


def replay_of(http: TestClient, match_id: str, **params: Any) -> JSON:
    response = http.get(f"/api/matches/{match_id}/replay", params=params)
    assert response.status_code == 200, response.text
    body: JSON = response.json()
    return body


@pytest.mark.parametrize("name", ["hazari", "hazari-bots", "hasenpfeffer", "azi"])
def test_every_deal_face_up_is_the_engines_view_after_each_step(
        http: TestClient, matches: dict[str, str], name: str) -> None:
    detail = http.get(f"/api/matches/{matches[name]}").json()
    expected = engine_views(detail, None)
    seen: list[JSON] = []
    for number in range(1, len(detail["deals"]) + 1):
        deal = replay_of(http, detail["id"], deal=number)
        assert (deal["match_id"], deal["game"], deal["deal"], deal["seat"]) == (
            detail["id"], detail["game"], number, None)
        assert deal["deals"] == len(detail["deals"])
        first = deal["steps"][0]["number"]
        assert deal["before"] == expected[first - 1]
        assert deal["steps"][0]["action"] == {"kind": "deal", "deal": number}
        for step in deal["steps"]:
            entry = detail["actions"][step["number"] - 1]
            assert (step["seq"], step["seat"], step["action"]) == (
                entry["seq"], entry["seat"], entry["action"])
            assert step["view"] == expected[step["number"]]
            seen.append(step)
    assert [step["number"] for step in seen] == list(range(1, len(detail["actions"]) + 1))
    dealt = [seat["hand"] for seat in seen[0]["view"]["seats"]]
    assert all(dealt) or name == "azi", "after the deal every hand is shown"


def test_the_events_of_each_step_are_the_engines(http: TestClient, matches: dict[str, str]) -> None:
    """Hazari rounds with their winners, Hasenpfeffer tricks, Azi deals: as the engine emits them."""
    kinds = {}
    for name in ("hazari", "hasenpfeffer", "azi"):
        deal = replay_of(http, matches[name])
        kinds[name] = {event["type"] for step in deal["steps"] for event in step["events"]}
        assert any(event["type"] == "deal_end" for event in deal["steps"][-1]["events"]) or name == "azi"
    assert {"deal_start", "up", "round", "deal_end"} <= kinds["hazari"]
    assert {"deal", "trick", "deal_end"} <= kinds["hasenpfeffer"]
    assert {"deal", "discard", "play"} <= kinds["azi"]


@pytest.mark.parametrize("name", ["hazari", "hasenpfeffer", "azi"])
def test_a_seats_own_view_after_each_step(http: TestClient, matches: dict[str, str], name: str) -> None:
    detail = http.get(f"/api/matches/{matches[name]}").json()
    seat = len(detail["seats"]) - 1
    expected = engine_views(detail, seat)
    deal = replay_of(http, detail["id"], deal=1, seat=seat)
    assert deal["seat"] == seat
    for step in deal["steps"]:
        assert step["view"] == expected[step["number"]]
        assert "seats" not in step["view"] and step["view"]["seat"] == seat


def test_face_up_hazari_names_each_arranged_groups_combination(http: TestClient,
                                                               matches: dict[str, str]) -> None:
    deal = replay_of(http, matches["hazari"])
    arranged = deal["steps"][-1]["view"]["seats"]
    for seat in arranged:
        assert len(seat["arrangement_categories"]) == 4
        assert all(1 <= category <= 6 for category in seat["arrangement_categories"])


def refusal(http: TestClient, path: str, **params: Any) -> tuple[int, str]:
    response = http.get(path, params=params)
    code: str = response.json()["error"]["code"]
    return response.status_code, code


def test_bad_requests_are_refused_and_change_nothing(http: TestClient, matches: dict[str, str]) -> None:
    match_id = matches["hazari"]
    path = f"/api/matches/{match_id}/replay"
    before = http.get(f"/api/matches/{match_id}").json()
    assert refusal(http, "/api/matches/nothere/replay") == (404, "match/not_found")
    assert refusal(http, path, deal=2) == (422, "request/invalid")
    assert refusal(http, path, deal=0) == (422, "request/invalid")
    assert refusal(http, path, deal="one") == (422, "request/invalid")
    assert refusal(http, path, seat=4) == (422, "request/invalid")
    assert refusal(http, path, seat=-1) == (422, "request/invalid")
    assert refusal(http, path, step=3) == (400, "request/unknown_filter")
    assert http.get(f"/api/matches/{match_id}").json() == before


def test_a_match_in_play_has_no_replay_yet(http: TestClient) -> None:
    owner = Client(http, "Still playing")
    room_id = owner.create_room("hazari", {"target": 5000}, private=True)
    with owner.connected(room_id):
        seat_owner_with_bots(owner)
        owner.send({"type": "start"})
        state = owner.state_where(lambda m: m["room"]["match_id"] is not None and bool(m["legal"]))
        match_id = state["room"]["match_id"]
        assert refusal(http, f"/api/matches/{match_id}/replay") == (409, "match/not_finished")
