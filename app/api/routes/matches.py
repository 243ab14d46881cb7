"""Match history."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.api.deps import SettingsDep, StoreDep
from app.api.errors import ApiError
from app.api.schemas import MatchPage
from app.db.history import list_matches, match_detail
from app.games.registry import ENGINES

router = APIRouter(prefix="/api/matches", tags=["matches"])


@router.get("", response_model=MatchPage)
async def list_match_history(
        store: StoreDep, settings: SettingsDep,
        player: Annotated[str | None, Query(max_length=64)] = None,
        game: Annotated[str | None, Query(max_length=20)] = None,
        limit: Annotated[int, Query()] = 20,
        before: Annotated[str | None, Query(max_length=200)] = None) -> MatchPage:
    """Newest first. Pass ``next`` of one page as ``before`` to get the following page."""
    if not 1 <= limit <= settings.history_max_limit:
        raise ApiError(400, "request/bad_limit",
                       f"limit must be from 1 to {settings.history_max_limit}, got {limit}")
    if game is not None and game not in ENGINES:
        raise ApiError(400, "request/unknown_game", f"unknown game {game!r}; choose one of {sorted(ENGINES)}")
    async with store.sessions() as session:
        matches, cursor = await list_matches(session, player=player, game=game, limit=limit,
                                             before=before)
    return MatchPage(matches=matches, next=cursor)


@router.get("/{match_id}")
async def read_match(match_id: str, store: StoreDep) -> dict[str, Any]:
    async with store.sessions() as session:
        detail = await match_detail(session, match_id)
    if detail is None:
        raise ApiError(404, "match/not_found", f"there is no match {match_id!r}")
    return detail
