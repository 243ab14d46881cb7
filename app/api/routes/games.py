"""The games on offer and their table options."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter

from app.api.errors import error_responses
from app.api.schemas import GameInfo
from app.games.registry import ENGINES
from app.rooms.manager import room_option_specs

RULES_DIR = Path(__file__).resolve().parents[3] / "docs" / "rules"

router = APIRouter(prefix="/api/games", tags=["games"])


def rules_languages(game: str) -> list[str]:
    """The languages of the game's rules page: English (``<game>.md``), then each ``<game>.<lang>.md``."""
    translated = sorted(path.suffixes[0].lstrip(".") for path in RULES_DIR.glob(f"{game}.*.md"))
    return ["en", *translated]


@router.get("", response_model=list[GameInfo], responses=error_responses())
async def list_games() -> list[GameInfo]:
    return [GameInfo(game=engine.name, name=engine.title, min_seats=engine.min_seats,
                     max_seats=engine.max_seats, rules_languages=rules_languages(engine.name),
                     options=[spec.to_json()
                              for spec in (*engine.option_specs, *room_option_specs(engine.name))])
            for engine in ENGINES.values()]
