"""The nginx configuration of ``deploy/nginx`` in front of two real nodes (``cardroom serve``, each on
a SQLite file of its own): HTTP reaches both nodes, every socket of one room reaches the same node
while rooms spread over both, the nodes see the player's address, and a stopped node's traffic goes to
the other. Which node answered: ``X-Cardroom-Node`` for HTTP, each node's log for sockets.

Outside CI a machine without ``/usr/sbin/nginx`` skips the tests that run nginx, with a printed
notice; with ``CI=true`` they must run (``make test`` installs nginx first)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from support import installed
from support.live import LiveServer
from support.nginx import NGINX, TEMPLATE, Nginx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.api.routes import players

NODES = ("app1", "app2")
PLAYER = "127.0.0.3"
"""The test's address as a player (nginx reaches the nodes from 127.0.0.1): what the nodes must see."""
FORGED = "203.0.113.7"
CLOSE_POLICY = 1008


@dataclass
class Front:
    nginx: Nginx
    nodes: dict[str, LiveServer]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.nginx.port}"


@pytest.fixture(scope="module")
def nginx_program() -> Path:
    return installed(NGINX, "nginx", "nginx", "nginx")


@contextmanager
def front_of_two_nodes(folder: Path, template_database: Path) -> Iterator[Front]:
    """Two nodes that believe every proxy header, as in docker-compose.cluster.yml, behind nginx."""
    with ExitStack() as stack:
        nodes = {}
        for name in NODES:
            database = folder / f"{name}.db"
            shutil.copyfile(template_database, database)
            nodes[name] = LiveServer(f"sqlite+aiosqlite:///{database}", folder / f"{name}.log", node_id=name,
                                     forwarded_allow_ips="*", log_format="json")
            stack.callback(nodes[name].stop)
        with ThreadPoolExecutor(len(nodes)) as starting:
            list(starting.map(LiveServer.start, nodes.values()))
        nginx = stack.enter_context(Nginx(folder / "nginx", *(f"127.0.0.1:{node.port}"
                                                               for node in nodes.values())))
        yield Front(nginx, nodes)


@pytest.fixture(scope="module")
def front(nginx_program: Path, sqlite_template: Path,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[Front]:
    with front_of_two_nodes(tmp_path_factory.mktemp("front"), sqlite_template) as started:
        yield started


def as_player() -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=PLAYER), timeout=10)


def open_room_socket(front: Front, room_id: str) -> None:
    """A socket through nginx to a room no node has: the node that takes it upgrades it, sends
    ``room/not_found`` and closes it with 1008."""
    url = f"ws://127.0.0.1:{front.nginx.port}/ws/rooms/{room_id}"
    with connect(url, open_timeout=10, source_address=(PLAYER, 0)) as socket:
        frame = json.loads(socket.recv(timeout=10))
        assert (frame["type"], frame["code"]) == ("error", "room/not_found"), frame
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_POLICY


def log_lines(node: LiveServer) -> list[dict[str, Any]]:
    return [json.loads(line) for line in node.log.read_text().splitlines() if line.startswith("{")]


def accepted_sockets(node: LiveServer, room_id: str) -> list[str]:
    """The client address of each socket to ``room_id`` the node accepted, as its log says."""
    line = re.compile(rf'(.+):\d+ - "WebSocket /ws/rooms/{re.escape(room_id)}" \[accepted\]')
    return [found.group(1) for entry in log_lines(node)
            if (found := line.fullmatch(entry["message"])) is not None]


def owners(front: Front, room_id: str) -> list[str]:
    """The node of each socket to ``room_id`` so far, one entry a socket."""
    return [name for name, node in front.nodes.items() for _ in accepted_sockets(node, room_id)]


def test_http_answers_come_through_from_both_nodes(front: Front) -> None:
    with as_player() as player:
        answers = [player.get(f"{front.base}/api/health") for _ in range(8)]
    assert all(answer.status_code == 200 and answer.json() == {"status": "ok"} for answer in answers)
    assert {answer.headers["x-cardroom-node"] for answer in answers} == set(NODES)


def test_every_socket_of_a_room_reaches_one_node_and_rooms_spread(front: Front) -> None:
    rooms = [f"spread-{number}" for number in range(16)]
    for room_id in rooms:
        for _ in range(3):
            open_room_socket(front, room_id)
    reached = {room_id: owners(front, room_id) for room_id in rooms}
    assert all(len(nodes) == 3 and len(set(nodes)) == 1 for nodes in reached.values()), reached
    assert {nodes[0] for nodes in reached.values()} == set(NODES), reached


def test_the_nodes_see_the_player_s_address_and_not_a_forged_one(front: Front) -> None:
    with as_player() as player:
        answer = player.get(f"{front.base}/api/health",
                            headers={"X-Forwarded-For": FORGED, "X-Real-IP": FORGED})
    node = front.nodes[answer.headers["x-cardroom-node"]]
    access = next(entry for entry in log_lines(node) if entry["logger"] == "uvicorn.access"
                  and entry.get("request_id") == answer.headers["x-request-id"])
    assert access["client"].rpartition(":")[0] == PLAYER
    open_room_socket(front, "address-1")
    assert [address for node in front.nodes.values()
            for address in accepted_sockets(node, "address-1")] == [PLAYER]


def test_a_body_over_the_limit_gets_the_node_s_own_answer(front: Front) -> None:
    with as_player() as player:
        answer = player.post(f"{front.base}/api/players", content=b"x" * 65_537,
                             headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert answer.json()["error"]["code"] == "request/too_large"


def test_the_history_stream_is_passed_on_unbuffered() -> None:
    path = next(route.path for route in players.router.routes
                if getattr(route, "path", "").endswith(".ndjson"))
    unbuffered = re.search(r"location ~ (\S+) \{[^}]*proxy_buffering off;[^}]*\}", TEMPLATE.read_text())
    assert unbuffered is not None
    assert re.fullmatch(unbuffered.group(1), path.replace("{player_id}", "Ab3_-xYz9QrT")), path


def test_without_forwarded_allow_ips_a_node_ignores_the_proxy_headers(
        sqlite_template: Path, tmp_path: Path) -> None:
    """uvicorn by itself believes these headers from 127.0.0.1; a node that names no proxy does not."""
    database = tmp_path / "cardroom.db"
    shutil.copyfile(sqlite_template, database)
    with LiveServer(f"sqlite+aiosqlite:///{database}", tmp_path / "node.log", log_format="json") as node:
        answer = httpx.get(f"{node.base}/api/health", headers={"X-Forwarded-For": FORGED}, timeout=10)
    access = next(entry for entry in log_lines(node) if entry["logger"] == "uvicorn.access"
                  and entry.get("request_id") == answer.headers["x-request-id"])
    assert access["client"].rpartition(":")[0] == "127.0.0.1"


def test_when_a_node_stops_requests_and_new_sockets_reach_the_other(
        nginx_program: Path, sqlite_template: Path, tmp_path: Path) -> None:
    rooms = [f"stop-{number}" for number in range(16)]
    with front_of_two_nodes(tmp_path, sqlite_template) as front:
        for room_id in rooms:
            open_room_socket(front, room_id)
        on_app1 = [room_id for room_id in rooms if owners(front, room_id) == ["app1"]]
        assert on_app1, "some rooms hash to app1"
        front.nodes["app1"].stop()
        with as_player() as player:
            answers = [player.get(f"{front.base}/api/health") for _ in range(6)]
        assert [(answer.status_code, answer.headers.get("x-cardroom-node")) for answer in answers] == \
            [(200, "app2")] * 6
        for room_id in rooms:
            open_room_socket(front, room_id)
        assert all(owners(front, room_id) == ["app1", "app2"] for room_id in on_app1)
        assert all(owners(front, room_id) == ["app2", "app2"] for room_id in rooms
                   if room_id not in on_app1)
