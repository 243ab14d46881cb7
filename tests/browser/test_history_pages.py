"""The pages around finished matches: the history and a match's deals, the replay viewer (stepped
forward and back, with the hands of a fixed deck checked card by card and every hand of every game
checked against the engine), "verify this deal", a profile with its statistics and rating, the
leaderboard, and an account claimed, signed in to from a second browser and signed out everywhere.

The matches are made quickly over the real protocol: a rated Hazari match between two claimed
players (and two bots) from a fixed deck, played by Python WebSocket clients; and matches of random
bots alone with shuffled decks."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from support.browser import (
    bots_only,
    browser_server,
    expect_error,
    fill_with_bots,
    shoot,
    wait_finished,
    watch_policy_violations,
)
from support.live import LiveClient, LiveServer

from app.games.base import Seating
from app.games.cards import card_texts, hasenpfeffer_deck, parse_cards, standard_deck
from app.games.hazari.arrangements import split_groups, valid_splits
from app.games.registry import ENGINES
from app.games.replay import replay_transition

pytestmark = pytest.mark.browser

PASSWORD = "correct horse 42"
# The rated match's only deck; dealer seat 0, so seat s holds cards s-1, s+3, ... (HZ-3).
DECK = card_texts(random.Random(8).sample(standard_deck(), 52))


def hand_of(seat: int) -> list[str]:
    return list(DECK[(seat - 1) % 4::4])


def arrangement(cards: list[str]) -> list[list[str]]:
    parsed = parse_cards(cards)
    return [list(card_texts(group)) for group in split_groups(parsed, valid_splits(parsed)[0])]


def rated_hazari(server: LiveServer, asha: LiveClient, bilal: LiveClient) -> str:
    """Asha and Bilal (claimed) and two bots, one deal from DECK (target 5 ends it)."""
    options = {"target": 5, "decks": [DECK], "first_dealer": 0, "turn_seconds": 0}
    room = server.post("/api/rooms", {"game": "hazari", "options": options, "private": True}, asha.token)
    for seat, client in enumerate((asha, bilal)):
        client.connect(room["id"])
        client.send({"type": "sit", "seat": seat})
        client.state_where(lambda m, s=seat, c=client: m["room"]["seats"][s]["player_id"] == c.id)
    fill_with_bots(asha, range(2, 4))
    asha.send({"type": "start"})
    for client in (asha, bilal):
        state = client.state_where(lambda m: {"kind": "up"} in m["legal"])
        client.send({"type": "act", "id": "up", "action": {"kind": "up",
                                                           "groups": arrangement(state["view"]["hand"])}})
    match_id = wait_finished(asha)
    bilal.close()
    asha.close()
    return match_id


def passing_hasenpfeffer(server: LiveServer) -> str:
    """Four guests who pass whenever they may, else make their first legal move: deal 1 (the Joker
    is the widow) is thrown in, in deal 2 the Joker's holder is forced to bid 3 (HP-6)."""
    rng = random.Random(3)
    pack = card_texts(hasenpfeffer_deck())
    first = [*rng.sample([card for card in pack if card != "JK"], 24), "JK"]
    second = rng.sample([card for card in pack if card != "JK"], 24)
    second.insert(5, "JK")
    players = [LiveClient(server, f"Passer {seat + 1}") for seat in range(4)]
    options = {"target": 1, "decks": [first, second], "first_dealer": 2, "turn_seconds": 0}
    room = server.post("/api/rooms", {"game": "hasenpfeffer", "options": options, "private": True},
                       players[0].token)
    for seat, client in enumerate(players):
        client.connect(room["id"])
        client.send({"type": "sit", "seat": seat})
        client.state_where(lambda m, s=seat, c=client: m["room"]["seats"][s]["player_id"] == c.id)
    players[0].send({"type": "start"})
    seen = -1
    while True:
        state = players[0].state_where(lambda m, v=seen: m["version"] > v)
        seen = state["version"]
        if state["room"]["status"] == "finished":
            break
        for seat in state["view"]["to_act"]:
            mine = players[seat].state_where(lambda m, v=seen: m["version"] >= v)
            legal = mine["legal"]
            if mine["version"] != seen or not legal:
                continue
            action = {"kind": "pass"} if {"kind": "pass"} in legal else legal[0]
            players[seat].send({"type": "act", "id": f"v{seen}", "action": action})
    for client in players:
        client.close()
    match_id: str = state["room"]["match_id"]
    return match_id


@pytest.fixture(scope="module")
def world(server: LiveServer) -> Iterator[dict[str, Any]]:
    asha, bilal = LiveClient(server, "Asha"), LiveClient(server, "Bilal")
    for client in (asha, bilal):
        server.post(f"/api/players/{client.id}/claim", {"password": PASSWORD}, client.token)
    rated = rated_hazari(server, asha, bilal)
    host = LiveClient(server, "Host")
    shuffled = {
        "hazari": bots_only(server, host, "hazari", {"target": 100}, 4),
        "hasenpfeffer": bots_only(server, host, "hasenpfeffer", {"target": 1}, 4),
        "azi": bots_only(server, host, "azi", {"stake": 1000, "hand_size": 4}, 3),
    }
    passing = passing_hasenpfeffer(server)
    yield {"asha": asha, "bilal": bilal, "rated": rated, "shuffled": shuffled, "passing": passing}
    for client in (asha, bilal, host):
        client.close()


def sign_in_page(page: Page, server: LiveServer, client: LiveClient, name: str, path: str) -> None:
    """Opens ``path`` with ``client`` as this browser's player (as the lobby would have saved it)."""
    page.goto(f"{server.base}/#/leaderboard")
    page.evaluate("p => window.localStorage.setItem('cardroom.player', JSON.stringify(p))",
                  {"id": client.id, "name": name, "token": client.token})
    page.goto(f"{server.base}/{path}")
    expect(page.locator("#who")).to_contain_text(name)


def engine_replay(match: dict[str, Any]) -> tuple[list[list[list[str]]], list[int | None]]:
    """Each seat's own cards after every logged step, from the engine itself (``view``'s hand), and
    the seat that took the trick or the round completed at each step (None where none was)."""
    engine = ENGINES[match["game"]]
    seats = len(match["seats"])
    stacks = tuple(match["stacks"]) if match["stacks"] else None
    state = engine.start(match["options"], Seating(seats, match["first_dealer"], stacks))
    decks = {deal["number"]: parse_cards(deal["deck"]) for deal in match["deals"]}
    hands = [[sorted(engine.view(state, seat)["hand"]) for seat in range(seats)]]
    takers: list[int | None] = [None]
    for entry in sorted(match["actions"], key=lambda entry: entry["seq"]):
        moved = replay_transition(engine, state, entry["seat"], entry["action"], decks)
        state = moved.state
        hands.append([sorted(engine.view(state, seat)["hand"]) for seat in range(seats)])
        taken = [event["winner"] for event in moved.events if event["type"] in ("trick", "round")]
        takers.append(taken[-1] if taken else None)
    return hands, takers


def test_replay_rebuilds_every_hand_of_every_game_as_the_engine(page: Page, server: LiveServer,
                                                               world: dict[str, Any]) -> None:
    """The hands the replay page shows (replay.js, from the server's views deal by deal) and the
    taker it marks for each trick or round, against the engine, at every step of a match of each
    game (an Azi session of the 4-card variant with discards, a Hasenpfeffer deal with its widow,
    and Hasenpfeffer deals thrown in and forced)."""
    matches = [server.get(f"/api/matches/{world['rated']}")]
    matches += [server.get(f"/api/matches/{match_id}") for match_id in world["shuffled"].values()]
    matches.append(server.get(f"/api/matches/{world['passing']}"))
    assert [deal["detail"]["thrown_in"] for deal in matches[-1]["deals"]] == [True, False]
    assert matches[-1]["deals"][1]["detail"]["forced"] is True
    page.goto(f"{server.base}/#/leaderboard")
    rebuilt = page.evaluate("""async (matches) => {
        const m = await import('/js/replay.js');
        const sorted = (hand) => (hand || []).slice().sort();
        const rebuilt = [];
        for (const match of matches) {
            const { steps } = await m.rebuild(match);
            rebuilt.push({ hands: steps.map((step) => step.hands.map(sorted)),
                takers: steps.map((step) => (step.table ? step.table.plays.filter((play) => play.winner)
                    .map((play) => play.seat) : [])) });
        }
        return rebuilt;
    }""", matches)
    for match, page_side in zip(matches, rebuilt, strict=True):
        expected, takers = engine_replay(match)
        assert len(page_side["hands"]) == len(expected) == len(match["actions"]) + 1
        for step, (mine, theirs) in enumerate(zip(page_side["hands"], expected, strict=True)):
            assert mine == theirs, f"{match['game']} step {step}: page {mine}, engine {theirs}"
        assert any(taker is not None for taker in takers)
        for step, (marked, taker) in enumerate(zip(page_side["takers"], takers, strict=True)):
            if taker is not None:
                assert marked == [taker], f"{match['game']} step {step}: page marks {marked}, engine {taker}"


def replay_hand(page: Page, seat: int) -> list[str]:
    return [card.get_attribute("data-card") or ""
            for card in page.locator(f".replay-hand[data-seat='{seat}'] .card").all()]


def test_history_match_page_and_the_replay_viewer(page: Page, server: LiveServer,
                                                  world: dict[str, Any]) -> None:
    asha, match_id = world["asha"], world["rated"]
    match = server.get(f"/api/matches/{match_id}")
    sign_in_page(page, server, asha, "Asha", "#/history")

    # The history lists the match; its page shows the deal's points, the result and the players.
    item = page.locator(f"#match-list [data-match='{match_id}']")
    expect(item).to_contain_text("Hazari")
    expect(item).to_contain_text("Won by")
    expect(item.get_by_role("link", name="Bilal")).to_have_attribute("href", f"#/player/{world['bilal'].id}")
    item.get_by_role("link", name="Hazari").click()
    points = match["deals"][0]["points"]
    row = page.locator("#match-deals tbody tr").first
    for value in points:
        expect(row).to_contain_text(str(value))
    expect(page.locator("#match-result")).to_contain_text("Won by")
    expect(page.get_by_role("link", name="Asha")).to_have_attribute("href", f"#/player/{asha.id}")
    page.get_by_role("link", name="Replay this match step by step").click()

    # Step 0: nothing dealt. Step 1: the deal, every hand face up, the exact cards of DECK.
    expect(page.locator("#replay-counter")).to_have_text(f"Step 0 of {len(match['actions'])}")
    expect(page.get_by_role("button", name="Previous step")).to_be_disabled()
    page.get_by_role("button", name="Next step").click()
    expect(page.locator("#replay-step-text")).to_contain_text("Deal 1")
    for seat in range(4):
        assert sorted(replay_hand(page, seat)) == sorted(hand_of(seat))

    # The keyboard steps on: each "up" shows that seat's groups; the first round takes G1 of each.
    kinds = [entry["action"]["kind"] for entry in match["actions"]]
    ups = {entry["seat"]: entry["action"]["groups"] for entry in match["actions"]
           if entry["action"]["kind"] == "up"}
    first_round = kinds.index("auto") + 1
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-step", "2")
    while page.locator("#replay").get_attribute("data-step") != str(first_round):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step-text")).to_contain_text("Round 1")
    table = [card.get_attribute("data-card") or "" for card in page.locator("#replay-table .card").all()]
    assert sorted(table) == sorted(card for groups in ups.values() for card in groups[0])
    for seat in range(4):
        assert sorted(replay_hand(page, seat)) == sorted(set(hand_of(seat)) - set(ups[seat][0]))
    expect(page.locator(".replay-hand[data-seat='0'] .replay-groups li")).to_have_count(3)
    shoot(page, "replay-round")

    # One step back: the round is not shown yet and every hand holds 13 cards again.
    page.get_by_role("button", name="Previous step").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", str(first_round - 1))
    expect(page.locator("#replay-table .card")).to_have_count(0)
    for seat in range(4):
        expect(page.locator(f".replay-hand[data-seat='{seat}'] .card")).to_have_count(13)

    # The slider's End key: the last step, the deal's points and the result.
    page.locator("#replay-slider").focus()
    page.keyboard.press("End")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(len(match["actions"])))
    for seat, value in enumerate(points):
        expect(page.locator(f"#replay-deal-end .deal-points[data-side='{seat}']")).to_contain_text(str(value))
    expect(page.locator("#replay-finished")).to_contain_text("Match over")
    expect(page.locator(".replay-hand .card")).to_have_count(0)
    expect(page.get_by_role("button", name="Next step")).to_be_disabled()

    # A step in the address opens there; the fixed deck has no seeds to verify.
    page.goto(f"{server.base}/#/replay/{match_id}/1")
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
    expect(page.locator(".replay-hand[data-seat='2'] .card")).to_have_count(len(hand_of(2)))
    assert sorted(replay_hand(page, 2)) == sorted(hand_of(2))
    page.locator("#replay-deals li[data-deal='1']").get_by_role("button", name="Verify this deal").click()
    expect(page.locator("#replay-deals .verify-result").first).to_contain_text("fixed test deck")
    shoot(page, "replay-deal")


def test_replays_of_azi_and_hasenpfeffer_and_verifying_shuffled_deals(
        page: Page, server: LiveServer, world: dict[str, Any]) -> None:
    """Mid-deal views of the other games, then "verify this deal" on shuffled deals: the page
    recomputes each deck from the revealed seeds (docs/fairness.md)."""
    for game in ("azi", "hasenpfeffer"):
        match = server.get(f"/api/matches/{world['shuffled'][game]}")
        plays = [i for i, entry in enumerate(match["actions"], start=1) if entry["action"]["kind"] == "play"]
        middle = plays[len(plays) // 2]
        page.goto(f"{server.base}/#/replay/{match['id']}/{middle}")
        expect(page.locator("#replay")).to_have_attribute("data-step", str(middle))
        expect(page.locator("#replay-step-text")).to_contain_text("plays")
        expect(page.locator("#replay-table .card").last).to_have_attribute(
            "data-card", match["actions"][middle - 1]["action"]["card"])
        expect(page.locator("#replay-problems")).to_have_count(0)
        shoot(page, f"replay-{game}")
    for game in ("hazari", "azi"):
        page.goto(f"{server.base}/#/replay/{world['shuffled'][game]}")
        page.locator("#replay-deals li").first.get_by_role("button", name="Verify this deal").click()
        expect(page.locator("#replay-deals .verify-result").first).to_contain_text("This deal checks out")


def test_profile_and_leaderboard(page: Page, server: LiveServer, world: dict[str, Any]) -> None:
    asha, bilal = world["asha"], world["bilal"]
    profile = server.get(f"/api/players/{asha.id}")
    sign_in_page(page, server, asha, "Asha", f"#/player/{asha.id}")
    expect(page.locator("#profile-name")).to_have_text("Asha")
    expect(page.locator("#profile-claimed")).to_have_text("claimed account")
    stats = page.locator("#profile-stats tr[data-game='hazari']")
    expect(stats.locator("[data-stat='matches']")).to_have_text("1")
    expect(stats.locator("[data-stat='finished']")).to_have_text("1")
    expect(stats.locator("[data-stat='best']")).to_have_text(str(profile["stats"]["hazari"]["best"]))
    rating = profile["ratings"]["hazari"]
    expect(page.locator("#profile-ratings tr[data-game='hazari'] .ordinal")).to_have_text(
        f"{rating['ordinal']:.2f}")
    expect(page.locator("#rating-meaning")).to_have_text(
        "Your rating grows as you win rated matches; it is cautious while you have played few.")
    page.get_by_text("The figures as a table").click()
    words = page.locator("#profile").inner_text()
    technical = re.findall(r"[\u03bc\u03c3=]|\b(?:mu|sigma|ordinal)\b", words, re.IGNORECASE)
    assert not technical, f"the profile shows {technical}: {words}"
    chart = page.locator("svg.rating-chart[data-game='hazari']")
    expect(chart).to_have_attribute("aria-label", f"Hazari rating after each of 1 rated match: from "
                                    f"{rating['ordinal']:.2f} to {rating['ordinal']:.2f}")
    expect(chart.locator("circle")).to_have_count(1)
    expect(page.locator(".rating-history[data-game='hazari'] tbody tr")).to_have_count(1)
    expect(page.locator(".rating-history tbody tr a")).to_have_attribute("href", f"#/match/{world['rated']}")
    shoot(page, "profile")
    page.get_by_role("link", name="Asha's matches").click()
    expect(page.locator("#match-list .match-item")).to_have_count(1)

    # The leaderboard: both claimed players, in the API's order (by ordinal), linked to profiles.
    page.get_by_role("navigation", name="Player").get_by_role("link", name="Leaderboard").click()
    board = server.get("/api/leaderboard", game="hazari")["players"]
    assert {entry["player_id"] for entry in board} == {asha.id, bilal.id}
    ordinals = [entry["ordinal"] for entry in board]
    assert ordinals == sorted(ordinals, reverse=True)
    rows = page.locator("#leaderboard-table tbody tr")
    expect(rows).to_have_count(2)
    for index, entry in enumerate(board):
        expect(rows.nth(index)).to_have_attribute("data-player", entry["player_id"])
        expect(rows.nth(index).locator(".rank")).to_have_text(str(index + 1))
        expect(rows.nth(index).locator(".ordinal")).to_have_text(f"{entry['ordinal']:.2f}")
    expect(page.locator("#leaderboard-table tr.me")).to_contain_text("(you)")
    shown = page.locator("#leaderboard").inner_text() + page.locator("#leaderboard-about").inner_text()
    assert not re.search(r"[\u03bc\u03c3]|\b(?:mu|sigma)\b", shown), shown
    shoot(page, "leaderboard")
    page.get_by_role("link", name="Azi", exact=True).click()
    expect(page.locator("#leaderboard-empty")).to_be_visible()
    page.get_by_role("link", name="Hazari", exact=True).click()
    page.locator("#leaderboard-table").get_by_role("link", name="Bilal").click()
    expect(page.locator("#profile-name")).to_have_text("Bilal")


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of its own: the failed sign-ins below make this address wait there for a minute."""
    with browser_server(tmp_path, signin_first_delay_seconds="60") as live:
        yield live


def test_claim_sign_in_elsewhere_and_sign_out_everywhere(page: Page, browser: Browser,
                                                         own_server: LiveServer) -> None:
    server = own_server
    taken = LiveClient(server, "Asha")
    server.post(f"/api/players/{taken.id}/claim", {"password": PASSWORD}, taken.token)
    page.goto(f"{server.base}/")
    page.get_by_role("textbox", name="Name").fill("Chen")
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#who")).to_contain_text("Chen")
    first = json.loads(page.evaluate("window.localStorage.getItem('cardroom.player')"))
    page.get_by_role("navigation", name="Player").get_by_role("link", name="Account").click()
    expect(page.locator("#account-status")).to_contain_text("a guest")

    # The page checks the password; the server refuses a claimed name.
    page.get_by_label("Password (8 characters or more)").fill("short")
    page.get_by_label("The password again").fill("short")
    page.get_by_role("button", name="Claim the account").click()
    expect_error(page, "password/too_short")
    page.get_by_label("Password (8 characters or more)").fill(PASSWORD)
    page.get_by_label("The password again").fill(PASSWORD + "!")
    page.get_by_role("button", name="Claim the account").click()
    expect_error(page, "password/mismatch")
    page.get_by_label("The password again").fill(PASSWORD)
    page.locator("#claim-name").fill("asha")
    page.get_by_role("button", name="Claim the account").click()
    expect_error(page, "account/name_taken")
    page.locator("#claim-name").fill("Chen")
    page.get_by_role("button", name="Claim the account").click()
    expect(page.locator("#account-status")).to_contain_text("a claimed account")
    assert server.get(f"/api/players/{first['id']}")["claimed"] is True
    shoot(page, "account")

    # A second browser signs in (a wrong password first), with a token of its own.
    other = browser.new_context(viewport={"width": 390, "height": 844})
    violations = watch_policy_violations(other)
    second = other.new_page()
    second.goto(f"{server.base}/#/account")
    second.get_by_label("Name").fill("chen")
    second.get_by_label("Password").fill("not the password")
    second.get_by_role("button", name="Sign in").click()
    expect_error(second, "auth/wrong_password")
    second.get_by_label("Password").fill(PASSWORD)
    second.get_by_role("button", name="Sign in").click()
    expect(second.locator("#who")).to_contain_text("Chen")
    expect(second.locator("#account-status")).to_contain_text("a claimed account")
    signed = json.loads(second.evaluate("window.localStorage.getItem('cardroom.player')"))
    assert signed["id"] == first["id"] and signed["token"] != first["token"]

    # Sign out everywhere from the second browser: both tokens are revoked, its storage is cleared.
    second.get_by_role("button", name="Sign out everywhere").click()
    second.get_by_role("button", name="Yes, sign out everywhere").click()
    expect(second.locator("#account-status")).to_contain_text("No player in this browser")
    assert second.evaluate("window.localStorage.getItem('cardroom.player')") is None
    for token in (first["token"], signed["token"]):
        answer = httpx.delete(f"{server.base}/api/sessions", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 401 and answer.json()["error"]["code"] == "auth/bad_token"

    # The first browser's claim page now meets the revoked token: its sign-out says so and forgets it.
    page.reload()
    page.get_by_role("button", name="Sign out everywhere").click()
    page.get_by_role("button", name="Yes, sign out everywhere").click()
    expect_error(page, "auth/bad_token")
    expect(page.locator("#account-status")).to_contain_text("No player in this browser")
    assert page.evaluate("window.localStorage.getItem('cardroom.player')") is None

    # After five failed sign-ins for a name from one address the next must wait; the page shows the
    # server's refusal.
    second.get_by_label("Name").fill("Chen")
    for _ in range(5):
        second.get_by_label("Password").fill("still not it")
        second.get_by_role("button", name="Sign in").click()
        expect(second.locator("#messages .message.error").last).to_be_visible()
        second.locator("#messages .dismiss").last.click()
    second.get_by_label("Password").fill(PASSWORD)
    second.get_by_role("button", name="Sign in").click()
    expect_error(second, "auth/rate_limited")
    other.close()
    assert violations == []
