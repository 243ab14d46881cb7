"""Bots at the table. Their decisions are computed in a separate process, so that a long search never
holds the event loop (nor, through the GIL, slows it): see ``bench/bots_loop.py``."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import secrets
from concurrent.futures import ProcessPoolExecutor
from functools import cache

from app.bots.base import Bot
from app.bots.registry import make_bot
from app.games.base import JSON

BOT_PROCESSES = 1
_executor: ProcessPoolExecutor | None = None


@cache
def bot_for(game: str, level: str) -> Bot:
    return make_bot(game, level)


def decide(game: str, level: str, view: JSON, legal: list[JSON], seed: int) -> JSON:
    """One decision, in the bots' process: the bot sees the seat's view and legal actions only."""
    return bot_for(game, level).choose(view, legal, random.Random(seed))


def executor() -> ProcessPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ProcessPoolExecutor(max_workers=BOT_PROCESSES,
                                        mp_context=multiprocessing.get_context("spawn"))
    return _executor


class BotSeats:
    """The bots of one room."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.rng = random.Random(secrets.randbits(64))

    async def choose(self, level: str, view: JSON, legal: list[JSON]) -> JSON:
        seed = self.rng.getrandbits(64)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(executor(), decide, self.game, level, view, legal, seed)
