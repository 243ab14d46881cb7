"""The log of a real ``cardroom serve`` with JSON lines on, through a whole session: players sign in
(their sockets by the auth message and by ``?token=``), play a match to its end, call the HTTP API
with their tokens, and the node is told to stop (SIGTERM) and drains. Every line the process wrote is
a JSON object carrying the ids that apply, and no token used in the session is in any of them."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient
from support.live import LiveClient, LiveServer, free_port, play_one_deal

Line = dict[str, Any]
DRAIN_SECONDS = "600"
WAIT_SECONDS = 30


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(database_url, tmp_path / "server.log", log_format="json", drain_seconds=DRAIN_SECONDS,
                    metrics_port=str(free_port())) as live:
        yield live


def until_answer(url: str, status: int) -> httpx.Response:
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        response = httpx.get(url, timeout=10)
        if response.status_code == status or time.monotonic() > deadline:
            return response


def drain_and_stop(server: LiveServer) -> tuple[httpx.Response, httpx.Response]:
    """SIGTERM: the node drains (not ready, still alive); a second SIGTERM ends it."""
    assert server.process is not None
    server.process.send_signal(signal.SIGTERM)
    ready = until_answer(f"{server.base}/api/ready", 503)
    alive = httpx.get(f"{server.base}/api/health", timeout=10)
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=WAIT_SECONDS)
    return ready, alive


def read_lines(log: Path) -> list[Line]:
    lines = []
    for text in log.read_text().splitlines():
        line = json.loads(text)
        assert isinstance(line, dict), text
        assert {"time", "level", "logger", "message"} <= set(line), text
        lines.append(line)
    return lines


def test_a_whole_session_logs_json_lines_with_their_ids_and_no_token(server: LiveServer) -> None:
    players = [LiveClient(server, f"Json {seat}") for seat in range(4)]
    room_id = play_one_deal(server, players, target=5)
    for player in players:
        player.close()
    match_id = server.get("/api/matches", player=players[0].id)["matches"][0]["id"]
    httpx.get(f"{server.base}/api/players/{players[0].id}?token={players[0].token}", timeout=10)
    httpx.get(f"{server.base}/api/rooms?a=1&access_token={players[1].token}", timeout=10)
    httpx.get(f"{server.base}/api/health", headers={"X-Request-ID": "probe-7"}, timeout=10)
    assert httpx.get(f"{server.base}/api/ready", timeout=10).status_code == 200
    assert httpx.get(f"{server.base}/metrics", timeout=10).status_code == 404
    metrics_port = server.env["CARDROOM_METRICS_PORT"]
    assert "cardroom_moves_total" in httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10).text
    ready, alive = drain_and_stop(server)
    assert ready.status_code == 503 and ready.json()["error"]["code"] == "server/draining"
    assert alive.status_code == 200

    text = server.log.read_text()
    for player in players:
        assert player.token not in text, f"{player.token} is in the server's log"
    lines = read_lines(server.log)
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert access
    assert all(line["request_id"] and "?" not in line["path"] and line["status"] for line in access)
    assert any(line["request_id"] == "probe-7" and line["path"] == "/api/health" for line in access)
    sockets = [line for line in lines if f'"WebSocket /ws/rooms/{room_id}"' in line["message"]]
    assert len(sockets) == 4 and all(line["room_id"] == room_id and line["request_id"] for line in sockets)
    assert not any("?" in line["message"] for line in sockets)
    signed_in = [line for line in lines if line["message"] == "signed in"]
    assert sorted(line["player_id"] for line in signed_in) == sorted(player.id for player in players)
    assert all(line["room_id"] == room_id and line["request_id"] for line in signed_in)
    # The server may also resume, and finish, rooms that earlier tests left in the same database.
    this_room = [line for line in lines if line.get("room_id") == room_id]
    started = next(line for line in this_room if line["message"] == "match started")
    assert (started["room_id"], started["match_id"], started["player_id"]) == (room_id, match_id,
                                                                                players[0].id)
    finished = next(line for line in this_room if line["message"] == "match finished")
    assert (finished["room_id"], finished["match_id"]) == (room_id, match_id)
    assert any(line["logger"] == "app.drain" for line in lines)


def test_a_request_id_is_answered_and_a_bad_one_replaced(client: TestClient) -> None:
    kept = client.get("/api/health", headers={"X-Request-ID": "lb-1234.5"})
    replaced = client.get("/api/health", headers={"X-Request-ID": "bad id!"})
    made = client.get("/api/health")
    assert kept.headers["x-request-id"] == "lb-1234.5"
    assert replaced.headers["x-request-id"] not in ("bad id!", "")
    assert len(made.headers["x-request-id"]) == 16 and made.headers["x-request-id"] != \
        replaced.headers["x-request-id"]


def test_every_http_answer_names_the_node_that_gave_it(client: TestClient) -> None:
    node_id = client.app.state.settings.node_id  # type: ignore[attr-defined]
    answers = [client.get("/api/health"), client.get("/"), client.get("/api/rooms/nowhere"),
               client.post("/api/players", content=b"x" * 70_000)]
    assert [answer.status_code for answer in answers] == [200, 200, 404, 413]
    assert {answer.headers["x-cardroom-node"] for answer in answers} == {node_id}
