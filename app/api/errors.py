"""Errors at the HTTP edge, always as the contract's body: ``{"error": {"code", "message"}}``."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from app.games.base import Rejection


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


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
        status = 404 if error.code.endswith("not_found") else 400
        return error_response(status, error.code, error.message)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        return error_response(422, "request/invalid", _describe(error))

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, error: HTTPException) -> JSONResponse:
        code = {404: "request/not_found", 405: "request/method_not_allowed"}.get(
            error.status_code, "request/error")
        return error_response(error.status_code, code, str(error.detail))

    @app.exception_handler(Exception)
    async def server_error(_request: Request, _error: Exception) -> JSONResponse:
        return error_response(500, "server/error", "the server failed to answer; try again")
