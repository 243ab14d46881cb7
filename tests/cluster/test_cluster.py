"""Three nodes of one cluster, for real: ``cardroom serve`` subprocesses on one PostgreSQL database
and a Redis server of the test's own. Players of one room sit on different nodes and play whole
matches of each game; the owner is killed mid-deal, paused past its lease, restarted in turn with
the others, and Redis itself is restarted; each time the match goes on, nothing stored is lost or
stored twice, and the chips add up."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from support.cluster import Cluster, Player, environment_without_cluster, http, new_player, running_cluster
from support.live import PROJECT, free_port

from app.db.session import close_engine

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

Message = dict[str, Any]
GAMES: dict[str, tuple[Message, int | None]] = {
    "hazari": ({"target": 5}, None),
    "hasenpfeffer": ({"target": 1}, None),
    "azi": ({"stake": 10, "min_buy_in": 1, "max_buy_in": 1}, 10),
}
"""Each game's options for a short match, and the buy-in a player brings (chip games)."""


@pytest.fixture
async def cluster(cluster_database: str, tmp_path: Path) -> AsyncIterator[Cluster]:
    with running_cluster(cluster_database, tmp_path) as running:
        try:
            yield running
        finally:
            await asyncio.gather(*(player.leave() for player in running.players))


def finished(state: Message) -> bool:
    return bool(state["room"]["status"] == "finished")


async def query(database_url: str, sql: str, **params: Any) -> list[Any]:
    engine = create_async_engine(database_url)
    try:
        async with engine.connect() as connection:
            return list(await connection.execute(text(sql), params))
    finally:
        await close_engine(engine)


async def seated_table(cluster: Cluster, game: str, homes: list[int]) -> tuple[str, list[Player]]:
    """A room made through the first node with a person for each of ``homes`` (the node each one
    prefers) and random bots in the other seats of a four-seat table, started."""
    options, buy_in = GAMES[game]
    maker = cluster.nodes[0]
    people = [new_player(maker, f"P{seat}") for seat in range(len(homes))]
    room = maker.post("/api/rooms", {"game": game, "private": True, "options": options}, people[0][1])
    players = [Player(f"P{seat}", player_id, token, room["id"],
                      lambda home=home: _nodes_from(cluster, home))
               for seat, ((player_id, token), home) in enumerate(zip(people, homes, strict=True))]
    cluster.players.extend(players)
    for seat, player in enumerate(players):
        sit: Message = {"type": "sit", "seat": seat}
        if buy_in is not None:
            sit["buy_in"] = buy_in
        await player.open()
        await player.send(sit)
        await player.play(lambda state, s=seat, p=player:
                          state["room"]["seats"][s]["player_id"] == p.player_id)
    owner = players[0]
    for seat in range(len(players), 4):
        await owner.send({"type": "add_bot", "seat": seat, "level": "random"})
        await owner.play(lambda state, s=seat: state["room"]["seats"][s]["bot"])
    await owner.send({"type": "start"})
    return room["id"], players


def _nodes_from(cluster: Cluster, home: int) -> list[str]:
    """The nodes' addresses, starting at the player's own."""
    nodes = cluster.nodes[home:] + cluster.nodes[:home]
    return [node.base for node in nodes if node.running]


async def play_to_the_end(players: list[Player], seconds: float = 180) -> None:
    await asyncio.gather(*(player.play(finished, seconds) for player in players))


async def check_log(database_url: str, room_id: str) -> Message:
    """The room's match: finished, its steps numbered 1, 2, ... with no gap and none twice, no act
    stored twice, and at a chip table a pot that paid out every chip put in."""
    (match_id, status), = await query(database_url, "SELECT id, status FROM matches WHERE room_id = :room",
                                room=room_id)
    assert status == "finished"
    seqs = [row[0] for row in await query(database_url, "SELECT seq FROM actions WHERE match_id = :m "
                                                        "ORDER BY seq", m=match_id)]
    assert seqs == list(range(1, len(seqs) + 1))
    refs = [row[0] for row in await query(database_url, "SELECT ref FROM actions WHERE match_id = :m "
                                                        "AND ref IS NOT NULL", m=match_id)]
    assert len(refs) == len(set(refs))
    pot = await query(database_url, "SELECT COALESCE(SUM(CASE WHEN target = :pot THEN amount "
                                    "ELSE -amount END), 0) FROM chip_transfers "
                                    "WHERE source = :pot OR target = :pot",
                pot=f"pot:{match_id}")
    assert pot[0][0] == 0
    return {"match_id": match_id, "steps": len(seqs)}


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_players_on_different_nodes_play_a_whole_match(cluster: Cluster, game: str) -> None:
    room_id, players = await seated_table(cluster, game, homes=[1, 2])
    await play_to_the_end(players)
    owner = cluster.owner(room_id)
    assert owner in ("node1", "node2")
    await check_log(cluster.database_url, room_id)
    assert all(player.reconnects == 0 for player in players)
    assert [player.versions for player in players] == [sorted(player.versions) for player in players]
    listed = http(cluster.nodes[0], "GET", f"/api/rooms/{room_id}").json()
    assert listed["status"] == "finished"


async def test_the_owner_killed_mid_deal_the_match_finishes_on_another_node(cluster: Cluster) -> None:
    room_id, players = await seated_table(cluster, "hasenpfeffer", homes=[1, 2])
    await asyncio.gather(*(player.play(lambda state: state["version"] >= 12) for player in players))
    owner = cluster.owner(room_id)
    assert owner is not None
    dead = cluster.node(owner)
    on_dead_node = [player for player in players if player.connected_to == dead.base]
    dead.kill()
    await play_to_the_end(players)
    assert cluster.wait_owner(room_id) != owner
    await check_log(cluster.database_url, room_id)
    # The player whose socket was on the dead node reconnects once; the other one's node found the
    # room's next owner for him.
    assert [player.reconnects for player in on_dead_node] == [1]
    assert all(player.reconnects == 0 for player in players if player not in on_dead_node)
    for player in players:
        assert player.versions == sorted(player.versions)


async def test_a_paused_owner_woken_after_its_lease_never_writes(cluster: Cluster) -> None:
    """The owner is stopped (SIGSTOP) past its lease: another node takes the room and plays on. The
    move a player sent to the stopped node is never stored, even after it wakes up believing it
    still holds the room; that player is sent on to the new owner."""
    room_id, players = await seated_table(cluster, "hasenpfeffer", homes=[1, 2])
    direct, relayed = players
    owner = cluster.wait_owner(room_id)
    assert owner == "node1"
    state = await direct.play(lambda state: bool(state["legal"]) and state["version"] >= 6)
    stopped = cluster.node(owner)
    stopped.pause()
    await direct.send({"type": "act", "id": "stale-move", "action": state["legal"][0]})
    new_owner = cluster.wait_owner(room_id, other_than=owner)
    # The relayed player now reaches the new owner, which sees the other player away.
    after = await relayed.play(lambda seen: not seen["room"]["seats"][0]["connected"])
    stopped.resume()
    await play_to_the_end(players)
    log = await check_log(cluster.database_url, room_id)
    stale = await query(cluster.database_url, "SELECT count(*) FROM actions WHERE ref = 'stale-move'")
    assert stale[0][0] == 0
    assert cluster.owner(room_id) == new_owner
    assert after["version"] >= state["version"] and log["steps"] > 0
    assert direct.reconnects == 1 and relayed.reconnects == 0


async def test_nodes_restarted_in_turn_while_rooms_play(cluster: Cluster) -> None:
    """Every node stopped (SIGTERM) and started again in turn while four rooms play: nothing stored
    is lost or stored twice, and a player reconnects at most once for each restart of the node his
    socket was on."""
    tables = [await seated_table(cluster, "hasenpfeffer", homes=[number % 3, (number + 1) % 3])
              for number in range(4)]
    everyone = [player for _, players in tables for player in players]
    playing = [asyncio.ensure_future(player.play(finished, 300)) for player in everyone]
    for node in cluster.nodes:
        await asyncio.sleep(1.0)
        # The server ends by the signal it was sent, once it has handed its rooms over.
        assert await asyncio.to_thread(node.terminate) in (0, -signal.SIGTERM)
        await asyncio.to_thread(node.start)
    await asyncio.gather(*playing)
    for room_id, _ in tables:
        await check_log(cluster.database_url, room_id)
    for player in everyone:
        assert player.versions == sorted(player.versions)
        assert len(player.closed_on) == len(set(player.closed_on)), player.closed_on


async def test_rooms_play_on_while_redis_restarts(cluster: Cluster) -> None:
    """Redis is killed and started again empty: the rooms play on at their owners meanwhile, new rooms
    are refused in plain words, and once Redis is back the cluster takes new rooms and lists the
    playing one again."""
    room_id, players = await seated_table(cluster, "hasenpfeffer", homes=[1, 2])
    state = await players[0].play(lambda seen: seen["version"] >= 6)
    cluster.redis.kill()
    await asyncio.gather(*(player.play(lambda seen: seen["version"] > state["version"] + 6)
                           for player in players))
    maker_id, maker_token = new_player(cluster.nodes[0], "Late")
    refused = http(cluster.nodes[0], "POST", "/api/rooms", maker_token, {"game": "hazari"})
    assert refused.status_code == 503
    assert refused.json()["error"]["code"] == "cluster/unavailable"
    assert "Retry-After" in refused.headers
    cluster.redis.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        made = http(cluster.nodes[0], "POST", "/api/rooms", maker_token, {"game": "hazari"})
        if made.status_code == 201:
            break
        await asyncio.sleep(0.2)
    assert made.status_code == 201, made.text
    listed: list[Message] = []
    while time.monotonic() < deadline and room_id not in [room["id"] for room in listed]:
        listed = http(cluster.nodes[2], "GET", "/api/rooms?status=playing").json()
        await asyncio.sleep(0.2)
    await play_to_the_end(players)
    await check_log(cluster.database_url, room_id)


def test_a_node_with_a_wrong_redis_url_says_so_and_exits(cluster_database: str, tmp_path: Path) -> None:
    closed_port = free_port()
    for url, said in ((f"redis://127.0.0.1:{closed_port}/0", "does not answer"),
                      ("http://not-redis", "not a Redis URL")):
        env = {**environment_without_cluster(), "CARDROOM_DATABASE_URL": cluster_database,
               "CARDROOM_PORT": str(free_port()), "CARDROOM_REDIS_URL": url}
        ended = subprocess.run([sys.executable, "-m", "app.cli", "serve"], cwd=PROJECT, env=env,
                               capture_output=True, text=True, timeout=60)
        assert ended.returncode != 0
        assert "cannot join the cluster" in ended.stderr and said in ended.stderr, ended.stderr[-2000:]
