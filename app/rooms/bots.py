"""Bots at the table: their decisions are computed off the event loop."""

from __future__ import annotations

import asyncio
import random
import secrets
from concurrent.futures import ThreadPoolExecutor
from functools import cache

from app.bots.base import Bot
from app.bots.registry import make_bot
from app.games.base import JSON

_EXECUTOR = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")


@cache
def bot_for(game: str, level: str) -> Bot:
    return make_bot(game, level)


class BotSeats:
    """The bots of one room: each decision sees only its seat's view and legal actions."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.rng = random.Random(secrets.randbits(64))

    async def choose(self, level: str, view: JSON, legal: list[JSON]) -> JSON:
        bot = bot_for(self.game, level)
        seed = self.rng.getrandbits(64)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_EXECUTOR, bot.choose, view, legal, random.Random(seed))
