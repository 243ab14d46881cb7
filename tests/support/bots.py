"""Every game engine that has bots, registered or not yet."""

from __future__ import annotations

import importlib
from typing import Any

from app.bots.registry import GAMES
from app.games.base import Engine
from app.games.registry import ENGINES


def every_engine() -> dict[str, Engine[Any, Any]]:
    """The registry's engines, plus the engine of each game that has bots but is not registered
    (``app.games.<game>.ENGINE``), so that its bots are tested too."""
    engines = dict(ENGINES)
    for game in GAMES:
        if game not in engines:
            engines[game] = importlib.import_module(f"app.games.{game}").ENGINE
    return engines
