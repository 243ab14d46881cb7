"""A room socket that reached a node other than the room's owner is relayed to the owner: the node
opens a socket of its own to the owner (the hop) and passes every frame on, both ways, unchanged.

The hop carries the relay secret the nodes share, the player's address (for his limits and the logs)
and the token the client gave in its address, never in a log line; a client that signs in with an
``auth`` message has it passed on as its first frame, and kept, so that when the owner goes (it
stops, dies, or lets the room go) the relaying node finds the room's next owner and signs in there
again without the client noticing more than a fresh state.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from enum import Enum

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from app import metrics
from app.cluster.node import CLOSE_RESTART

RELAY_HEADER = "x-cardroom-relay"
CLIENT_HEADER = "x-cardroom-client"
TOKEN_HEADER = "x-cardroom-token"
OPEN_TIMEOUT = 2.0
CLOSE_TIMEOUT = 0.5
"""A hop to an owner that went away (paused, cut off) is not waited on to close."""
MOVED_CODES = frozenset({CLOSE_RESTART, 1001, 1006, 1011})
"""Closes of a hop that mean the owner went (stopping, gone, failed), not that it refused the client."""


class HopEnd(Enum):
    CLIENT_GONE = "client gone"
    OWNER_GONE = "owner gone"
    CLOSED = "closed by the owner"


@dataclass
class Relay:
    """One client socket relayed to whichever node owns its room, for as long as the client stays."""

    client: WebSocket
    secret: str
    client_ip: str
    token: str | None
    max_size: int
    auth_frame: str | None = None
    frames_seen: int = 0

    def headers(self) -> dict[str, str]:
        headers = {RELAY_HEADER: self.secret, CLIENT_HEADER: self.client_ip}
        if self.token is not None:
            headers[TOKEN_HEADER] = self.token
        return headers

    async def run(self, address: str, room_id: str, moved: asyncio.Event) -> HopEnd:
        """Relay until the client leaves (``CLIENT_GONE``), the owner goes or ``moved`` is set
        (``OWNER_GONE``: find the next one) or the owner closes the socket for a reason of the
        client's (``CLOSED``, passed on)."""
        url = f"{address.replace('http', 'ws', 1)}/ws/rooms/{room_id}"
        try:
            async with connect(url, additional_headers=self.headers(), open_timeout=OPEN_TIMEOUT,
                               close_timeout=CLOSE_TIMEOUT,
                               max_size=self.max_size, compression=None, ping_interval=None) as hop:
                metrics.RELAYS.inc()
                if self.auth_frame is not None:
                    await hop.send(self.auth_frame)
                return await self._pump(hop, moved)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError, ConnectionClosed):
            return HopEnd.OWNER_GONE

    async def _pump(self, hop: ClientConnection, moved: asyncio.Event) -> HopEnd:
        inbound = asyncio.ensure_future(self._client_to_hop(hop))
        outbound = asyncio.ensure_future(self._hop_to_client(hop))
        watch = asyncio.ensure_future(moved.wait())
        done, pending = await asyncio.wait({inbound, outbound, watch}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if any(task.result() is HopEnd.CLIENT_GONE for task in done):
            return HopEnd.CLIENT_GONE
        if watch in done:
            return HopEnd.OWNER_GONE
        code, reason = hop.close_code, hop.close_reason or ""
        if code is None or code in MOVED_CODES:
            return HopEnd.OWNER_GONE
        with contextlib.suppress(Exception):
            await self.client.close(code=code, reason=reason)
        return HopEnd.CLOSED

    async def _client_to_hop(self, hop: ClientConnection) -> HopEnd:
        while True:
            message = await self.client.receive()
            if message["type"] == "websocket.disconnect":
                return HopEnd.CLIENT_GONE
            data = message.get("text") if message.get("text") is not None else message.get("bytes")
            if data is None:
                continue
            self.frames_seen += 1
            if self.frames_seen == 1 and isinstance(data, str) and _is_auth(data):
                self.auth_frame = data
            try:
                await hop.send(data)
            except ConnectionClosed:
                return HopEnd.OWNER_GONE

    async def _hop_to_client(self, hop: ClientConnection) -> HopEnd:
        with contextlib.suppress(ConnectionClosed):
            async for frame in hop:
                try:
                    if isinstance(frame, str):
                        await self.client.send_text(frame)
                    else:
                        await self.client.send_bytes(frame)
                except (WebSocketDisconnect, RuntimeError, OSError):
                    return HopEnd.CLIENT_GONE
        return HopEnd.OWNER_GONE


def _is_auth(text: str) -> bool:
    try:
        message = orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return isinstance(message, dict) and message.get("type") == "auth"
