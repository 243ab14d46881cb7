"""The server's log: one line per record on standard error, either a JSON object
(``CARDROOM_LOG_FORMAT=json``, for machines) or text (for people), both carrying the ids of the room,
match, player and request the line belongs to.

The ids come from context variables set once per connection or task, never per move: a request's id
(:class:`RequestIds`), the room and the connection of a room socket (:func:`bind_socket`), and the room
of a room's own timers and bots (:func:`room_context`). They hold the objects themselves and the ids are
read when a line is written, so a line shows the match in play and the player signed in at that moment.
No secret reaches a line: query strings are cut from the addresses of uvicorn's access and WebSocket
lines, and what is left is redacted (:mod:`app.redaction`) as every other message is."""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import IO, Any, Protocol

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.redaction import redact

ADDRESS_LOGGERS = frozenset({"uvicorn.access", "uvicorn.error"})
ACCESS_LOGGER = "uvicorn.access"
REQUEST_ID_HEADER = "x-request-id"
NODE_HEADER = "x-cardroom-node"
GIVEN_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
"""A request id a proxy sends along is kept when it looks like one; any other is replaced."""


class RoomLike(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def match_id(self) -> str | None: ...


class ClientLike(Protocol):
    @property
    def player_id(self) -> str | None: ...


REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
ROOM: contextvars.ContextVar[RoomLike | None] = contextvars.ContextVar("room", default=None)
CLIENT: contextvars.ContextVar[ClientLike | None] = contextvars.ContextVar("client", default=None)


def bind_socket(room: RoomLike | None, client: ClientLike) -> None:
    """The lines written for a room socket name its room (and match) and, once signed in, its player."""
    ROOM.set(room)
    CLIENT.set(client)


def room_context(room: RoomLike) -> contextvars.Context:
    """A context for the tasks a room runs by itself (timers, bots, automatic steps): its lines name the
    room and its match, not the player whose message happened to start the task."""
    context = contextvars.Context()
    context.run(ROOM.set, room)
    return context


def log_ids() -> dict[str, str]:
    """The ids that apply where a line is written."""
    ids: dict[str, str] = {}
    room, client, request_id = ROOM.get(), CLIENT.get(), REQUEST_ID.get()
    if room is not None:
        ids["room_id"] = room.id
        if room.match_id is not None:
            ids["match_id"] = room.match_id
    if client is not None and client.player_id is not None:
        ids["player_id"] = client.player_id
    if request_id is not None:
        ids["request_id"] = request_id
    return ids


def without_query(target: str) -> str:
    return target.partition("?")[0]


def _arguments(record: logging.LogRecord) -> Any:
    """A record's arguments, with the query string cut from the request address of uvicorn's lines."""
    if record.name in ADDRESS_LOGGERS and isinstance(record.args, tuple):
        return tuple(without_query(arg) if isinstance(arg, str) and arg.startswith("/") else arg
                     for arg in record.args)
    return record.args


def message_of(record: logging.LogRecord) -> str:
    args = _arguments(record)
    try:
        text = str(record.msg) % args if args else str(record.msg)
    except (TypeError, ValueError):
        text = f"{record.msg} {args!r}"
    return redact(text)


def access_fields(record: logging.LogRecord) -> dict[str, Any]:
    """What uvicorn's access line says, as fields: ``'%s - "%s %s HTTP/%s" %d'``."""
    args = record.args
    if record.name != ACCESS_LOGGER or not isinstance(args, tuple) or len(args) != 5:
        return {}
    client, method, target, version, status = args
    return {"client": client, "method": method, "path": redact(without_query(str(target))),
            "http_version": version, "status": status}


def _when(record: logging.LogRecord) -> str:
    moment = datetime.fromtimestamp(record.created, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _trace(formatter: logging.Formatter, record: logging.LogRecord) -> str | None:
    if record.exc_info:
        return redact(formatter.formatException(record.exc_info))
    if record.stack_info:
        return redact(formatter.formatStack(record.stack_info))
    return None


class JsonFormatter(logging.Formatter):
    """One JSON object per record: ``time``, ``level``, ``logger``, ``message``, the ids that apply, the
    fields of an access line, and ``error`` with the traceback of an exception."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {"time": _when(record), "level": record.levelname.lower(),
                                "logger": record.name, "message": message_of(record)}
        line.update(log_ids())
        line.update(access_fields(record))
        trace = _trace(self, record)
        if trace is not None:
            line["error"] = trace
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``time level logger: message`` then the ids that apply as ``name=value``."""

    def format(self, record: logging.LogRecord) -> str:
        ids = " ".join(f"{name}={value}" for name, value in log_ids().items())
        text = f"{_when(record)} {record.levelname:<7} {record.name}: {message_of(record)}"
        text = f"{text}  {ids}" if ids else text
        trace = _trace(self, record)
        return f"{text}\n{trace}" if trace else text


FORMATTERS: dict[str, Callable[[], logging.Formatter]] = {"json": JsonFormatter, "text": TextFormatter}


def configure_logging(level: str, form: str, stream: IO[str] | None = None) -> None:
    """Every logger of the process (uvicorn's included, which must be given no configuration of its own)
    writes through one handler in ``form`` at ``level`` and above; Python's warnings too."""
    import uvicorn.logging  # noqa: F401  (names uvicorn's TRACE level)

    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(FORMATTERS[form]())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.captureWarnings(True)


def request_id_of(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == REQUEST_ID_HEADER.encode():
            given: str = value.decode("latin-1")
            if GIVEN_REQUEST_ID.fullmatch(given):
                return given
    return secrets.token_hex(8)


class RequestIds:
    """Gives each HTTP request and WebSocket an id (the ``X-Request-ID`` it came with, or a new one),
    found in every line written while it is handled and, for HTTP, in the answer's ``X-Request-ID``;
    the answer's ``X-Cardroom-Node`` names the node whose log holds those lines."""

    def __init__(self, app: ASGIApp, node_id: str = "") -> None:
        self.app = app
        self.node_id = node_id

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = request_id_of(scope)
        token = REQUEST_ID.set(request_id)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers[REQUEST_ID_HEADER] = request_id
                if self.node_id:
                    headers[NODE_HEADER] = self.node_id
            await send(message)

        try:
            await self.app(scope, receive, send_with_id if scope["type"] == "http" else send)
        finally:
            REQUEST_ID.reset(token)
