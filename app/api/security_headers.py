"""Headers that keep the browser client safe in every HTTP answer: a Content-Security-Policy that lets
the page run only its own files (no inline script or style, no framing), no MIME sniffing, and no
``Referer`` sent to other sites. The interactive API pages (``/docs``, ``/redoc``), which FastAPI
builds from a CDN with inline script, get all but the policy."""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

API_PAGES = ("/docs", "/redoc")
PLAIN_HOST = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?")
FIXED_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


def content_security_policy(host: str | None) -> str:
    """The page's policy; the WebSocket addresses of its own host are named as well as ``'self'``,
    which older browsers do not extend to ``ws:`` and ``wss:``."""
    sockets = f" ws://{host} wss://{host}" if host and PLAIN_HOST.fullmatch(host) else ""
    return ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")


def _host(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"host":
            return bytes(value).decode("latin-1")
    return None


def _headers_for(scope: Scope) -> list[tuple[bytes, bytes]]:
    path: str = scope.get("path", "")
    if path.startswith(API_PAGES):
        return FIXED_HEADERS
    policy = content_security_policy(_host(scope)).encode("latin-1")
    return [*FIXED_HEADERS, (b"content-security-policy", policy)]


class SecurityHeaders:
    """ASGI middleware adding those headers to every HTTP answer (WebSockets pass untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = _headers_for(scope)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *added]
            await send(message)

        await self.app(scope, receive, send_with_headers)
