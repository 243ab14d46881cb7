"""A room's pauses and waits (:class:`Timing`), and the pause between two deals."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.games.base import JSON
from app.rooms.clock import Clock


@dataclass
class Timing:
    """Seconds: the pause before an automatic step (also how long a completed trick stays before a
    bot or the autopilot plays to the next) and before a bot acts; how long a dropped player keeps
    his seat before the bot plays for him; missed decisions in a row before it does; the pause before
    a step nobody waits for (an automatic step, a bot's move, a timeout) is tried again after the
    database did not take it; how long a finished deal's result stays before the next deal when not
    every player present has asked for it (``next_deal``); how long the players of a finished match
    have to answer an offer to play again before the owner may start without them. ``clock``
    measures them all."""

    auto_pause: float = 0.0
    bot_delay: float = 0.0
    grace_period: float = 60.0
    missed_limit: int = 2
    seed_wait: float = 0.0
    retry_pause: float = 1.0
    deal_pause: float = 0.0
    rematch_wait: float = 30.0
    clock: Clock = field(default_factory=Clock)


@dataclass
class DealPause:
    """After a deal ends: when the next one comes at the latest, and the seats that asked for it."""

    ends_at: float
    ready: set[int] = field(default_factory=set)

    def to_json(self, waiting: list[int]) -> JSON:
        return {"ready": sorted(self.ready), "waiting": [seat for seat in waiting if seat not in self.ready],
                "ends_at": self.ends_at}
