"""The bench-only WebSockets, the baselines of ``bench/load.py``, served only with
``CARDROOM_BENCH_ENDPOINTS=1`` (refused with close 1008 ``bench/disabled`` otherwise):

- ``/ws/echo``: each text frame comes back as it came, the bare round trip through the server.
- ``/ws/bench/durable/{group}``: each text frame is stored as one row of ``bench_writes`` in a
  committed transaction of its own and then sent, as it came, to every socket of its group (four, as
  the load generator opens them: a move reaches the four seats of its room). It is the least any
  durable move must do, through the same database engine and the same sending path as a move.
- ``/ws/bench/grouped/{group}``: the same, but rows that arrive while others are being written share
  the next transaction, as the steps of many rooms do (group commit): the least a move does here.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.ws import CLOSE_POLICY, CLOSE_SERVER_ERROR, SocketConnection, error_frame
from app.db.bench_writes import GroupedBenchWrites, write_one
from app.db.store import Store

router = APIRouter()
log = logging.getLogger(__name__)


class DurableGroups:
    """The open sockets of each group of the durable baselines, and the grouped baseline's writer."""

    def __init__(self, writes: GroupedBenchWrites) -> None:
        self.members: dict[str, list[SocketConnection]] = {}
        self.writes = writes

    def join(self, group: str, conn: SocketConnection) -> None:
        self.members.setdefault(group, []).append(conn)

    def leave(self, group: str, conn: SocketConnection) -> None:
        members = self.members.get(group, [])
        if conn in members:
            members.remove(conn)
        if not members:
            self.members.pop(group, None)

    def push(self, group: str, message: str) -> None:
        for conn in self.members.get(group, []):
            conn.push(message)


async def _refused(websocket: WebSocket) -> bool:
    """Whether the bench endpoints are off here; if so the client is told and the socket closed."""
    if websocket.app.state.settings.bench_endpoints:
        return False
    await _close(websocket, CLOSE_POLICY, "bench/disabled", "the bench endpoints are off on this server")
    return True


async def _close(websocket: WebSocket, close_code: int, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(error_frame(code, message))
    with contextlib.suppress(Exception):
        await websocket.close(code=close_code, reason=code)


@router.websocket("/ws/echo")
async def echo_socket(websocket: WebSocket) -> None:
    await websocket.accept()
    if await _refused(websocket):
        return
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        pass


@router.websocket("/ws/bench/durable/{group}")
async def durable_socket(websocket: WebSocket, group: str) -> None:
    store: Store = websocket.app.state.store
    await _durable(websocket, group, lambda: write_one(store.sessions, group))


@router.websocket("/ws/bench/grouped/{group}")
async def grouped_socket(websocket: WebSocket, group: str) -> None:
    writes: GroupedBenchWrites = websocket.app.state.bench_groups.writes
    await _durable(websocket, group, lambda: writes.write(group))


async def _durable(websocket: WebSocket, group: str, store_row: Callable[[], Awaitable[None]]) -> None:
    """Each text frame: ``store_row()``, then the frame to every socket of the group."""
    await websocket.accept()
    if await _refused(websocket):
        return
    groups: DurableGroups = websocket.app.state.bench_groups
    conn = SocketConnection(websocket)
    groups.join(group, conn)
    try:
        while True:
            text = await websocket.receive_text()
            await store_row()
            groups.push(group, text)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("the durable baseline could not store a row")
        await _close(websocket, CLOSE_SERVER_ERROR, "server/error", "the row was not stored")
    finally:
        groups.leave(group, conn)
        await conn.drain()
