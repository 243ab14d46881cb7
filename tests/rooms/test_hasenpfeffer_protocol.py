"""Hasenpfeffer over the real protocol: four WebSocket players and a spectator play whole matches to
10 through the ASGI app with fixed decks, in both bidding forms, with a thrown-in deal and a forced
Joker bid (HP-4..HP-11); every frame each connection received is checked for what it may and must
show; refused moves change nothing; the match history is checked while it runs and at the end, on
SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient
from support import Message, make_settings, query
from support.hasenpfeffer import (
    FORCED,
    PASS,
    PEPPER_BIG,
    PEPPER_LITTLE,
    REFUSALS_DECK,
    STANDARD_SET,
    STANDARD_SIX,
    TEAMS,
    THROWN_IN,
    DealSpec,
    HpTable,
    bid,
    cards_in,
    check_all_frames,
    frames_of,
    play,
    public_cards,
    running_totals,
)

from app.config import Settings
from app.db import models
from app.games.base import Seating
from app.games.cards import parse_cards
from app.games.hasenpfeffer import ENGINE
from app.games.replay import replay
from app.main import create_app

STANDARD = [THROWN_IN, FORCED, STANDARD_SET, STANDARD_SIX]
PEPPER = [THROWN_IN, FORCED, PEPPER_LITTLE, PEPPER_BIG]
PLAY_PHASES = ("play", "needs_deal", "finished")
ALL_PHASES = ("bidding", "trump", "discard", *PLAY_PHASES)


# The refusal tests send three messages per refused move from one seat: above the per-connection
# rate limit meant for people, so their server allows more.
MANY_MESSAGES = {"ws_messages_per_second": 1000.0, "ws_message_burst": 1000.0}


@pytest.fixture
def patient(fresh_sqlite_url: str) -> Iterator[TestClient]:
    """The app on a fresh SQLite database that takes many messages a second from one socket."""
    limits = {key: value for key, value in MANY_MESSAGES.items() if key in Settings.model_fields}
    settings = make_settings(fresh_sqlite_url, **limits)
    with TestClient(create_app(settings, run_migrations=False)) as test_client:
        yield test_client


DEAL_KEYS = ("number", "deck", "points", "detail")


def deal_entries(match: Message) -> list[Message]:
    """``deals`` of a match, restricted to the fields the contract and protocol name."""
    return [{key: deal[key] for key in DEAL_KEYS} for deal in match["deals"]]


def trump(suit: Any) -> Message:
    return {"kind": "trump", "suit": suit}


def discard(card: str) -> Message:
    return {"kind": "discard", "card": card}


def steps_of(specs: list[DealSpec]) -> int:
    """How many steps (deals and actions) the match logs: each is one version of the room."""
    return sum(len(spec.actions()) for spec in specs)


def hidden_discard(spec: DealSpec) -> Message:
    """The deal's detail as the history shows it while the match runs: no discard."""
    return {key: value for key, value in spec.detail().items() if key != "discard"}


def assert_widow_seen_by_the_bidder_only(table: HpTable, spec: DealSpec) -> None:
    """HP-7: the widow is in no frame until the bidder takes it; then only in his, until it is
    played (if ever)."""
    for seat, client in table.everyone:
        frames = frames_of(client, spec.number, *ALL_PHASES)
        assert frames
        for frame in frames:
            shown = spec.widow in cards_in(frame)
            played = spec.widow in public_cards(frame["view"])
            holds = seat == spec.bidder and frame["view"]["phase"] in ("trump", "discard", "play")
            assert not shown or played or holds, (seat, frame["view"]["phase"])
        if seat == spec.bidder:
            taken = frames_of(client, spec.number, "trump")
            assert taken and all(f["view"]["widow"] == spec.widow
                                 and spec.widow in f["view"]["hand"] for f in taken)


def assert_discard_never_shown(table: HpTable, spec: DealSpec) -> None:
    """HP-7: once laid away the discard is in no frame of any connection, the bidder's included,
    through the end of the deal (and of the match)."""
    for _, client in table.everyone:
        frames = frames_of(client, spec.number, *PLAY_PHASES)
        assert frames
        assert all(spec.discard not in cards_in(frame) for frame in frames)


def assert_finished_history(http: TestClient, match_id: str, specs: list[DealSpec],
                            options: dict[str, Any], winner: int) -> Message:
    """``GET /api/matches/{id}`` after the end: every deal's deck, team points and detail (the
    discard included now), the whole log, the result with the teams; replaying the log through
    the engine gives the same totals."""
    detail: Message = http.get(f"/api/matches/{match_id}").json()
    totals = running_totals(specs)[-1]
    assert detail["status"] == "finished" and detail["finished_at"] is not None
    assert detail["game"] == "hasenpfeffer"
    result = {key: detail["result"][key] for key in ("winners", "totals", "teams")}
    assert result == {"winners": [winner], "totals": totals, "teams": TEAMS}
    assert deal_entries(detail) == [{"number": spec.number, "deck": spec.deck(),
                                     "points": list(spec.points), "detail": spec.detail()}
                                    for spec in specs]
    logged = [(entry["seat"], entry["action"]) for entry in detail["actions"]]
    assert logged == [step for spec in specs for step in spec.actions()]
    assert [entry["seq"] for entry in detail["actions"]] == list(range(1, len(logged) + 1))
    assert [seat["seat"] for seat in detail["seats"]] == [0, 1, 2, 3]
    game_options = {key: detail["options"][key] for key in options}
    assert game_options == options
    state = replay(ENGINE, ENGINE.make_options(game_options),
                   Seating(players=4, first_dealer=specs[0].dealer),
                   {spec.number: parse_cards(spec.deck()) for spec in specs}, logged)
    assert list(state.scores) == totals and state.winner == winner
    return detail


def assert_player_stats(http: TestClient, table: HpTable, winner: int) -> None:
    for seat, player in enumerate(table.players):
        stats = http.get(f"/api/players/{player.id}").json()["stats"]["hasenpfeffer"]
        assert (stats["matches"], stats["finished"], stats["wins"]) == \
            (1, 1, int(seat % 2 == winner))


def test_standard_match_to_10_stored_on_both_databases(db_client: TestClient,
                                                       database_url: str) -> None:
    """Standard bidding (HP-5), target 10, first dealer 0. Deal 1 is thrown in (HP-6); deal 2 is
    a forced Joker bid of 3 made with 4 tricks (+4, +2); deal 3 is example 26's auction, seat 3's
    4 set with 3 tricks (+3, -4); deal 4 is a bid of 6 that closes the auction and takes all six
    (+6, 0): team A wins 13 to -2. Checks the views over the wire, the history while the match
    runs (no deck in play, no discard) and after it, and the rows in the database."""
    options = {"bidding": "standard", "target": 10}
    with ExitStack() as stack:
        table = HpTable(db_client, stack, options, [spec.deck() for spec in STANDARD], 0)
        first = table.start()
        view, match_id = first["view"], first["room"]["match_id"]
        assert (view["phase"], view["dealer"], view["deal_number"], view["to_act"]) == \
            ("bidding", 0, 1, [1])
        assert sorted(view["hand"]) == sorted(THROWN_IN.hands[0].split())
        assert view["scores"] == [0, 0] and view["tricks"] == [0, 0]
        assert table.players[1].state_where(lambda m: m["version"] == table.version)["legal"] == \
            [bid(value) for value in range(1, 7)] + [PASS]
        room = db_client.get(f"/api/rooms/{table.room_id}").json()
        assert "decks" not in room["options"] and "first_dealer" not in room["options"]

        thrown = table.play_deal(THROWN_IN)
        assert thrown["view"]["phase"] == "needs_deal" and thrown["view"]["scores"] == [0, 0]
        view = table.wait_deal(2)["view"]
        assert (view["dealer"], view["to_act"], view["scores"]) == (1, [2], [0, 0])

        table.run(FORCED.call_actions())
        for seat, frame in table.current():
            view = frame["view"]
            assert (view["phase"], view["bidder"], view["contract"], view["forced"],
                    view["joker_forced"], view["to_act"]) == ("trump", 0, 3, True, 0, [0])
            assert view["auction"] == [{"seat": s, "call": "pass"} for s in (2, 3, 0, 1)]
            assert view["hand_sizes"] == [7, 6, 6, 6]
            assert ("JK" in cards_in(frame)) == (seat == 0)
            assert cards_in(frame) == set(view["hand"])
            assert view.get("widow") == ("QH" if seat == 0 else None)
        table.act(0, trump("H"))
        table.act(0, discard("9S"))
        running = table.match(match_id)
        assert running["status"] == "running" and running["result"] is None
        assert deal_entries(running) == [
            {"number": 1, "deck": THROWN_IN.deck(), "points": [0, 0],
             "detail": hidden_discard(THROWN_IN)},
            {"number": 2, "deck": None, "points": None, "detail": None}]
        assert {entry["deal"] for entry in running["actions"]} == {1}
        table.play_tricks(FORCED)
        view = table.wait_deal(3)["view"]
        assert (view["dealer"], view["to_act"], view["scores"]) == (2, [3], [4, 2])

        table.bid_deal(STANDARD_SET)
        running = table.match(match_id)
        assert running["status"] == "running"
        assert [deal["points"] for deal in running["deals"]] == [[0, 0], [4, 2], None]
        assert running["deals"][1]["deck"] == FORCED.deck()
        assert running["deals"][1]["detail"] == hidden_discard(FORCED)
        assert deal_entries(running)[2] == {"number": 3, "deck": None, "points": None, "detail": None}
        assert {entry["deal"] for entry in running["actions"]} == {1, 2}
        laid_away = [entry for entry in running["actions"] if entry["action"]["kind"] == "discard"]
        assert [(entry["seat"], entry["action"]) for entry in laid_away] == \
            [(0, {"kind": "discard"})]
        table.play_tricks(STANDARD_SET)
        view = table.wait_deal(4)["view"]
        assert (view["dealer"], view["to_act"], view["scores"]) == (3, [0], [7, -2])

        table.play_deal(STANDARD_SIX)
        final = table.finish()
        assert final["view"]["phase"] == "finished" and final["view"]["winners"] == [0]
        assert final["view"]["scores"] == [13, -2] and final["view"]["tricks"] == [6, 0]
        assert final["room"]["status"] == "finished" and final["legal"] == []
        assert check_all_frames(table, STANDARD) >= 5 * steps_of(STANDARD)
        for spec in STANDARD[1:]:
            assert_widow_seen_by_the_bidder_only(table, spec)
            assert_discard_never_shown(table, spec)

    detail = assert_finished_history(db_client, match_id, STANDARD, options, winner=0)
    assert [deal["detail"]["discard"] for deal in detail["deals"]] == [None, "9S", "10C", "10S"]
    listed = db_client.get("/api/matches", params={"player": table.players[1].id}).json()
    assert [(m["id"], m["result"]["teams"]) for m in listed["matches"]] == [(match_id, TEAMS)]
    assert_player_stats(db_client, table, winner=0)
    rows = query(database_url, select(models.Deal.number, models.Deal.points, models.Deal.detail)
                 .where(models.Deal.match_id == match_id).order_by(models.Deal.number))
    assert rows == [(spec.number, list(spec.points), spec.detail()) for spec in STANDARD]
    stored = query(database_url, select(models.Match.status, models.Match.result)
                   .where(models.Match.id == match_id))
    assert [(status, {key: result[key] for key in ("winners", "totals", "teams")})
            for status, result in stored] == \
        [("finished", {"winners": [0], "totals": [13, -2], "teams": TEAMS})]


def test_pepper_match_to_10_with_little_and_big_pepper(client: TestClient) -> None:
    """Pepper bidding (HP-11), target 10, first dealer 0. The same thrown-in deal and forced bid
    of 3 (also 3 in this form); then 5, pass, Little Pepper made with all six tricks (0, +6);
    then Big Pepper opened at once and set with 4 tricks (-12, +2): team B wins 10 to -8."""
    options = {"bidding": "pepper", "target": 10}
    with ExitStack() as stack:
        table = HpTable(client, stack, options, [spec.deck() for spec in PEPPER], 0,
                        names="Pepper")
        first = table.start()
        match_id = first["room"]["match_id"]
        opening = [bid(value) for value in (1, 2, 3, 4, 5, "little_pepper", "big_pepper")]
        assert table.players[1].state_where(lambda m: m["version"] == table.version)["legal"] == \
            opening + [PASS]
        table.play_deal(THROWN_IN)
        table.wait_deal(2)
        table.bid_deal(FORCED)
        forced = table.players[2].state_where(lambda m: m["version"] == table.version)["view"]
        assert (forced["contract"], forced["joker_forced"], forced["trump"]) == (3, 0, "H")
        table.play_tricks(FORCED)
        table.wait_deal(3)

        table.run(PEPPER_LITTLE.call_actions()[:1])
        assert table.players[0].state_where(lambda m: m["version"] == table.version)["legal"] == \
            [bid("little_pepper"), bid("big_pepper"), PASS]
        table.run(PEPPER_LITTLE.call_actions()[1:])
        frames = dict(table.current())
        assert frames[2]["view"]["contract"] == "little_pepper"
        assert frames[2]["view"]["high_bid"] == "little_pepper" and frames[2]["view"]["bidder"] == 1
        assert frames[1]["legal"] == [trump(suit) for suit in "SHDC"]
        table.act(1, trump("H"))
        table.act(1, discard("QH"))
        scored = table.play_tricks(PEPPER_LITTLE)["view"]
        assert scored["tricks"] == [0, 6] and scored["scores"] == [4, 8]
        table.wait_deal(4)

        table.act(0, bid("big_pepper"))
        for _, frame in table.current():
            assert (frame["view"]["phase"], frame["view"]["bidder"], frame["view"]["contract"]) \
                == ("trump", 0, "big_pepper")
            assert frame["view"]["auction"] == [{"seat": 0, "call": "big_pepper"}]
        table.act(0, trump("C"))
        table.act(0, discard("KC"))
        table.play_tricks(PEPPER_BIG)
        final = table.finish()
        assert final["view"]["winners"] == [1] and final["view"]["scores"] == [-8, 10]
        assert final["view"]["tricks"] == [4, 2]
        assert check_all_frames(table, PEPPER) >= 5 * steps_of(PEPPER)
        for spec in PEPPER[1:]:
            assert_widow_seen_by_the_bidder_only(table, spec)
            assert_discard_never_shown(table, spec)
    detail = assert_finished_history(client, match_id, PEPPER, options, winner=1)
    assert [deal["detail"]["made"] for deal in detail["deals"]] == [None, True, True, False]
    assert_player_stats(client, table, winner=1)


def test_refused_moves_name_the_problem_and_change_nothing(patient: TestClient) -> None:
    """Every wrong move in each phase gets its error code and a message naming the problem; the
    version and every seat's view stay as they were (HP-5, HP-7, HP-8)."""
    with ExitStack() as stack:
        table = HpTable(patient, stack, {"bidding": "standard"}, [REFUSALS_DECK], 0,
                        names="Wrong")
        table.start()
        table.refused(2, bid(1), "action/not_your_turn", "seat 1's turn")
        table.refused(1, trump("S"), "action/widow_not_taken", "auction is still on")
        table.refused(1, discard("9C"), "action/widow_not_taken", "widow")
        table.refused(3, discard("JS"), "action/not_your_turn")
        table.refused(1, bid(0), "action/bid_out_of_range", "a bid of 0", "1..6")
        table.refused(1, bid(7), "action/bid_out_of_range", "a bid of 7", "1..6")
        table.refused(1, bid("little_pepper"), "action/pepper_not_in_use", "pepper")
        table.refused(1, bid(True), "action/bad_bid", "True")
        table.refused(1, play("AS"), "action/not_play_phase")
        table.act(1, bid(2))
        table.refused(2, bid(2), "action/bid_too_low", "does not beat seat 1's bid of 2")
        table.refused(2, bid(1), "action/bid_too_low", "strictly higher")
        table.act(2, PASS)
        table.refused(2, bid(3), "action/already_passed", "a pass is final")
        table.refused(2, PASS, "action/already_passed", "seat 3 is to speak")
        table.run([(3, bid(3)), (0, PASS), (1, bid(4)), (3, PASS)])

        table.refused(2, trump("H"), "action/not_bidder", "only the bidder, seat 1")
        table.refused(3, discard("JS"), "action/not_bidder", "only the bidder, seat 1")
        table.refused(1, discard("9C"), "action/trump_first", "name trump first")
        table.refused(1, trump(""), "action/no_suit", "needs a suit")
        table.refused(1, trump(None), "action/no_suit", "needs a suit")
        table.refused(1, trump("JK"), "action/joker_not_a_suit", "'JK' is the Joker")
        table.refused(1, {"kind": "trump"}, "action/missing_field", "suit")
        table.refused(1, bid(5), "action/auction_over")
        table.act(1, trump("S"))

        table.refused(1, discard("9D"), "action/card_not_held", "does not hold 9D")
        table.refused(1, discard("XX"), "action/bad_card")
        table.refused(0, discard("9D"), "action/not_bidder")
        table.refused(1, trump("H"), "action/trump_already_named", "spades")
        table.refused(1, play("9C"), "action/not_play_phase")
        table.act(1, discard("10S"))

        table.refused(2, play("9S"), "action/not_your_turn", "seat 1's turn")
        table.refused(1, play("10S"), "action/card_not_held", "does not hold 10S")
        table.refused(1, discard("AS"), "action/already_discarded")
        table.act(1, play("9C"))
        table.refused(3, play("JS"), "action/not_your_turn", "seat 2's turn")
        table.run([(2, play("KH")), (3, play("AD"))])
        assert table.fresh(0)["legal"] == [play(card) for card in ("AC", "KC", "QC", "10C")]
        error = table.refused(0, play("JC"), "action/must_follow", "9C was led", "must follow clubs",
                              "the JC is the left bower and counts as a spade, not a club",
                              "AC KC QC 10C")
        assert "JC breaks the follow rule" in error["message"]
        table.act(0, play("AC"))
        trick = table.current()[0][1]["view"]["last_trick"]
        assert trick == [{"seat": 1, "card": "9C"}, {"seat": 2, "card": "KH"},
                         {"seat": 3, "card": "AD"}, {"seat": 0, "card": "AC"}]
        table.act(0, play("JC"))
        assert table.fresh(1)["legal"] == [play(card) for card in ("JK", "AS", "KS", "QS")]
        error = table.refused(1, play("AH"), "action/must_follow", "JC was led",
                              "must follow spades",
                              "trumps: the Joker JK and the left bower JC count as spades",
                              "JK AS KS QS")
        table.act(1, play("JK"))
        table.refused(2, play("QH"), "action/must_follow", "must follow spades", "9S")
        spectator_acts = table.spectator
        spectator_acts.act(play("9S"), ref="watcher")
        refusal = spectator_acts.until(lambda m: m["type"] == "error")
        assert (refusal["code"], refusal["ref"]) == ("auth/spectator", "watcher")
        table.act(2, play("9S"))
        assert table.fresh(3)["view"]["trick"] == [
            {"seat": 0, "card": "JC"}, {"seat": 1, "card": "JK"}, {"seat": 2, "card": "9S"}]


def test_refused_bids_in_the_pepper_form(patient: TestClient) -> None:
    """HP-11: no numeric 6 at a pepper table, Little Pepper cannot be matched, nothing beats Big
    Pepper (it closes the auction); each refusal leaves the room as it was."""
    with ExitStack() as stack:
        table = HpTable(patient, stack, {"bidding": "pepper"}, [REFUSALS_DECK], 0, names="Salt")
        table.start()
        table.refused(1, bid(6), "action/no_numeric_six", "'little_pepper'", "'big_pepper'")
        table.refused(1, bid(7), "action/bid_out_of_range")
        table.refused(1, bid("medium_pepper"), "action/bad_bid", "medium_pepper")
        table.act(1, bid("little_pepper"))
        table.refused(2, bid("little_pepper"), "action/bid_too_low",
                      "does not beat seat 1's bid of 'little_pepper'")
        table.refused(2, bid(5), "action/bid_too_low")
        assert table.fresh(2)["legal"] == [bid("big_pepper"), PASS]
        table.act(2, bid("big_pepper"))
        view = table.fresh(2)["view"]
        assert (view["phase"], view["bidder"], view["contract"]) == ("trump", 2, "big_pepper")
        table.refused(2, bid("big_pepper"), "action/auction_over")
        table.refused(3, PASS, "action/not_bidder", "only the bidder, seat 2")
