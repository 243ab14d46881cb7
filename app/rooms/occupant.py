"""Who holds a seat of a room."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Occupant:
    """Who holds a seat. ``autopilot``: the strong bot plays for a person who is away or too slow.
    ``buy_in``: at a chip table, the table stack the seat brings (a bot's is the table's largest)."""

    player_id: str | None
    name: str
    bot: str | None = None
    autopilot: bool = False
    buy_in: int | None = None

    @property
    def bot_level(self) -> str | None:
        return self.bot or ("strong" if self.autopilot else None)

    @classmethod
    def for_bot(cls, seat: int, level: str, buy_in: int | None = None) -> Occupant:
        return cls(None, f"Bot {seat + 1} ({level})", bot=level, buy_in=buy_in)
