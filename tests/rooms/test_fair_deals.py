"""Provably fair deals end to end: the commitment comes before the players' seeds, the deck is the one
the seeds give, the seeds are revealed when the deal ends, and the verifier catches tampering."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient
from support import Client, Message, make_settings, seat_all
from support.live import PROJECT, LiveClient, LiveServer

from app.db import models
from app.db.session import close_engine, make_engine
from app.games.cards import card_texts, parse_cards
from app.games.hazari.arrangements import random_arrangement
from app.main import create_app
from app.verify import verify_match


@pytest.fixture
def waiting_for_seeds(fresh_sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(make_settings(fresh_sqlite_url, seed_wait=10.0),
                               run_migrations=False)) as client:
        yield client


def up(player: Client, state: Message, rng: random.Random) -> None:
    groups = random_arrangement(parse_cards(state["view"]["hand"]), rng)
    player.act({"kind": "up", "groups": [card_texts(group) for group in groups]})


def test_a_deal_follows_the_commitment_and_the_players_seeds(waiting_for_seeds: TestClient) -> None:
    client, rng = waiting_for_seeds, random.Random(5)
    players = [Client(client, f"Fair {seat}") for seat in range(4)]
    room_id = players[0].create_room("hazari", {"target": 90})
    seeds = [f"{seat:02d}" + "ab" * 15 for seat in range(4)]
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "start"})
        committed = players[0].state_where(lambda m: bool(m["fairness"] and m["fairness"]["deals"]))
        promise = committed["fairness"]["deals"][0]
        assert promise["deal"] == 1 and promise["server_seed"] is None
        assert promise["awaiting"] == [0, 1, 2, 3]
        assert committed["view"]["phase"] == "dealing", "nothing is dealt before the seeds"
        for seat, player in enumerate(players):
            player.send({"type": "seed", "deal": 1, "seed": seeds[seat]})
        players[3].send({"type": "seed", "deal": 1, "seed": seeds[3]})
        assert players[3].error()["code"] in ("fairness/already_seeded", "fairness/not_waiting")
        for player in players:
            up(player, player.state_where(lambda m: m["view"]["phase"] == "arranging"), rng)
        final = players[0].state_where(lambda m: m["view"]["phase"] == "finished")
    revealed = final["fairness"]["deals"][-1]
    assert revealed["server_seed"] is not None
    assert hashlib.sha256(bytes.fromhex(revealed["server_seed"])).hexdigest() == promise["commitment"]

    match = client.get(f"/api/matches/{final['room']['match_id']}").json()
    fairness = match["deals"][0]["fairness"]
    assert fairness == {"commitment": promise["commitment"], "client_seeds": seeds,
                        "server_seed": revealed["server_seed"]}
    assert verify_match(match) == ([], 1)

    tampered = copy.deepcopy(match)
    deck = tampered["deals"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    assert verify_match(tampered)[0] == ["deal 1: the deck is not the one the seeds give"]
    tampered = copy.deepcopy(match)
    tampered["deals"][0]["fairness"]["server_seed"] = "00" * 32
    assert len(verify_match(tampered)[0]) == 2
    tampered = copy.deepcopy(match)
    tampered["deals"][0]["fairness"]["client_seeds"][2] = "ff" * 16
    assert verify_match(tampered)[0] == ["deal 1: the deck is not the one the seeds give"]


def test_seeds_are_checked(waiting_for_seeds: TestClient) -> None:
    players = [Client(waiting_for_seeds, f"Seed {seat}") for seat in range(4)]
    room_id = players[0].create_room("hazari")
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "start"})
        players[0].state_where(lambda m: bool(m["fairness"] and m["fairness"]["deals"]))
        for seed, code in (("xyz", "message/invalid"), ("ABCDEF0123456789", "fairness/bad_seed"),
                           ("0123", "fairness/bad_seed")):
            players[1].send({"type": "seed", "deal": 1, "seed": seed} if seed != "xyz"
                            else {"type": "seed", "deal": "1", "seed": seed})
            assert players[1].error()["code"] == code
        players[1].send({"type": "seed", "deal": 2, "seed": "0123456789abcdef"})
        assert players[1].error()["code"] == "fairness/not_waiting"


def test_the_verifier_command_checks_a_real_match_and_catches_a_forged_deck(tmp_path: Path,
                                                                            sqlite_template: Path) -> None:
    database = tmp_path / "fair.db"
    database.write_bytes(sqlite_template.read_bytes())
    url = f"sqlite+aiosqlite:///{database}"
    with LiveServer(url, tmp_path / "server.log") as server:
        player = LiveClient(server, "Verifier")
        room = server.post("/api/rooms", {"game": "hazari", "options": {"target": 90}}, player.token)
        player.connect(room["id"])
        player.send({"type": "sit", "seat": 0})
        for seat in (1, 2, 3):
            player.send({"type": "add_bot", "seat": seat, "level": "random"})
        player.state_where(lambda m: all(s["bot"] for s in m["room"]["seats"][1:]))
        player.send({"type": "start"})
        state = player.state_where(lambda m: m["view"]["phase"] == "arranging")
        groups = random_arrangement(parse_cards(state["view"]["hand"]), random.Random(1))
        player.send({"type": "act", "action": {"kind": "up", "groups": [card_texts(g) for g in groups]}})
        match_id = player.state_where(lambda m: m["view"]["phase"] == "finished")["room"]["match_id"]
        player.close()
        ok = verify_command(server, match_id)
        assert ok.returncode == 0 and "1 deal(s) verified, 0 problem(s)" in ok.stdout
        asyncio.run(forge_deck(url, match_id))
        forged = verify_command(server, match_id)
        assert forged.returncode == 1
        assert "FAIL deal 1: the deck is not the one the seeds give" in forged.stdout


def verify_command(server: LiveServer, match_id: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", "verify", match_id, "--server", server.base],
                          cwd=PROJECT, capture_output=True, text=True, timeout=60, check=False)


async def forge_deck(url: str, match_id: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            deck = (await connection.execute(
                models.Deal.__table__.select().where(models.Deal.match_id == match_id))).first()
            assert deck is not None
            cards = list(deck.deck)
            cards[0], cards[-1] = cards[-1], cards[0]
            await connection.execute(update(models.Deal).where(models.Deal.match_id == match_id)
                                     .values(deck=cards))
    finally:
        await close_engine(engine)
