"""No token reaches the server's log: a real ``cardroom serve`` with uvicorn's access log on, a short
session whose players sign their sockets in by the auth message and by ``?token=``, and the whole log
searched for every token used."""

from __future__ import annotations

import logging

import httpx2 as httpx
import pytest
from support.live import LiveClient, LiveServer, play_one_deal
from websockets.sync.client import connect

from app.redaction import REDACTED, RedactSecrets, redact


def test_no_token_used_in_a_session_reaches_a_log_line(server: LiveServer) -> None:  # noqa: F811
    players = [LiveClient(server, f"Logged {seat}") for seat in range(4)]
    play_one_deal(server, players)
    for player in players:
        player.close()
    httpx.get(f"{server.base}/api/players/{players[0].id}?token={players[0].token}", timeout=10)
    httpx.get(f"{server.base}/api/rooms?a=1&access_token={players[1].token}", timeout=10)
    with connect(f"ws://127.0.0.1:{server.port}/ws/rooms/nowhere?token={players[2].token}") as refused:
        refused.recv(timeout=10)
    server.stop()

    log = server.log.read_text()
    assert '"WebSocket /ws/rooms/' in log and "GET /api/players/" in log, "the access log was off"
    assert not any(query in log for query in ("?token", "?a=1", "access_token")), \
        "the addresses are logged without their query strings"
    for player in players:
        assert player.token not in log, f"{player.token} is in the server's log"


@pytest.mark.parametrize(("line", "expected"), [
    ("GET /ws/rooms/r1?token=abc HTTP/1.1", f"GET /ws/rooms/r1?token={REDACTED} HTTP/1.1"),
    ("/x?a=1&TOKEN=abc&b=2", f"/x?a=1&TOKEN={REDACTED}&b=2"),
    ("/x?%74oken=abc", f"/x?%74oken={REDACTED}"),
    ("/x?password=p;secret=s", f"/x?password={REDACTED};secret={REDACTED}"),
    ("/x?tokens=kept&name=token", "/x?tokens=kept&name=token"),
    ("token=abc&seat=2", f"token={REDACTED}&seat=2"),
])
def test_credential_parameters_are_redacted(line: str, expected: str) -> None:
    assert redact(line) == expected


def test_the_filter_redacts_the_arguments_uvicorn_formats() -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/ws/rooms/r?token=secret", "1.1", 101), None)
    assert RedactSecrets().filter(record)
    assert record.args == ("127.0.0.1:5", "GET", f"/ws/rooms/r?token={REDACTED}", "1.1", 101)
