"""Storage on real databases: every test here runs on SQLite and on PostgreSQL."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from sqlalchemy import func, select, text
from starlette.testclient import TestClient
from support import Client, Message, query, seat_all
from support.hazari import GROUPS, deck_giving, hand_text, hazari_match

from app.db import models

ORDERED = deck_giving(1, dealer=0)



def play_one_deal_match(http: TestClient, names: str) -> tuple[list[Client], str]:
    """A match to 300 that ends after its first deal (seat 1 takes all 360 points)."""
    players = [Client(http, f"{names}{seat}") for seat in range(4)]
    return players, hazari_match(players)


def arranged_in_play(players: list[Client], stack: ExitStack, seat: int, ref: str | None = None) -> Message:
    """A Hazari deal under way in which ``seat`` has arranged his hand: the state in which seat 0
    sees it."""
    room_id = players[0].create_room("hazari", {"decks": [ORDERED], "first_dealer": 0})
    seat_all(players, room_id, stack)
    players[0].send({"type": "start"})
    state = players[seat].state_where(lambda m: m["view"]["phase"] == "arranging")
    players[seat].act({"kind": "up", "groups": GROUPS[hand_text(state)]}, ref=ref)
    return players[0].state_where(lambda m: m["view"].get("up", [False] * 4)[seat])


def test_tokens_are_kept_only_as_hashes(db_client: TestClient, database_url: str) -> None:
    player = Client(db_client, "Secretive")
    rows = query(database_url, select(models.Player.token_hash).where(models.Player.id == player.id))
    assert rows and rows[0][0] != player.token and len(rows[0][0]) == 64
    dump = query(database_url, text("SELECT * FROM players"))
    assert all(player.token not in str(row) for row in dump)


def test_a_new_guest_is_granted_the_starting_chips_through_the_ledger(
        db_client: TestClient, database_url: str) -> None:
    player = Client(db_client, "Rich")
    assert db_client.get(f"/api/players/{player.id}").json()["chips"] == 1000
    rows = query(database_url, select(models.ChipTransfer.source, models.ChipTransfer.amount)
                 .where(models.ChipTransfer.target == f"player:{player.id}"))
    assert rows == [("bank", 1000)]


def test_every_action_is_stored_before_anyone_hears_of_it(
        db_client: TestClient, database_url: str) -> None:
    players = [Client(db_client, f"S{seat}") for seat in range(4)]
    with ExitStack() as stack:
        seen = arranged_in_play(players, stack, 2, ref="mine")
        match_id = seen["room"]["match_id"]
        stored = query(database_url, select(models.Action.seat, models.Action.action,
                                            models.Action.ref)
                       .where(models.Action.match_id == match_id).order_by(models.Action.seq))
    assert stored[0] == (None, {"kind": "deal", "deal": 1}, None)
    assert stored[1][0] == 2 and stored[1][1]["kind"] == "up" and stored[1][2] == "mine"
    decks = query(database_url, select(models.Deal.deck).where(models.Deal.match_id == match_id))
    assert decks == [(ORDERED,)]


def test_history_pages_newest_first_with_a_cursor(db_client: TestClient, database_url: str) -> None:
    players, first = play_one_deal_match(db_client, "H")
    later = [play_one_deal_match(db_client, "H")[1] for _ in range(2)]
    everyone_first = players[0].id
    page = db_client.get("/api/matches", params={"player": everyone_first, "limit": 5}).json()
    assert [m["id"] for m in page["matches"]] == [first] and page["next"] is None

    mine = [first, *later]
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"game": "hazari", "limit": 2}
        if cursor:
            params["before"] = cursor
        page = db_client.get("/api/matches", params=params).json()
        seen += [m["id"] for m in page["matches"]]
        cursor = page["next"]
        if cursor is None:
            break
    positions = [seen.index(match_id) for match_id in reversed(mine)]
    assert positions == sorted(positions), "newest first"
    assert len(seen) == len(set(seen)), "no match twice across pages"
    total = query(database_url, select(func.count()).select_from(models.Match)
                  .where(models.Match.game == "hazari", models.Match.status == "finished"))
    assert len(seen) == total[0][0]

    match = db_client.get(f"/api/matches/{first}").json()
    assert match["status"] == "finished" and match["result"]["winners"] == [1]
    assert match["deals"][0]["points"] == [0, 360, 0, 0]
    assert [seat["name"] for seat in match["seats"]] == [f"H{seat}" for seat in range(4)]
    bad = db_client.get("/api/matches", params={"before": "%%%"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "request/bad_cursor"


def test_a_running_match_hides_the_deck_and_arrangements_in_play(
        db_client: TestClient) -> None:
    players = [Client(db_client, f"R{seat}") for seat in range(4)]
    with ExitStack() as stack:
        seen = arranged_in_play(players, stack, 1)
        detail = db_client.get(f"/api/matches/{seen['room']['match_id']}").json()
    assert detail["status"] == "running"
    assert detail["deals"][0]["deck"] is None
    assert all(entry["action"]["kind"] != "up" for entry in detail["actions"])
