"""Errors at the HTTP edge, always as the contract's body: ``{"error": {"code", "message"}}``."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException
from starlette.routing import Match, Mount

from app.games.base import Rejection

log = logging.getLogger(__name__)

STATUS_MEANINGS = {
    400: "the input is wrong; the message names what and why",
    401: "no token, or one that belongs to no player",
    403: "the token's player may not do this",
    404: "no such thing",
    409: "it conflicts with what is there",
    413: "the body is larger than the server takes (`CARDROOM_MAX_BODY_BYTES`)",
    422: "the body or a parameter does not have the documented form",
    429: "too many requests from this address; `Retry-After` gives the seconds to wait",
    503: "the database did not answer in time (a lock held too long, a lost connection); nothing "
         "changed; `Retry-After` gives the seconds to wait",
}
CONFLICTS = frozenset({"room/creation_paused", "room/finished", "admin/already_suspended",
                       "admin/not_suspended", "admin/target_is_admin"})
"""Refusals answered 409: what is asked conflicts with how things are now."""
DATABASE_RETRY_SECONDS = 1
METHODS = ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before trying again",
                               "schema": {"type": "integer"}}}


# Refusals of a chat line or a reaction, sent as WebSocket error frames (``docs/protocol.md``).
CHAT_SIGN_IN = "chat/sign_in"
CHAT_READ_ONLY = "chat/spectators_read_only"
CHAT_EMPTY = "chat/empty"
CHAT_TOO_LONG = "chat/too_long"
CHAT_CONTROL_CHARACTER = "chat/control_character"
CHAT_UNKNOWN_REACTION = "chat/unknown_reaction"
CHAT_RATE_LIMITED = "chat/rate_limited"


UNAVAILABLE = frozenset({"cluster/unavailable", "cluster/no_answer"})
"""Refusals for a while only (503 with ``Retry-After``): a cluster's node that cannot reach Redis, or
the node that holds a room does not answer in time."""


class ChatRefused(Rejection):
    """A chat line or reaction that is not sent: nothing changes and nobody else hears of it."""

    code = "chat/refused"


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    """Every error answer: a stable ``code`` (``area/what``) and a sentence for people."""

    error: ErrorDetail


def error_responses(*statuses: int,
                    meanings: dict[int, str] | None = None) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route's error answers (400, 413, 422 and 503 are always
    possible); ``meanings`` says more than the general meaning of a status where the route can."""
    documented: dict[int | str, dict[str, Any]] = {}
    for status in sorted({400, 413, 422, 503, *statuses}):
        meaning = (meanings or {}).get(status, STATUS_MEANINGS[status])
        documented[status] = {"model": ErrorBody, "description": meaning}
        if status in (429, 503):
            documented[status]["headers"] = RETRY_AFTER
    return documented


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error_response(status: int, code: str, message: str, retry_after: int | None = None) -> JSONResponse:
    """The contract's error body; ``retry_after`` (seconds) goes in the ``Retry-After`` header."""
    headers = None if retry_after is None else {"Retry-After": str(retry_after)}
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


def _describe(error: RequestValidationError) -> str:
    parts = []
    for problem in error.errors():
        where = ".".join(str(item) for item in problem.get("loc", ()) if item != "body")
        parts.append(f"{where or 'body'}: {problem.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request is not valid"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_request: Request, error: ApiError) -> JSONResponse:
        return error_response(error.status, error.code, error.message)

    @app.exception_handler(Rejection)
    async def rejection(_request: Request, error: Rejection) -> JSONResponse:
        if error.code in UNAVAILABLE:
            return error_response(503, error.code, error.message, DATABASE_RETRY_SECONDS)
        status = 404 if error.code.endswith("not_found") else 409 if error.code in CONFLICTS else 400
        return error_response(status, error.code, error.message)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        return error_response(422, "request/invalid", _describe(error))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        code = {404: "request/not_found", 405: "request/method_not_allowed"}.get(
            error.status_code, "request/error")
        response = error_response(error.status_code, code, str(error.detail))
        response.headers.update(error.headers or {})
        if error.status_code == 405:
            response.headers["Allow"] = allowed_methods(request)
        return response

    @app.exception_handler(DBAPIError)
    @app.exception_handler(PoolTimeout)
    async def database_unavailable(_request: Request, error: Exception) -> JSONResponse:
        if isinstance(error, IntegrityError):
            log.error("a write broke a database constraint", exc_info=error)
            return error_response(500, "server/error", "the server failed to answer; try again")
        cause = getattr(error, "orig", None) or error
        log.warning("database unavailable: %s", type(cause).__name__)
        return error_response(503, "server/busy", "the database is busy or out of reach; nothing was "
                              f"changed; try again in {DATABASE_RETRY_SECONDS} s", DATABASE_RETRY_SECONDS)

    @app.exception_handler(Exception)
    async def server_error(_request: Request, _error: Exception) -> JSONResponse:
        return error_response(500, "server/error", "the server failed to answer; try again")


def allowed_methods(request: Request) -> str:
    """The methods some route takes at this path; the static client's files take GET and HEAD."""
    allowed = [method for method in METHODS if any(
        not isinstance(route, Mount) and route.matches({**request.scope, "method": method})[0] == Match.FULL
        for route in request.app.router.routes)]
    return ", ".join(allowed or ["GET", "HEAD"])
