"""A real server in a subprocess, and clients that talk to it over real sockets."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2 as httpx
from websockets.sync.client import ClientConnection, connect

from support.hazari import GROUPS, deck_giving, hand_text

Message = dict[str, Any]
PROJECT = Path(__file__).resolve().parents[2]
# A bound on a server's start, generous for a loaded machine; a server that exits fails at once.
START_SECONDS = 90


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def stop_process(process: subprocess.Popen[bytes] | None) -> None:
    """Ends ``process`` if it still runs: SIGTERM, then SIGKILL after ten seconds."""
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


class LiveServer:
    """``cardroom serve`` on a free port, started by ``with``; ``kill()`` sends SIGKILL, ``start()``
    starts it again, and leaving the ``with`` stops it whatever it is doing."""

    def __init__(self, database_url: str, log: Path, **settings: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.env = {**os.environ, "CARDROOM_DATABASE_URL": database_url, "CARDROOM_PORT": str(self.port),
                    "CARDROOM_TEST_MODE": "1", "CARDROOM_REVEAL_PAUSE": "0", "CARDROOM_BOT_DELAY": "0",
                    "CARDROOM_SEED_WAIT": "0", "CARDROOM_GUESTS_PER_HOUR": "100000",
                    "CARDROOM_DEAL_PAUSE_SECONDS": "0",
                    **{f"CARDROOM_{key.upper()}": value for key, value in settings.items()}}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "app.cli", "serve"], cwd=PROJECT,
                                            env=self.env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        ended = f"exited with {self.process.returncode}" if self.process.poll() is not None else "is not up"
        raise AssertionError(f"the server {ended}: {self.log.read_text()[-2000:]}")

    def __enter__(self) -> LiveServer:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        stop_process(self.process)

    def post(self, path: str, body: Message, token: str | None = None) -> Message:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = httpx.post(f"{self.base}{path}", json=body, headers=headers, timeout=10)
        assert response.status_code < 300, response.text
        result: Message = response.json()
        return result

    def get(self, path: str, **params: Any) -> Message:
        response = httpx.get(f"{self.base}{path}", params=params, timeout=10)
        result: Message = response.json()
        return result


class LiveClient:
    """A player with a real WebSocket to one room."""

    def __init__(self, server: LiveServer, name: str) -> None:
        self.server = server
        body = server.post("/api/players", {"name": name})
        self.id: str = body["id"]
        self.token: str = body["token"]
        self.ws: ClientConnection | None = None
        self.sockets = ExitStack()
        self.last_state: Message | None = None

    def connect(self, room_id: str) -> Message:
        self.close()
        url = f"ws://127.0.0.1:{self.server.port}/ws/rooms/{room_id}"
        self.ws = self.sockets.enter_context(connect(url, open_timeout=10))
        self.send({"type": "auth", "token": self.token})
        self.until(lambda m: m["type"] == "authenticated")
        return self.until(lambda m: m["type"] == "state")

    def close(self) -> None:
        self.sockets.close()
        self.ws = None

    def send(self, message: Message) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(message))

    def until(self, predicate: Callable[[Message], bool], timeout: float = 20) -> Message:
        assert self.ws is not None
        deadline = time.monotonic() + timeout
        while True:
            message: Message = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if message["type"] == "state":
                self.last_state = message
            if predicate(message):
                return message

    def state_where(self, predicate: Callable[[Message], bool], timeout: float = 20) -> Message:
        if self.last_state is not None and predicate(self.last_state):
            return self.last_state
        return self.until(lambda m: m["type"] == "state" and predicate(m), timeout)


def call_up(player: LiveClient, deal: int) -> None:
    state = player.state_where(lambda m: m["view"].get("deal_number") == deal
                                         and m["view"]["phase"] == "arranging")
    groups = GROUPS[hand_text(state)]
    player.send({"type": "act", "id": f"up-{deal}", "action": {"kind": "up", "groups": groups}})


def seat_live(players: list[LiveClient], room_id: str) -> None:
    for seat, player in enumerate(players):
        player.connect(room_id)
        player.send({"type": "sit", "seat": seat})
        player.state_where(lambda m, s=seat, p=player: m["room"]["seats"][s]["player_id"] == p.id)


def connect_by_address(player: LiveClient, room_id: str) -> None:
    player.close()
    url = f"ws://127.0.0.1:{player.server.port}/ws/rooms/{room_id}?token={player.token}"
    player.ws = player.sockets.enter_context(connect(url, open_timeout=10))
    player.until(lambda m: m["type"] == "state")


def play_one_deal(live: LiveServer, players: list[LiveClient], target: int = 300) -> str:
    """One deal of Hazari (the whole match when ``target`` is reached in it); returns the room's id."""
    room = live.post("/api/rooms", {"game": "hazari", "options": {
        "target": target, "decks": [deck_giving(0, dealer=0)], "first_dealer": 0}}, players[0].token)
    for seat, player in enumerate(players):
        if seat % 2:
            connect_by_address(player, room["id"])
        else:
            player.connect(room["id"])
        player.send({"type": "sit", "seat": seat})
        player.state_where(lambda m, s=seat, p=player: m["room"]["seats"][s]["player_id"] == p.id)
    players[0].send({"type": "start"})
    for player in players:
        call_up(player, 1)
    players[0].state_where(lambda m: m["view"].get("deal_number") == 2 or m["room"]["status"] == "finished")
    room_id: str = room["id"]
    return room_id
