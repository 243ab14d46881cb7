"""A seat the autopilot holds at the end of a match does not win in its player's name, on SQLite and
on PostgreSQL: the result says who played each seat at the end and how many decisions the autopilot
made; the player who abandoned gets no win and no rating gain; history and profile show it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from support import Client, make_settings
from support.hazari import GROUPS, deck_giving, hand_text

from app.db.ratings import MODEL
from app.main import create_app

PASSWORD = "correct horse battery"
DEALS = 6
TARGET = 700


@pytest.fixture
def quick_autopilot(database_url: str) -> Iterator[TestClient]:
    """The app, once per database, where the autopilot takes a dropped player's seat at once."""
    app = create_app(make_settings(database_url, grace_period=0.0), run_migrations=False)
    with TestClient(app) as test_client:
        yield test_client


def claimed(http: TestClient, name: str) -> Client:
    player = Client(http, name)
    response = http.post(f"/api/players/{player.id}/claim", headers=player.auth, json={"password": PASSWORD})
    assert response.status_code == 200, response.text
    return player


def arrange(player: Client, deal: int) -> None:
    state = player.state_where(lambda m: m["view"].get("deal_number") == deal
                                         and m["view"]["phase"] == "arranging")
    player.act({"kind": "up", "groups": GROUPS[hand_text(state)]})


def abandoned_match(http: TestClient, leaver: Client, stayer: Client) -> str:
    """Hazari to 700 with ``leaver`` in seat 0 holding the best hand of every deal, ``stayer`` in
    seat 1 and bots in seats 2 and 3. The leaver plays the first deal, then drops; the autopilot
    finishes the match for him. Returns the match id."""
    decks = [deck_giving(0, dealer=deal % 4) for deal in range(DEALS)]
    room_id = leaver.create_room("hazari", {"target": TARGET, "decks": decks, "first_dealer": 0},
                                 private=True)
    with stayer.connected(room_id):
        with leaver.connected(room_id):
            for seat, player in enumerate((leaver, stayer)):
                player.send({"type": "sit", "seat": seat})
                player.state_where(lambda m, s=seat, p=player: m["room"]["seats"][s]["player_id"] == p.id)
            for seat in (2, 3):
                leaver.send({"type": "add_bot", "seat": seat, "level": "random"})
            leaver.state_where(lambda m: all(s["bot"] for s in m["room"]["seats"][2:]))
            leaver.send({"type": "start"})
            arrange(leaver, 1)
            arrange(stayer, 1)
            leaver.state_where(lambda m: m["view"].get("deal_number") == 2)
        stayer.state_where(lambda m: m["room"]["seats"][0]["autopilot"])
        for deal in range(2, DEALS + 1):
            state = stayer.state_where(lambda m, d=deal: m["room"]["status"] == "finished" or (
                m["view"].get("deal_number") == d and m["view"]["phase"] == "arranging"))
            if state["room"]["status"] == "finished":
                break
            arrange(stayer, deal)
    match_id: str = state["room"]["match_id"]
    return match_id


def test_an_abandoned_seat_wins_nothing_and_gains_no_rating(quick_autopilot: TestClient) -> None:
    http = quick_autopilot
    leaver, stayer = claimed(http, "Leaver"), claimed(http, "Stayer")
    match_id = abandoned_match(http, leaver, stayer)

    detail = http.get(f"/api/matches/{match_id}").json()
    result = detail["result"]
    assert result["winners"] == [0], "the autopilot made seat 0 the winner of the game itself"
    assert result["played_by"] == ["autopilot", "player", "bot", "bot"]
    decisions = result["autopilot_decisions"]
    ups_for_leaver = [entry for entry in detail["actions"]
                      if entry["seat"] == 0 and entry["action"]["kind"] == "up"]
    assert decisions[0] == len(ups_for_leaver) - 1 >= 1, "every deal after the first"
    assert decisions[1:] == [0, 0, 0]
    seats = detail["seats"]
    assert [seat["played_by"] for seat in seats] == ["autopilot", "player", "bot", "bot"]
    assert [seat["abandoned"] for seat in seats] == [True, False, False, False]
    assert seats[0]["autopilot_decisions"] == decisions[0]

    assert http.get("/api/matches", params={"player": leaver.id, "result": "won"}).json()["matches"] == []
    lost = http.get("/api/matches", params={"player": leaver.id, "result": "lost"}).json()["matches"]
    assert [match["id"] for match in lost] == [match_id]
    assert lost[0]["seats"][0]["abandoned"] is True

    profile = http.get(f"/api/players/{leaver.id}").json()
    assert profile["stats"]["hazari"]["wins"] == 0
    assert profile["stats"]["hazari"]["abandoned"] == 1
    assert profile["stats"]["hazari"]["finished"] == 1
    prior = MODEL.rating()
    rating = profile["ratings"]["hazari"]
    assert rating["ordinal"] <= round(prior.ordinal(), 4) and rating["mu"] < prior.mu
    stayed = http.get(f"/api/players/{stayer.id}").json()
    assert stayed["ratings"]["hazari"]["mu"] > prior.mu, "the player who stayed ranks above him"
    assert stayed["stats"]["hazari"]["abandoned"] == 0
