"""``make_bot``: the levels of every game, and the refusals."""

from __future__ import annotations

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
