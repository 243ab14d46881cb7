"""Real matches played through the app for the operators' tests (backups, retention): a Hazari match
from a fixed deck and an Azi session between two people whose chips move, and everything the server
then says about them."""

from __future__ import annotations

import random
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from azi_support import AZI_PACK, STARTING_CHIPS
from sqlalchemy import select
from starlette.testclient import TestClient
from support import query, seat_all
from test_history_api import hazari_match, people
from test_replays import play_out

from app.db import models

AZI_DECKS = 150


@dataclass(frozen=True)
class Played:
    match_ids: list[str]
    player_ids: list[str]


def azi_session(http: TestClient, prefix: str, seed: int) -> tuple[str, list[str]]:
    """Two people at an Azi table with seeded decks, until one leaves; the match id and the players."""
    rng = random.Random(seed)
    decks = [rng.sample(AZI_PACK, len(AZI_PACK)) for _ in range(AZI_DECKS)]
    players = people(http, prefix, 2)
    room_id = players[0].create_room("azi", {"stake": 10, "decks": decks, "first_dealer": 0}, private=True)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "start"})
        final = play_out(dict(enumerate(players)), rng, leave=True)
    match_id: str = final["room"]["match_id"]
    return match_id, [str(player.id) for player in players]


def play_matches(http: TestClient, prefix: str, seed: int = 5) -> Played:
    """A Hazari match and an Azi session; the Azi players end with other chips than they began with."""
    hazari_players = people(http, f"{prefix}H", 4)
    hazari = hazari_match(hazari_players)
    azi, azi_players = azi_session(http, f"{prefix}A", seed)
    chips = [http.get(f"/api/players/{player_id}").json()["chips"] for player_id in azi_players]
    assert sum(chips) == 2 * STARTING_CHIPS and chips != [STARTING_CHIPS] * 2, "chips moved"
    return Played([hazari, azi], [str(player.id) for player in hazari_players] + azi_players)


def ledger(url: str) -> list[tuple[Any, ...]]:
    transfers = models.ChipTransfer
    return [tuple(row) for row in query(url, select(
        transfers.id, transfers.source, transfers.target, transfers.amount, transfers.kind,
        transfers.match_id, transfers.deal, transfers.action_seq, transfers.at).order_by(transfers.id))]


def what_the_server_says(http: TestClient, url: str, played: Played) -> dict[str, Any]:
    """The history list, each match in full, each player's profile (chips, statistics, ratings) and
    the whole chip ledger."""
    listed = http.get("/api/matches", params={"limit": 100})
    assert listed.status_code == 200, listed.text
    return {"list": listed.json(),
            "matches": {match_id: http.get(f"/api/matches/{match_id}").json()
                        for match_id in played.match_ids},
            "players": {player_id: http.get(f"/api/players/{player_id}").json()
                        for player_id in played.player_ids},
            "ledger": ledger(url)}
