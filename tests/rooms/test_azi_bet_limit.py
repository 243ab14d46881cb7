"""Azi's ``bet_limit`` option: at a pot-limit table no opening bet above the pot and no raise by more
than the pot after the call; anything above gets a clear error and changes nothing."""

from __future__ import annotations

from contextlib import ExitStack

from starlette.testclient import TestClient
from support import Client
from support.azi import AziTable, azi_deck_for, bet, raise_to, refused

DECK = azi_deck_for({1: "AS KS QS", 0: "6H 7H 8H"}, 0, 2)


def pot_limit_table(http: TestClient, stack: ExitStack, limit: str = "pot") -> AziTable:
    return AziTable(http, stack, 2, {"decks": [DECK], "first_dealer": 0, "bet_limit": limit})


def test_a_pot_limit_table_caps_bets_and_raises_at_the_pot(db_client: TestClient) -> None:
    with ExitStack() as stack:
        table = pot_limit_table(db_client, stack)
        opening = table.start()
        assert opening["room"]["options"]["bet_limit"] == "pot"
        assert opening["view"]["pot"] == 20 and opening["view"]["to_act"] == [1]
        assert table.state(1)["legal"] == [{"kind": "bet", "min": 10, "max": 20}]
        error = refused(table, 1, bet(21), "action/bet_above_limit")
        assert "pot of 20" in error["message"]
        table.act(1, bet(20))
        raising = table.state(0)
        assert {"kind": "raise", "min": 30, "max": 80} in raising["legal"]
        error = refused(table, 0, raise_to(81), "action/raise_above_limit")
        assert "at most 80" in error["message"]
        raised = table.act(0, raise_to(80))
    assert raised["view"]["pot"] == 20 + 20 + 80


def test_without_a_limit_a_bet_may_take_the_whole_stack(db_client: TestClient) -> None:
    with ExitStack() as stack:
        table = pot_limit_table(db_client, stack, limit="none")
        table.start()
        assert table.state(1)["legal"] == [{"kind": "bet", "min": 10, "max": 990}]


def test_an_unknown_bet_limit_is_refused(db_client: TestClient) -> None:
    owner = Client(db_client, "Owner")
    response = db_client.post("/api/rooms", headers=owner.auth,
                              json={"game": "azi", "options": {"bet_limit": "half_pot"}, "private": True})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "options/invalid" and "bet_limit" in error["message"]
