"""The games on offer and their table options."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.errors import error_responses
from app.api.schemas import GameInfo
from app.games.registry import ENGINES
from app.rooms.manager import room_option_specs

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("", response_model=list[GameInfo], responses=error_responses())
async def list_games() -> list[GameInfo]:
    return [GameInfo(game=engine.name, name=engine.title, min_seats=engine.min_seats,
                     max_seats=engine.max_seats,
                     options=[spec.to_json()
                              for spec in (*engine.option_specs, *room_option_specs(engine.name))])
            for engine in ENGINES.values()]
