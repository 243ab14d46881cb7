"""Fixtures of the bot and simulator tests: every game engine, registered or about to be."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import pytest

from app.bots.registry import GAMES
from app.games.base import Engine
from app.games.registry import ENGINES


def every_engine() -> dict[str, Engine[Any, Any]]:
    """The registry's engines, plus the engine of each game that has bots but is not registered
    yet (``app.games.<game>.ENGINE``), so that its bots are tested too."""
    engines = dict(ENGINES)
    for game in GAMES:
        if game not in engines:
            engines[game] = importlib.import_module(f"app.games.{game}").ENGINE
    return engines


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Engine[Any, Any]]]:
    """Every engine, put into the registry for the duration of a test."""
    engines = every_engine()
    for name, engine in engines.items():
        monkeypatch.setitem(ENGINES, name, engine)
    yield engines
