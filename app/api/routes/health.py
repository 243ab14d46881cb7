"""Liveness (``/api/health``: the process answers) and readiness (``/api/ready``: it should be sent
players), the probes of ``docs/operations.md``."""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.api.deps import StoreDep
from app.api.errors import DATABASE_RETRY_SECONDS, error_response, error_responses
from app.drain import Drain

READY_TIMEOUT = 1.0
"""Seconds the database has to answer the readiness probe's ``select 1``."""
NOT_READY = {503: "not ready: the node is draining (`server/draining`) or its database did not answer "
                  f"a `select 1` within {READY_TIMEOUT:g} s (`server/database_unreachable`); "
                  "`Retry-After` gives the seconds until the next probe is worth making"}

router = APIRouter(prefix="/api", tags=["health"])
log = logging.getLogger(__name__)


class Status(BaseModel):
    status: str


@router.get("/health", response_model=Status, responses=error_responses())
async def health() -> Status:
    """Liveness: 200 whenever the process serves, draining or not, database or not."""
    return Status(status="ok")


@router.get("/ready", response_model=Status, responses=error_responses(503, meanings=NOT_READY))
async def ready(request: Request, store: StoreDep) -> Status | JSONResponse:
    """Readiness: 200 while the node takes players; 503 while it drains or its database is unreachable."""
    drain: Drain = request.app.state.drain
    if drain.draining:
        return not_ready("server/draining", "this node is shutting down; use another")
    try:
        async with asyncio.timeout(READY_TIMEOUT):
            await store.ping()
    except Exception as error:
        log.warning("not ready: the database did not answer (%s)", type(error).__name__)
        return not_ready("server/database_unreachable", "this node cannot reach its database; use another")
    return Status(status="ready")


def not_ready(code: str, message: str) -> JSONResponse:
    return error_response(503, code, message, DATABASE_RETRY_SECONDS)
