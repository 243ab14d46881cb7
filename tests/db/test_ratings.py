"""Ratings after real matches played through the app: every player for himself (Hazari, Azi) and
partnerships (Hasenpfeffer), bots and guests left out, the history on the profile, the leaderboard.
The expected figures come from OpenSkill's Plackett-Luce model given the same teams and totals."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from openskill.models import PlackettLuce
from starlette.testclient import TestClient
from support import Client, seat_all, seat_owner_with_bots
from support.hazari import hazari_match
from support.played_matches import app_client, play_out

from app.db.ratings import places, rating_units

MODEL = PlackettLuce()
PASSWORD = "rated player"


@pytest.fixture
def http(fresh_sqlite_url: str) -> Iterator[TestClient]:
    with app_client(fresh_sqlite_url, reveal_pause=0.2) as client:
        yield client


def claimed(http: TestClient, prefix: str, count: int) -> list[Client]:
    players = [Client(http, f"{prefix} {seat}") for seat in range(count)]
    for player in players:
        response = http.post(f"/api/players/{player.id}/claim", headers=player.auth,
                             json={"password": PASSWORD})
        assert response.status_code == 200, response.text
    return players


def rating(http: TestClient, player: Client, game: str) -> dict[str, Any] | None:
    found: dict[str, Any] | None = http.get(f"/api/players/{player.id}").json()["ratings"].get(game)
    return found


Pairs = list[list[tuple[float, float]]]


def expected(before: Pairs, result: dict[str, Any]) -> Pairs:
    """What the model makes of ``before`` (per unit, its players' mu and sigma) given the result:
    winners first, then higher totals."""
    keys = [(unit in result["winners"], total) for unit, total in enumerate(result["totals"])]
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    teams = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in before]
    return [[(new.mu, new.sigma) for new in team] for team in MODEL.rate(teams, ranks=ranks)]


ONE_DEAL = {"winners": [1], "totals": [0, 360, 0, 0]}


def close(found: dict[str, Any] | None, want: tuple[float, float]) -> bool:
    assert found is not None
    return abs(found["mu"] - want[0]) < 1e-3 and abs(found["sigma"] - want[1]) < 1e-3


def prior() -> tuple[float, float]:
    fresh = MODEL.rating()
    return fresh.mu, fresh.sigma


def test_hazari_ratings_move_after_each_real_match(http: TestClient) -> None:
    players = claimed(http, "Hz", 4)
    first = hazari_match(players)
    after = expected([[prior()]] * 4, ONE_DEAL)
    for seat, player in enumerate(players):
        assert close(rating(http, player, "hazari"), after[seat][0])
    winner, loser = rating(http, players[1], "hazari"), rating(http, players[0], "hazari")
    assert winner is not None and loser is not None and winner["mu"] > 25 > loser["mu"]
    assert winner["matches"] == 1

    rotated = [players[3], players[0], players[1], players[2]]
    second = hazari_match(rotated)
    again = expected([[after[3][0]], [after[0][0]], [after[1][0]], [after[2][0]]], ONE_DEAL)
    for seat, player in enumerate(rotated):
        assert close(rating(http, player, "hazari"), again[seat][0])

    profile = http.get(f"/api/players/{players[0].id}").json()
    assert [entry["match_id"] for entry in profile["rating_history"]] == [second, first]
    assert profile["ratings"]["hazari"]["matches"] == 2
    latest = profile["rating_history"][0]
    assert latest["game"] == "hazari" and latest["ordinal"] == profile["ratings"]["hazari"]["ordinal"]
    detail = http.get(f"/api/matches/{second}").json()
    assert detail["rated"] is True
    assert {entry["player_id"] for entry in detail["ratings"]} == {player.id for player in players}

    board = http.get("/api/leaderboard", params={"game": "hazari"}).json()
    assert board["game"] == "hazari"
    assert [entry["rank"] for entry in board["players"]] == [1, 2, 3, 4]
    ordinals = [entry["ordinal"] for entry in board["players"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert board["players"][0]["player_id"] == players[0].id, "won the second match after a loss"
    assert http.get("/api/leaderboard", params={"game": "azi"}).json()["players"] == []
    top = http.get("/api/leaderboard", params={"game": "hazari", "limit": 1}).json()["players"]
    assert len(top) == 1 and top[0]["name"] == players[0].name


def test_a_guest_at_the_table_leaves_the_match_unrated(http: TestClient) -> None:
    players = claimed(http, "Mixed", 3) + [Client(http, "Just a guest")]
    match_id = hazari_match(players)
    assert http.get(f"/api/matches/{match_id}").json()["rated"] is False
    assert all(rating(http, player, "hazari") is None for player in players)


def test_one_person_against_bots_is_not_rated(http: TestClient) -> None:
    solo = claimed(http, "Solo", 1)[0]
    room_id = solo.create_room("hazari", {"target": 300}, private=True)
    with solo.connected(room_id):
        seat_owner_with_bots(solo)
        solo.send({"type": "start"})
        final = play_out({0: solo}, random.Random(2))
    assert http.get(f"/api/matches/{final['room']['match_id']}").json()["rated"] is False
    assert rating(http, solo, "hazari") is None


def hasenpfeffer(http: TestClient, humans: dict[int, Client], bots: list[int], seed: int) -> dict[str, Any]:
    """A match to 5 (to 1 with bots, whose random bids would seldom let it end)."""
    owner = next(iter(humans.values()))
    room_id = owner.create_room("hasenpfeffer", {"target": 1 if bots else 5}, private=True)
    with ExitStack() as stack:
        for seat, player in humans.items():
            stack.enter_context(player.connected(room_id))
            player.send({"type": "sit", "seat": seat})
            player.state_where(lambda m, s=seat, p=player: m["room"]["seats"][s]["player_id"] == p.id)
        for seat in bots:
            owner.send({"type": "add_bot", "seat": seat, "level": "random"})
        owner.state_where(lambda m: all(m["room"]["seats"][s]["bot"] for s in bots))
        owner.send({"type": "start"})
        final = play_out(humans, random.Random(seed))
    detail: dict[str, Any] = http.get(f"/api/matches/{final['room']['match_id']}").json()
    return detail


def test_hasenpfeffer_rates_partnerships_as_teams(http: TestClient) -> None:
    players = claimed(http, "Partner", 4)
    detail = hasenpfeffer(http, dict(enumerate(players)), [], seed=8)
    assert detail["rated"] is True and detail["result"]["teams"] == [[0, 2], [1, 3]]
    after = expected([[prior(), prior()], [prior(), prior()]], detail["result"])
    for seat, player in enumerate(players):
        assert close(rating(http, player, "hasenpfeffer"), after[seat % 2][seat // 2])
    winners = detail["result"]["winners"][0]
    mine = rating(http, players[winners], "hasenpfeffer")
    partner = rating(http, players[winners + 2], "hasenpfeffer")
    rival = rating(http, players[1 - winners], "hasenpfeffer")
    assert mine == partner and mine is not None and rival is not None and mine["mu"] > rival["mu"]


def test_hasenpfeffer_with_bots_rates_the_people_on_each_side(http: TestClient) -> None:
    players = claimed(http, "Half", 2)
    detail = hasenpfeffer(http, {0: players[0], 1: players[1]}, [2, 3], seed=9)
    assert detail["rated"] is True
    after = expected([[prior()], [prior()]], detail["result"])
    assert close(rating(http, players[0], "hasenpfeffer"), after[0][0])
    assert close(rating(http, players[1], "hasenpfeffer"), after[1][0])


def test_azi_rates_each_player_by_net_chips(http: TestClient) -> None:
    players = claimed(http, "Chips", 3)
    room_id = players[0].create_room("azi", {"stake": 10}, private=True)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "start"})
        final = play_out(dict(enumerate(players)), random.Random(12), leave=True)
    detail = http.get(f"/api/matches/{final['room']['match_id']}").json()
    assert detail["rated"] is True
    after = expected([[prior()]] * 3, detail["result"])
    for seat, player in enumerate(players):
        assert close(rating(http, player, "azi"), after[seat][0])
    board = http.get("/api/leaderboard", params={"game": "azi"}).json()["players"]
    assert len(board) == 3 and board[0]["player_id"] == players[
        max(range(3), key=lambda seat: (after[seat][0][0] - 3 * after[seat][0][1]))].id


def test_rating_units() -> None:
    alone = {"winners": [1], "totals": [10, 30, 20, 0]}
    seats = [(0, "a", True), (1, "b", True), (2, None, False), (3, "d", True)]
    assert rating_units(alone, seats) == [(["a"], 10, False), (["b"], 30, True), (["d"], 0, False)]
    assert places(rating_units(alone, seats)) == [2, 1, 3]
    assert rating_units(alone, [(0, "a", True), (1, "b", False), (2, "c", True), (3, "d", True)]) == []
    assert rating_units(alone, [(0, "a", True), (1, None, False), (2, None, False), (3, None, False)]) == []
    teams = {"winners": [0], "totals": [10, 4], "teams": [[0, 2], [1, 3]]}
    both = [(0, "a", True), (1, "b", True), (2, "c", True), (3, "d", True)]
    assert rating_units(teams, both) == [(["a", "c"], 10, True), (["b", "d"], 4, False)]
    bidders_won = {"winners": [1], "totals": [11, 10], "teams": [[0, 2], [1, 3]]}
    assert places(rating_units(bidders_won, both)) == [2, 1]
    tie = {"winners": [0, 2], "totals": [300, 0, 300, 120]}
    assert places(rating_units(tie, both)) == [1, 4, 1, 3]
    one_side = [(0, "a", True), (1, None, False), (2, "c", True), (3, None, False)]
    assert rating_units(teams, one_side) == []


@pytest.mark.parametrize(("params", "code"), [
    ({}, "request/bad_filter"),
    ({"game": "poker"}, "request/unknown_game"),
    ({"game": "hazari", "limit": 0}, "request/bad_limit"),
    ({"game": "hazari", "limit": "all"}, "request/bad_limit"),
    ({"game": "hazari", "player": "x"}, "request/unknown_filter"),
])
def test_bad_leaderboard_requests(client: TestClient, params: dict[str, Any], code: str) -> None:
    response = client.get("/api/leaderboard", params=params)
    assert response.status_code == 400 and response.json()["error"]["code"] == code
