"""Liveness."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.errors import error_responses

router = APIRouter(prefix="/api/health", tags=["health"])


@router.get("", responses=error_responses())
async def health() -> dict[str, str]:
    return {"status": "ok"}
