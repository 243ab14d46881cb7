"""The cluster as deployed: nginx (the configuration of ``deploy/nginx``) in front of two nodes. nginx
sends every socket of a room to one node, and the first socket makes that node the room's owner, so the
players' sockets reach the owner with no relay; a node stopped for a deploy sends its players through
nginx to the other node at the cost of one reconnection."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support import installed
from support.cluster import (
    Cluster,
    check_log,
    play_to_the_end,
    running_cluster,
    scrape_total,
    seated_table,
)
from support.nginx import NGINX, Nginx

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture
def nginx_program() -> Path:
    return installed(NGINX, "nginx", "nginx", "nginx")


@pytest.fixture
async def front(nginx_program: Path, cluster_database: str,
                tmp_path: Path) -> AsyncIterator[tuple[Cluster, str]]:
    with running_cluster(cluster_database, tmp_path, count=2) as running, \
            Nginx(tmp_path / "nginx", *(f"127.0.0.1:{node.port}" for node in running.nodes)) as nginx:
        try:
            yield running, f"http://127.0.0.1:{nginx.port}"
        finally:
            await asyncio.gather(*(player.leave() for player in running.players))


def relays(cluster: Cluster) -> float:
    return sum(scrape_total(node.metrics_port, "cardroom_cluster_relays_total") for node in cluster.running())


async def test_through_nginx_every_socket_reaches_its_room_s_owner(front: tuple[Cluster, str]) -> None:
    cluster, address = front
    tables = [await seated_table(cluster, "hazari", [lambda: [address]] * 2, maker=address)
              for _ in range(4)]
    await asyncio.gather(*(play_to_the_end(players) for _, players in tables))
    for room_id, players in tables:
        await check_log(cluster.database_url, room_id)
        assert all(player.reconnects == 0 for player in players)
    assert relays(cluster) == 0


async def test_a_node_stopped_behind_nginx_costs_its_players_one_reconnection(
        front: tuple[Cluster, str]) -> None:
    """The players of the rooms the stopped node owned reconnect once, through nginx, and play on at
    the other node; the others never notice."""
    cluster, address = front
    tables = [await seated_table(cluster, "hasenpfeffer", [lambda: [address]] * 2, maker=address,
                                 target=3) for _ in range(4)]
    playing = [asyncio.ensure_future(player.play(lambda state: state["room"]["status"] == "finished", 300))
               for _, players in tables for player in players]
    while not all(players[0].last and players[0].last["version"] >= 8 for _, players in tables):
        await asyncio.sleep(0.05)
    owners = {room_id: cluster.owner(room_id) for room_id, _ in tables}
    stopped = max(cluster.nodes, key=lambda node: list(owners.values()).count(node.node_id))
    assert await asyncio.to_thread(stopped.terminate) in (0, -signal.SIGTERM)
    await asyncio.gather(*playing)
    for room_id, players in tables:
        await check_log(cluster.database_url, room_id)
        moved = owners[room_id] == stopped.node_id
        assert [player.reconnects for player in players] == [int(moved)] * 2, (owners, stopped.node_id)
