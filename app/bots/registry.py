"""Bots by game and level: ``make_bot("hazari", "strong")``.

``LEVELS`` are offered at the table; ``greedy`` is a baseline for the simulator. Each game's
``strong`` and ``greedy`` bots are the classes ``<Game>StrongBot`` and ``<Game>GreedyBot`` of the
module ``app.bots.<game>`` (``HazariStrongBot`` in ``app.bots.hazari``).
"""

from __future__ import annotations

import importlib

from app.bots.base import Bot
from app.bots.random_bot import RandomBot

GAMES = ("hazari", "azi", "hasenpfeffer")
LEVELS = ("random", "strong")
ALL_LEVELS = ("random", "strong", "greedy")


def make_bot(game: str, level: str) -> Bot:
    """A new bot; raises ``ValueError`` for an unknown game or level."""
    if game not in GAMES:
        raise ValueError(f"no bots for game {game!r}; games are {list(GAMES)}")
    if level not in ALL_LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels are {list(ALL_LEVELS)}")
    if level == "random":
        return RandomBot(game)
    module = importlib.import_module(f"app.bots.{game}")
    bot: Bot = getattr(module, f"{game.title()}{level.title()}Bot")()
    return bot
