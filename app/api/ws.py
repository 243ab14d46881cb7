"""The room WebSocket: ``/ws/rooms/{room_id}``, signed in by a first message ``{"type": "auth", "token"}``
or by ``?token=<token>`` (never logged); without either, a spectator.

Closing codes: 1003 for data that is not text, 1008 for policy (unknown room, wrong token, too many
connections, too many messages), 1011 when the server itself fails, 4401 when the socket's token is
revoked, 4403 when an operator suspends the player, 4410 when an operator removes him from the room.
No error ever carries a trace.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from app import metrics
from app.api.errors import CHAT_RATE_LIMITED, CHAT_READ_ONLY, CHAT_SIGN_IN, ChatRefused
from app.api.limits import Limit
from app.api.messages import (
    Act,
    AddBot,
    Auth,
    Chat,
    Close,
    Draft,
    Hint,
    Inbound,
    NextDeal,
    React,
    Rematch,
    Seed,
    Sit,
    Stand,
    Start,
    chat_text,
    decode_json,
    parse_message,
    reaction_key,
    ref_of,
)
from app.api.sockets import CLOSE_REMOVED, CLOSE_REVOKED, CLOSE_SUSPENDED, OpenSockets
from app.cli import WS_MAX_SIZE
from app.cluster.node import CLOSE_RESTART, MOVED, ClusterNode, ClusterUnavailable, Remote
from app.cluster.relay import CLIENT_HEADER, RELAY_HEADER, TOKEN_HEADER, HopEnd, Relay
from app.config import Settings
from app.db.store import Store
from app.db.tokens import hash_token
from app.games.base import Rejection
from app.logs import bind_socket
from app.rooms.connection import Connection
from app.rooms.frames import encode_frame
from app.rooms.manager import RoomManager
from app.rooms.room import Room

router = APIRouter()
log = logging.getLogger(__name__)

CLOSE_UNSUPPORTED_DATA = 1003
CLOSE_POLICY = 1008
CLOSE_SERVER_ERROR = 1011
CLOSE_TRY_AGAIN = 1013
ROUTE_SECONDS = 5.0
"""How long past a lease's expiry a socket waits for its room to find an owner."""
ROUTE_RETRY_SECONDS = 0.2


SignIn = Callable[[str], Awaitable[None]]


class AuthRefused(Rejection):
    code = "auth/refused"


class ClosingError(Exception):
    """A reason to close the connection after telling the client why."""

    def __init__(self, close_code: int, code: str, message: str) -> None:
        super().__init__(message)
        self.close_code, self.code, self.message = close_code, code, message


@dataclass
class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    rate: float
    burst: float
    tokens: float = 0.0
    stamp: float = 0.0

    def __post_init__(self) -> None:
        self.tokens, self.stamp = self.burst, time.monotonic()

    def allow(self) -> bool:
        moment = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (moment - self.stamp) * self.rate)
        self.stamp = moment
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def error_frame(code: str, message: str, ref: str | None = None) -> str:
    return encode_frame({"type": "error", "code": code, "message": message, "ref": ref})


async def _close(websocket: WebSocket, close_code: int, code: str, message: str) -> None:
    """Tell the client why, if the socket still takes a frame, and close it."""
    metrics.closed(close_code, "server")
    with contextlib.suppress(Exception):
        await websocket.send_text(error_frame(code, message))
    with contextlib.suppress(Exception):
        await websocket.close(code=close_code, reason=code)


class SocketConnection(Connection):
    """A connection on a WebSocket. Each message is sent by a task of its own, started at once: while the
    socket takes data a send finishes in that task's first step, so messages leave in the order they
    were pushed, a room never waits for a client, and no task sits waiting per connection between
    messages (at thousands of connections such waiting tasks were half of what each garbage
    collection scanned)."""

    def __init__(self, websocket: WebSocket) -> None:
        super().__init__(player_id=None, name=None)
        self.websocket = websocket
        self.sending: set[asyncio.Task[None]] = set()
        self.room: Room | None = None
        self.token_hash: str | None = None
        self.revoked = False
        self.when_lost: Callable[[], None] = lambda: None

    def push(self, message: str) -> None:
        task = asyncio.create_task(self._send(message))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def _send(self, message: str) -> None:
        # A client that has gone is noticed, and its connection ended, by the reader. A send that
        # fails otherwise takes the connection off its room at once and closes the socket.
        try:
            await self.websocket.send_text(message)
        except (WebSocketDisconnect, OSError, RuntimeError):
            pass
        except Exception:
            log.exception("a message could not be sent; closing the connection")
            self.when_lost()
            await _close(self.websocket, CLOSE_SERVER_ERROR, "server/error", "the server failed; reconnect")

    def close(self, code: str, message: str) -> None:
        task = asyncio.create_task(_close(self.websocket, CLOSE_SERVER_ERROR, code, message))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def drain(self) -> None:
        """Wait until every message pushed so far has been sent."""
        while self.sending:
            await asyncio.gather(*self.sending)

    def revoke(self) -> None:
        """The socket's token was revoked: it leaves its room at once, is told why and is closed; any
        message it sent that is not yet handled is dropped."""
        self.end(CLOSE_REVOKED, "auth/revoked",
                 "this sign-in has ended (signed out everywhere); sign in again to play")

    def end(self, close_code: int, code: str, message: str) -> None:
        """Stop acting for the player at once: leave the room, tell the client why and close."""
        if self.revoked:
            return
        self.revoked = True
        if self.room is not None:
            _leave(self.room, self)
        task = asyncio.create_task(_close(self.websocket, close_code, code, message))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)


SUSPENDED = "an operator has suspended this account"
REMOVED = "an operator removed you from this table"


def end_player_sockets(rooms: RoomManager, player_id: str, close_code: int, code: str, message: str,
                       only: Room | None = None) -> int:
    """Close every room socket of the player (in ``only``, if given); returns how many."""
    ended = 0
    for room in [only] if only is not None else list(rooms.rooms.values()):
        for conn in list(room.connections):
            if conn.player_id == player_id and isinstance(conn, SocketConnection):
                conn.end(close_code, code, message)
                ended += 1
    return ended


def notice_frame(notice: dict[str, Any] | None) -> str:
    """The operator's maintenance notice (``text`` null: it was cleared)."""
    shown = notice or {"text": None, "at": None}
    return encode_frame({"type": "notice", "code": "operator/notice", **shown})


def _leave(room: Room, conn: SocketConnection) -> None:
    if conn in room.connections:
        room.disconnect(conn)


async def _sign_in(conn: SocketConnection, store: Store, sockets: OpenSockets, token: str) -> None:
    """Make ``conn`` the player's whose token this is; raises :class:`ClosingError` for a token that
    is unknown or revoked."""
    conn.token_hash = hash_token(token)
    sockets.add(conn.token_hash, conn)
    player = await store.player_by_token(token)
    if player is None or conn.revoked:
        raise ClosingError(CLOSE_POLICY, "auth/bad_token", "that token belongs to no player")
    if await store.is_suspended(player.id):
        raise ClosingError(CLOSE_SUSPENDED, "auth/suspended", SUSPENDED)
    if conn.room is not None and player.id in conn.room.removed:
        raise ClosingError(CLOSE_REMOVED, "room/removed", REMOVED)
    conn.player_id, conn.name = player.id, player.name
    log.info("signed in")


async def _authenticate(room: Room, conn: SocketConnection, sign_in: SignIn, token: str,
                        first: bool) -> None:
    """The ``auth`` message: accepted as the first message of a socket opened without a token."""
    if conn.token_hash is not None:
        raise AuthRefused("this socket is already signed in (with ?token= on its address); send no "
                          "auth message", code="auth/already_signed_in")
    if not first:
        raise AuthRefused("the auth message must be the socket's first message; open a new socket "
                          "and send it first", code="auth/not_first")
    await sign_in(token)
    conn.push(encode_frame({"type": "authenticated", "player_id": conn.player_id, "name": conn.name}))
    room.connect(conn)


async def _chat(room: Room, conn: SocketConnection, text: str | None = None,
                reaction: str | None = None) -> None:
    """A chat line or a reaction, checked: from a signed-in player, seated or (where the room lets
    them) watching, within the chat's own rate limit per player."""
    if conn.player_id is None:
        raise ChatRefused("only signed-in players can chat; choose a name first", code=CHAT_SIGN_IN)
    if room.seat_of(conn.player_id) is None and not room.spectators_may_chat:
        raise ChatRefused("at this table spectators read the chat but do not write in it",
                          code=CHAT_READ_ONLY)
    state = conn.websocket.app.state
    limit: Limit = state.chat_limit
    wait = await limit.take(conn.player_id)
    if wait is not None:
        settings: Settings = state.settings
        raise ChatRefused(f"at most {settings.chat_lines_per_second:g} chat line(s) a second, bursts of "
                          f"{settings.chat_burst:g}; wait {wait:.1f} s", code=CHAT_RATE_LIMITED)
    if not conn.revoked:
        room.post_chat(conn, text, reaction)


async def _handle(room: Room, conn: SocketConnection, message: Inbound) -> None:
    match message:
        case Chat(text=text):
            await _chat(room, conn, text=chat_text(text))
        case React(reaction=reaction):
            await _chat(room, conn, reaction=reaction_key(reaction))
        case Sit(seat=seat, buy_in=buy_in):
            await room.sit(conn, seat, buy_in)
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
        case Seed(deal=deal, seed=seed):
            await room.add_seed(conn, deal, seed)
        case Act(id=ref, action=action):
            await room.act(conn, action, ref)
        case Draft(groups=groups):
            await room.draft(conn, groups)
        case NextDeal():
            await room.next_deal(conn)
        case Rematch(accept=accept):
            await room.rematch(conn, accept)


async def _receive_text(websocket: WebSocket) -> str:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise ClosingError(CLOSE_UNSUPPORTED_DATA, "message/not_text",
                           "messages are JSON text; binary frames are not accepted")
    return str(text)


async def _read(websocket: WebSocket, room: Room, conn: SocketConnection, settings: Settings,
                sign_in: SignIn) -> None:
    limit = RateLimit(settings.ws_messages_per_second, settings.ws_message_burst)
    received = 0
    while True:
        text = await _receive_text(websocket)
        received += 1
        if conn.revoked:
            return
        if not limit.allow():
            raise ClosingError(CLOSE_POLICY, "message/rate_limited",
                               f"more than {settings.ws_messages_per_second:g} messages a second")
        data = text.encode(errors="surrogatepass")
        if len(data) > settings.max_message_bytes:
            metrics.rejected("message/too_big")
            conn.push(error_frame("message/too_big",
                                  f"a message may hold at most {settings.max_message_bytes} bytes"))
            continue
        raw: Any = None
        try:
            raw = decode_json(data)
            message = parse_message(raw)
            if isinstance(message, Auth):
                await _authenticate(room, conn, sign_in, message.token, first=received == 1)
            else:
                await _handle(room, conn, message)
        except ClosingError:
            raise
        except Rejection as rejection:
            metrics.rejected(rejection.code)
            conn.push(error_frame(rejection.code, rejection.message, ref_of(raw)))
        except Exception:
            log.exception("room %s: a message failed", room.id)
            metrics.rejected("server/error")
            conn.push(error_frame("server/error", "the server could not do that; nothing changed",
                                  ref_of(raw)))


def _client_ip(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client is not None else "unknown"


@dataclass(frozen=True)
class Arrival:
    """Who a socket is: the player's address, his token if given in the address, and whether
    another node of the cluster relays it (it then counted the address already)."""

    ip: str
    token: str | None
    relayed: bool = False

    @classmethod
    def of(cls, websocket: WebSocket, token: str | None, cluster: ClusterNode | None) -> Arrival:
        headers = websocket.headers
        secret = headers.get(RELAY_HEADER)
        if cluster is None or secret is None or not secrets.compare_digest(secret, cluster.secret):
            return cls(_client_ip(websocket), token)
        return cls(headers.get(CLIENT_HEADER, "unknown"), headers.get(TOKEN_HEADER, token), relayed=True)


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str, token: str | None = None) -> None:
    rooms: RoomManager = websocket.app.state.rooms
    arrival = Arrival.of(websocket, token, rooms.cluster)
    conn = SocketConnection(websocket)
    bind_socket(rooms.rooms.get(room_id), conn)
    await websocket.accept()
    settings: Settings = websocket.app.state.settings
    if not arrival.relayed and not await rooms.connections.open(arrival.ip):
        await _close(websocket, CLOSE_POLICY, "limit/connections",
                     f"at most {settings.max_connections_per_ip} connections from one address")
        return
    sockets: OpenSockets = websocket.app.state.open_sockets
    sign_in = partial(_sign_in, conn, rooms.store, sockets)
    try:
        if rooms.cluster is None or arrival.relayed:
            await _serve(conn, rooms.rooms.get(room_id), rooms, settings, room_id, sign_in, arrival.token,
                         moved=rooms.cluster is not None)
        else:
            await _serve_in_cluster(conn, rooms.cluster, rooms, settings, room_id, sign_in, arrival)
    finally:
        if not arrival.relayed:
            await rooms.connections.close(arrival.ip)
        if conn.token_hash is not None:
            sockets.discard(conn.token_hash, conn)


async def _serve_in_cluster(conn: SocketConnection, cluster: ClusterNode, rooms: RoomManager,
                            settings: Settings, room_id: str, sign_in: SignIn, arrival: Arrival) -> None:
    """Serve the socket here if this node owns the room (or takes it now), else relay it to the owner;
    when the owner goes, find the next one, until the client leaves."""
    relay = Relay(conn.websocket, cluster.secret, arrival.ip, arrival.token, WS_MAX_SIZE)
    give_up = time.monotonic() + cluster.lease_seconds * 2 + ROUTE_SECONDS
    while time.monotonic() < give_up:
        try:
            target = await cluster.route(room_id)
        except ClusterUnavailable as error:
            await _close(conn.websocket, CLOSE_TRY_AGAIN, "cluster/unavailable", str(error))
            return
        if target is None or isinstance(target, Room):
            token = _token_of(relay.auth_frame) or arrival.token
            await _serve(conn, target, rooms, settings, room_id, sign_in, token)
            return
        if isinstance(target, Remote):
            moved = cluster.relaying(room_id, target.node_id)
            try:
                ended = await relay.run(target.address, room_id, moved)
            finally:
                cluster.relayed_no_more(room_id, moved)
            if ended is not HopEnd.OWNER_GONE:
                return
            give_up = time.monotonic() + cluster.lease_seconds * 2 + ROUTE_SECONDS
        await asyncio.sleep(ROUTE_RETRY_SECONDS)
    await _close(conn.websocket, CLOSE_TRY_AGAIN, "room/unavailable",
                 "no server can take this table right now; try again in a few seconds")


def _token_of(auth_frame: str | None) -> str | None:
    """The token of an ``auth`` message the client sent through a relay."""
    if auth_frame is None:
        return None
    message = parse_message(decode_json(auth_frame.encode()))
    return message.token if isinstance(message, Auth) else None


async def _serve(conn: SocketConnection, room: Room | None, rooms: RoomManager, settings: Settings,
                 room_id: str, sign_in: SignIn, token: str | None, moved: bool = False) -> None:
    """Serve the socket at ``room`` on this node. ``moved``: a socket relayed by another node for a room
    this node no longer holds is told to find the room again (close 1012), not that it does not exist."""
    websocket = conn.websocket
    try:
        if room is None and moved:
            raise ClosingError(CLOSE_RESTART, "room/moved", MOVED)
        if room is None:
            raise ClosingError(CLOSE_POLICY, "room/not_found", f"there is no room {room_id!r}")
        conn.room = room
        if token is not None:
            await sign_in(token)
    except ClosingError as closing:
        await _close(websocket, closing.close_code, closing.code, closing.message)
        return
    conn.when_lost = partial(_leave, room, conn)
    try:
        room.connect(conn)
        if rooms.notice is not None:
            conn.push(notice_frame(rooms.notice))
        await _read(websocket, room, conn, settings, sign_in)
    except WebSocketDisconnect as gone:
        if websocket.application_state != WebSocketState.DISCONNECTED:
            metrics.closed(gone.code, "client")
    except ClosingError as closing:
        await conn.drain()
        await _close(websocket, closing.close_code, closing.code, closing.message)
    except Exception:
        log.exception("room %s: connection failed", room_id)
        await conn.drain()
        await _close(websocket, CLOSE_SERVER_ERROR, "server/error", "the server failed; reconnect")
    finally:
        _leave(room, conn)
        await conn.drain()
