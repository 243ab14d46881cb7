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
from pathlib import Path
from typing import Any

import pytest
from support.cluster import (
    GAMES,
    Cluster,
    check_log,
    environment_without_cluster,
    finished,
    http,
    new_player,
    play_to_the_end,
    query,
    seated_table,
)
from support.live import PROJECT, free_port

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

Message = dict[str, Any]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_players_on_different_nodes_play_a_whole_match(cluster: Cluster, game: str) -> None:
    room_id, players = await seated_table(cluster, game, [cluster.entry(1), cluster.entry(2)])
    await play_to_the_end(players)
    owner = cluster.owner(room_id)
    assert owner in ("node1", "node2")
    await check_log(cluster.database_url, room_id)
    assert all(player.reconnects == 0 for player in players)
    assert [player.versions for player in players] == [sorted(player.versions) for player in players]
    listed = http(cluster.nodes[0].base, "GET", f"/api/rooms/{room_id}").json()
    assert listed["status"] == "finished"


async def test_the_owner_killed_mid_deal_the_match_finishes_on_another_node(cluster: Cluster) -> None:
    room_id, players = await seated_table(cluster, "hasenpfeffer", [cluster.entry(1), cluster.entry(2)])
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
    room_id, players = await seated_table(cluster, "hasenpfeffer", [cluster.entry(1), cluster.entry(2)])
    direct, relayed = players
    owner = cluster.wait_owner(room_id)
    assert owner == "node1"
    def first_seat_to_act(state: Message) -> bool:
        return 0 in state["view"]["to_act"] and state["version"] >= 6
    state, _ = await asyncio.gather(direct.play(first_seat_to_act), relayed.play(first_seat_to_act))
    stopped = cluster.node(owner)
    stopped.pause()
    await direct.send({"type": "act", "id": "stale-move", "action": state["legal"][0]})
    cluster.wait_owner(room_id, other_than=owner)
    # The relayed player now reaches the new owner, which sees the other player away.
    after = await relayed.play(lambda seen: not seen["room"]["seats"][0]["connected"])
    stopped.resume()
    await play_to_the_end(players)
    log = await check_log(cluster.database_url, room_id)
    stale = await query(cluster.database_url, "SELECT count(*) FROM actions WHERE ref = 'stale-move'")
    assert stale[0][0] == 0
    assert after["version"] >= state["version"] and log["steps"] > 0
    assert direct.reconnects == 1 and relayed.reconnects == 0


async def test_nodes_restarted_in_turn_while_rooms_play(cluster: Cluster) -> None:
    """Every node stopped (SIGTERM) and started again in turn while four rooms play: nothing stored
    is lost or stored twice, and a player reconnects at most once for each restart of the node his
    socket was on."""
    tables = [await seated_table(cluster, "hasenpfeffer", [cluster.entry(number % 3),
                                                           cluster.entry((number + 1) % 3)])
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
    room_id, players = await seated_table(cluster, "hasenpfeffer", [cluster.entry(1), cluster.entry(2)])
    state, _ = await asyncio.gather(*(player.play(lambda seen: seen["version"] >= 6) for player in players))
    cluster.redis.kill()
    await asyncio.gather(*(player.play(lambda seen: seen["version"] > state["version"] + 6)
                           for player in players))
    maker_id, maker_token = new_player(cluster.nodes[0].base, "Late")
    refused = http(cluster.nodes[0].base, "POST", "/api/rooms", maker_token, {"game": "hazari"})
    assert refused.status_code == 503
    assert refused.json()["error"]["code"] == "cluster/unavailable"
    assert "Retry-After" in refused.headers
    cluster.redis.start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        made = http(cluster.nodes[0].base, "POST", "/api/rooms", maker_token, {"game": "hazari"})
        if made.status_code == 201:
            break
        await asyncio.sleep(0.2)
    assert made.status_code == 201, made.text
    listed: list[Message] = []
    while time.monotonic() < deadline and room_id not in [room["id"] for room in listed]:
        listed = http(cluster.nodes[2].base, "GET", "/api/rooms?status=playing").json()
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
