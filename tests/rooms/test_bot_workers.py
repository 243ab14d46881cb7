"""The bots' worker processes end with the server that started them, whether it is stopped with
SIGTERM or killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import seat_owner_with_bots
from support.live import LiveClient, LiveServer


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until_gone(pids: set[int], limit: float = 10) -> set[int]:
    deadline = time.monotonic() + limit
    while (left := {pid for pid in pids if alive(pid)}) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(f"sqlite+aiosqlite:///{tmp_path / 'cardroom.db'}", tmp_path / "server.log") as live:
        yield live


def start_a_bot(server: LiveServer) -> set[int]:
    """Seats a person and three bots at a Hazari table and starts it, so that the bots' worker
    process exists; returns the server's child processes."""
    owner = LiveClient(server, "Owner")
    room = server.post("/api/rooms", {"game": "hazari", "private": True, "options": {"first_dealer": 0}},
                       owner.token)
    owner.connect(room["id"])
    seat_owner_with_bots(owner)
    owner.send({"type": "start"})
    owner.state_where(lambda m: bool(m["legal"]))
    owner.close()
    assert server.process is not None
    return wait_for_children(server.process.pid)


def wait_for_children(pid: int, limit: float = 20) -> set[int]:
    deadline = time.monotonic() + limit
    while not (found := children(pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert found, "the server has no worker process"
    return found


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_the_bots_workers_end_with_the_server(server: LiveServer, stop_signal: int) -> None:
    workers = start_a_bot(server)
    assert server.process is not None
    os.kill(server.process.pid, stop_signal)
    server.process.wait(timeout=20)
    assert wait_until_gone(workers) == set(), "worker processes outlived the server"
