"""Real matches played through the app for the operators' tests (backups, retention): a Hazari match
from a fixed deck and an Azi session between two people whose chips move, and everything the server
then says about them."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from starlette.testclient import TestClient

from app.config import Settings
from app.db import models
from app.games.base import JSON
from app.games.cards import card_texts, parse_cards
from app.games.hazari.arrangements import random_arrangement
from app.main import create_app
from support import Client, Message, make_settings, query, seat_all
from support.azi import AZI_PACK, STARTING_CHIPS
from support.hazari import hazari_match

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


# These tests send many moves quickly: lift the per-connection message rate limit where there is one.
UNLIMITED = {"ws_messages_per_second": 1e6, "ws_message_burst": 1e6}


@contextmanager
def app_client(database_url: str, **overrides: object) -> Iterator[TestClient]:
    """The app in test mode, with no pauses and no message rate limit."""
    lifted = {name: value for name, value in UNLIMITED.items() if name in Settings.model_fields}
    settings = make_settings(database_url, **{**lifted, **overrides})
    with TestClient(create_app(settings, run_migrations=False)) as http:
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


def people(http: TestClient, prefix: str, count: int) -> list[Client]:
    tag = random.Random().randrange(10**6)
    return [Client(http, f"{prefix}{tag}-{number}") for number in range(count)]


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
