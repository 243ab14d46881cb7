"""``make_bot``: the levels of every game, refusals, and the stand-in for bots not written yet."""

from __future__ import annotations

import sys

import pytest

from app.bots.hazari import HazariGreedyBot, HazariStrongBot
from app.bots.random_bot import RandomBot
from app.bots.registry import ALL_LEVELS, GAMES, LEVELS, make_bot


def test_levels_offered_at_the_table() -> None:
    assert LEVELS == ("random", "strong")
    assert set(LEVELS) < set(ALL_LEVELS) and "greedy" in ALL_LEVELS


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ALL_LEVELS)
def test_every_game_has_every_level(game: str, level: str) -> None:
    bot = make_bot(game, level)
    assert (bot.game, bot.level) == (game, level)


def test_hazari_bots() -> None:
    assert isinstance(make_bot("hazari", "strong"), HazariStrongBot)
    assert isinstance(make_bot("hazari", "greedy"), HazariGreedyBot)
    assert isinstance(make_bot("hazari", "random"), RandomBot)


def test_unknown_game_or_level_is_refused() -> None:
    with pytest.raises(ValueError, match="chess"):
        make_bot("chess", "random")
    with pytest.raises(ValueError, match="genius"):
        make_bot("hazari", "genius")


def test_a_game_whose_bot_module_is_missing_plays_random(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "app.bots.azi", None)  # makes the import fail
    bot = make_bot("azi", "strong")
    assert isinstance(bot, RandomBot) and bot.level == "strong"
    monkeypatch.setitem(sys.modules, "app.bots.hazari", None)
    with pytest.raises(ModuleNotFoundError):
        make_bot("hazari", "strong")
