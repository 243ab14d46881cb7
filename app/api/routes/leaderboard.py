"""The best rated players of each game."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from app.api.deps import SettingsDep, StoreDep
from app.api.errors import ApiError, error_responses
from app.api.routes.matches import check_known, parse_game, parse_limit
from app.api.schemas import Leaderboard, LeaderboardEntry
from app.db.ratings import leaderboard

router = APIRouter(prefix="/api/leaderboard", tags=["ratings"])


@router.get("", response_model=Leaderboard, responses=error_responses())
async def read_leaderboard(
        request: Request, store: StoreDep, settings: SettingsDep,
        game: Annotated[str | None, Query(max_length=20, description="required")] = None,
        limit: Annotated[str | None, Query(description="1 to 100, default 20")] = None,
) -> Leaderboard:
    """Rated players of ``game`` by ordinal (mu - 3 sigma, a cautious estimate of skill), best first."""
    check_known(request, ("game", "limit"))
    if game is None:
        raise ApiError(400, "request/bad_filter", "give the game: ?game=hazari, azi or hasenpfeffer")
    count = parse_limit(limit, 20, settings.history_max_limit)
    async with store.sessions() as session:
        rows = await leaderboard(session, str(parse_game(game)), count)
    return Leaderboard(game=game, players=[LeaderboardEntry.model_validate(row) for row in rows])
