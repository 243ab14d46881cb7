"""Fixtures of the bot and simulator tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from bot_engines import every_engine

from app.games.base import Engine
from app.games.registry import ENGINES


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Engine[Any, Any]]]:
    """Every engine with bots, in the registry for the duration of a test."""
    engines = every_engine()
    for name, engine in engines.items():
        monkeypatch.setitem(ENGINES, name, engine)
    yield engines
