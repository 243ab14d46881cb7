"""What a bot is: it sees its seat's view and legal actions, exactly as a client does, and answers
one of those actions. Bots import engines (for rules helpers) but never the server."""

from __future__ import annotations

import random
from typing import Protocol

from app.games.base import JSON


class Bot(Protocol):
    game: str
    level: str

    def choose(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON:
        """The JSON form of one action that ``legal`` allows (ranges resolved to a value)."""


def legal_by_kind(game: str, legal: list[JSON]) -> dict[str, JSON]:
    """The legal entries by kind (the last one of each kind); a bot is never asked with none."""
    if not legal:
        raise ValueError(f"a {game} bot was asked to act with no legal action")
    return {entry["kind"]: entry for entry in legal}
