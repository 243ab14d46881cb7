"""The games this server offers, by name."""

from __future__ import annotations

from typing import Any

from app.games.azi import ENGINE as AZI
from app.games.base import Engine
from app.games.hasenpfeffer import ENGINE as HASENPFEFFER
from app.games.hazari import ENGINE as HAZARI

ENGINES: dict[str, Engine[Any, Any]] = {engine.name: engine for engine in (HAZARI, AZI, HASENPFEFFER)}
