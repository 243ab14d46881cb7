"""The bench-only WebSockets, the baselines of ``bench/load.py``, served only with
``CARDROOM_BENCH_ENDPOINTS=1`` (refused with close 1008 ``bench/disabled`` otherwise):

- ``/ws/echo``: each text frame comes back as it came, the bare round trip through the server.
- ``/ws/bench/durable/{group}``: each text frame is stored as one row of ``bench_writes`` in one
  committed transaction and then sent, as it came, to every socket of its group (four, as the load
  generator opens them: a move reaches the four seats of its room). It is the least any durable move
  must do, through the same database engine and the same sending path as a move.
"""

from __future__ import annotations

import contextlib
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.ws import CLOSE_POLICY, CLOSE_SERVER_ERROR, SocketConnection, error_frame
from app.db.bench_writes import write_one
from app.db.store import Store

router = APIRouter()
log = logging.getLogger(__name__)


class DurableGroups:
    """The open sockets of each group of the durable baseline."""

    def __init__(self) -> None:
        self.members: dict[str, list[SocketConnection]] = {}

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
    await websocket.accept()
    if await _refused(websocket):
        return
    store: Store = websocket.app.state.store
    groups: DurableGroups = websocket.app.state.bench_groups
    conn = SocketConnection(websocket)
    groups.join(group, conn)
    try:
        while True:
            text = await websocket.receive_text()
            await write_one(store.sessions, group)
            groups.push(group, text)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("the durable baseline could not store a row")
        await _close(websocket, CLOSE_SERVER_ERROR, "server/error", "the row was not stored")
    finally:
        groups.leave(group, conn)
        await conn.drain()
