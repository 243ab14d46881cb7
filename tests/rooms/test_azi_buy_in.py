"""A chip table's buy-in: a player brings a chosen table stack between the table's minimum and
maximum; the session can take no more than that from his wallet, and bad amounts change nothing."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient
from support import Client, Message, make_settings, query
from support.azi import CALL, AziTable, azi_deck_for, bet, match_transfers, options_with, play

from app.db import models
from app.db.ledger import bot_account
from app.main import create_app

STARTING = 1000
DECK = azi_deck_for({1: "6H 7H 8H", 0: "AH KH QS"}, 0, 2)


def sit(player: Client, seat: int, buy_in: object) -> None:
    player.send({"type": "sit", "seat": seat, "buy_in": buy_in})


def test_a_lost_buy_in_leaves_the_rest_in_the_wallet(db_client: TestClient) -> None:
    with ExitStack() as stack:
        table = AziTable(db_client, stack, 2, options_with([DECK], 0), prefix="Buy")
        players = table.players
        players[1].send({"type": "stand"})
        players[1].state_where(lambda m: m["room"]["seats"][1]["player_id"] is None)
        sit(players[1], 1, 850)
        seated = players[1].state_where(lambda m: m["room"]["seats"][1]["player_id"] == players[1].id)
        opening = table.start()
        opening_legal = table.state(1)["legal"]
        table.run([(1, bet(840)), (0, CALL)])
        final = table.run(play("1:6H", "0:AH", "0:KH", "1:7H"))
    assert seated["room"]["seats"][1]["buy_in"] == 850 and seated["room"]["options"]["min_buy_in"] == 20
    assert opening["view"]["stacks"] == [990, 840]
    assert opening_legal == [{"kind": "bet", "min": 10, "max": 840}]
    assert final["view"]["phase"] == "match_over" and final["view"]["stacks"] == [1850, 0]
    chips = [db_client.get(f"/api/players/{player.id}").json()["chips"] for player in players]
    assert chips == [STARTING + 850, STARTING - 850]
    # 150 chips cannot pay the smallest buy-in at the default stake (200): a top-up is granted.
    loser = players[1]
    topped = db_client.post(f"/api/players/{loser.id}/top-up", headers=loser.auth)
    assert topped.status_code == 200 and topped.json()["chips"] == STARTING


@pytest.mark.parametrize(("buy_in", "code", "words"), [
    (199, "room/bad_buy_in", "from 200 to 1000 chips"),
    (1001, "room/bad_buy_in", "from 200 to 1000 chips"),
    ("300", "message/invalid", "buy_in"),
    (250.5, "message/invalid", "buy_in"),
])
def test_a_bad_buy_in_is_refused_and_changes_nothing(db_client: TestClient, buy_in: object,
                                                     code: str, words: str) -> None:
    owner = Client(db_client, "Owner")
    room_id = owner.create_room("azi", {"stake": 10}, private=True)
    with owner.connected(room_id):
        sit(owner, 0, buy_in)
        error = owner.error()
    assert error["code"] == code and words in error["message"]
    after = db_client.get(f"/api/rooms/{room_id}").json()
    assert after["seats"][0]["player_id"] is None
    assert db_client.get(f"/api/players/{owner.id}").json()["chips"] == STARTING


@pytest.mark.parametrize(("game", "options", "buy_in", "code"), [
    ("azi", {"stake": 10, "max_buy_in": 200}, 1500, "chips/insufficient"),
    ("hazari", {}, 300, "room/no_buy_in"),
])
def test_a_buy_in_the_table_cannot_take_is_refused(db_client: TestClient, game: str, options: Message,
                                                   buy_in: int, code: str) -> None:
    owner = Client(db_client, "Owner")
    room_id = owner.create_room(game, options, private=True)
    with owner.connected(room_id):
        sit(owner, 0, buy_in)
        error = owner.error()
    assert error["code"] == code
    assert db_client.get(f"/api/rooms/{room_id}").json()["seats"][0]["player_id"] is None


def test_a_buy_in_range_upside_down_is_refused(db_client: TestClient) -> None:
    owner = Client(db_client, "Owner")
    response = db_client.post("/api/rooms", headers=owner.auth, json={
        "game": "azi", "options": {"min_buy_in": 50, "max_buy_in": 40}, "private": True})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "options/invalid" and "min_buy_in" in error["message"]


def test_a_wallet_below_the_smallest_buy_in_cannot_sit(db_client: TestClient) -> None:
    owner = Client(db_client, "Owner")
    room_id = owner.create_room("azi", {"stake": 10, "min_buy_in": 101, "max_buy_in": 200}, private=True)
    with owner.connected(room_id):
        owner.send({"type": "sit", "seat": 0})
        error = owner.error()
    assert error["code"] == "room/no_ante" and "1010" in error["message"] and "1000" in error["message"]
    assert db_client.get(f"/api/rooms/{room_id}").json()["seats"][0]["player_id"] is None


def test_a_bot_brings_the_tables_largest_buy_in(db_client: TestClient) -> None:
    """Not the starting chips of a new player: at a stake of 5 with buy-ins of 20 to 40 stakes, the
    bot brings 200 chips, granted from the bank to its own account, and the person his 150."""
    owner = Client(db_client, "Host")
    room_id = owner.create_room("azi", {"stake": 5, "min_buy_in": 20, "max_buy_in": 40}, private=True)
    with owner.connected(room_id):
        sit(owner, 0, 150)
        owner.send({"type": "add_bot", "seat": 1, "level": "random"})
        waiting = owner.state_where(lambda m: m["room"]["seats"][1]["bot"])
        owner.send({"type": "start"})
        started = owner.state_where(lambda m: m["view"]["phase"] != "waiting")
    assert [seat["buy_in"] for seat in waiting["room"]["seats"][:2]] == [150, 200]
    match = db_client.get(f"/api/matches/{started['room']['match_id']}").json()
    assert match["stacks"] == [150, 200]
    grants = [row for row in match_transfers(db_client, match["id"]) if row["kind"] == "grant"]
    assert grants == [{"source": "bank", "target": bot_account(match["id"], 1), "amount": 200,
                       "kind": "grant", "deal": None, "action_seq": None}]


def test_the_chosen_buy_in_survives_a_restart_before_the_start(database_url: str) -> None:
    """Two players choose their buy-ins (one moves to another seat and keeps his), the server stops
    before the start; after the next start the room shows the same amounts and the match starts
    with them."""
    with TestClient(create_app(make_settings(database_url), run_migrations=False)) as first:
        owner, guest = Client(first, "Keeper"), Client(first, "Mover")
        room_id = owner.create_room("azi", {"stake": 10}, private=True)
        with owner.connected(room_id), guest.connected(room_id):
            sit(owner, 0, 300)
            sit(guest, 1, 250)
            guest.state_where(lambda m: m["room"]["seats"][1]["player_id"] == guest.id)
            guest.send({"type": "sit", "seat": 2})
            before = guest.state_where(lambda m: m["room"]["seats"][2]["player_id"] == guest.id)
    stored = query(database_url, select(models.RoomSeat.seat, models.RoomSeat.buy_in)
                   .where(models.RoomSeat.room_id == room_id).order_by(models.RoomSeat.seat))
    assert [tuple(row) for row in stored][:3] == [(0, 300), (1, None), (2, 250)]
    with TestClient(create_app(make_settings(database_url), run_migrations=False)) as second:
        owner.http = guest.http = second
        after = second.get(f"/api/rooms/{room_id}").json()
        with owner.connected(room_id):
            owner.send({"type": "start"})
            started = owner.state_where(lambda m: m["view"]["phase"] != "waiting")
        match = second.get(f"/api/matches/{started['room']['match_id']}").json()
    chosen = [seat.get("buy_in") for seat in before["room"]["seats"]]
    assert chosen[:3] == [300, None, 250]
    assert [seat.get("buy_in") for seat in after["seats"]] == chosen
    assert match["stacks"] == [300, 250]
