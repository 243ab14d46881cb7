"""Request bodies over a size are refused with 413 before any route reads them."""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_response


class BodyLimit:
    """Reads each HTTP request's body up to ``limit`` bytes, then hands it on whole; a longer body
    (by its ``Content-Length`` or as it arrives) gets 413 ``request/too_large``."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        body = None if declared.isdigit() and int(declared) > self.limit else await self._read(receive)
        if body is None:
            refused = error_response(413, "request/too_large",
                                     f"a request body may hold at most {self.limit} bytes")
            await refused(scope, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        message: dict[str, Any] = {"type": "http.request", "body": body, "more_body": False}
        return message

    return replay
