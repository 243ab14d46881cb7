"""The room WebSocket: ``/ws/rooms/{room_id}?token=<token>`` (no token: a spectator)."""

from __future__ import annotations

import asyncio
import json
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.messages import Act, AddBot, Close, Hint, Sit, Stand, Start, parse_message, ref_of
from app.db.store import Store
from app.games.base import Rejection
from app.rooms.manager import RoomManager
from app.rooms.room import Connection, Room

router = APIRouter()
log = logging.getLogger(__name__)

CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_SERVER_ERROR = 1011


def error_frame(code: str, message: str, ref: str | None = None) -> str:
    return json.dumps({"type": "error", "code": code, "message": message, "ref": ref})


async def _refuse(websocket: WebSocket, code: str, message: str) -> None:
    await websocket.send_text(error_frame(code, message))
    await websocket.close(code=CLOSE_POLICY, reason=code)


async def _connection(websocket: WebSocket, store: Store, token: str | None) -> Connection | None:
    if token is None:
        return Connection(player_id=None, name=None)
    player = await store.player_by_token(token)
    if player is None:
        await _refuse(websocket, "auth/bad_token", "that token belongs to no player")
        return None
    return Connection(player_id=player.id, name=player.name)


async def _write(websocket: WebSocket, conn: Connection) -> None:
    while (message := await conn.outbox.get()) is not None:
        await websocket.send_text(message)


async def _handle(room: Room, conn: Connection, text: str) -> None:
    message = parse_message(text)
    match message:
        case Sit(seat=seat):
            await room.sit(conn, seat)
        case Stand():
            await room.stand(conn)
        case AddBot(seat=seat, level=level):
            await room.add_bot(conn, seat, level)
        case Start():
            await room.start(conn)
        case Close():
            await room.close_table(conn)
        case Hint():
            await room.hint(conn)
        case Act(id=ref, action=action):
            await room.act(conn, action, ref)


async def _read(websocket: WebSocket, room: Room, conn: Connection, max_bytes: int) -> None:
    while True:
        text = await websocket.receive_text()
        if len(text.encode()) > max_bytes:
            conn.push(error_frame("message/too_big", f"a message may hold at most {max_bytes} bytes"))
            continue
        try:
            await _handle(room, conn, text)
        except Rejection as rejection:
            conn.push(error_frame(rejection.code, rejection.message, ref_of(text)))
        except Exception:
            log.exception("room %s: a message failed", room.id)
            conn.push(error_frame("server/error", "the server could not do that; nothing changed",
                                  ref_of(text)))


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str, token: str | None = None) -> None:
    await websocket.accept()
    rooms: RoomManager = websocket.app.state.rooms
    room = rooms.rooms.get(room_id)
    if room is None:
        await _refuse(websocket, "room/not_found", f"there is no room {room_id!r}")
        return
    conn = await _connection(websocket, rooms.store, token)
    if conn is None:
        return
    writer = asyncio.create_task(_write(websocket, conn))
    room.connect(conn)
    try:
        await _read(websocket, room, conn, websocket.app.state.settings.max_message_bytes)
    except WebSocketDisconnect:
        pass
    finally:
        room.disconnect(conn)
        conn.outbox.put_nowait(None)
        await asyncio.gather(writer, return_exceptions=True)
