"""What a room is made of: who holds each seat, the connections, and the room's settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from app.games.base import JSON, Rejection
from app.games.cards import Card, card_texts, parse_cards
from app.rooms.clock import Clock


class RoomError(Rejection):
    code = "room/refused"


@dataclass(frozen=True)
class TestSetup:
    """Test mode only: fixed decks for deals 1, 2, ... and the first dealer."""

    decks: tuple[tuple[Card, ...], ...] = ()
    first_dealer: int | None = None

    def to_json(self) -> JSON:
        return {"decks": [card_texts(deck) for deck in self.decks], "first_dealer": self.first_dealer}

    @classmethod
    def from_json(cls, saved: JSON | None) -> TestSetup | None:
        if saved is None:
            return None
        return cls(decks=tuple(parse_cards(deck) for deck in saved["decks"]),
                   first_dealer=saved["first_dealer"])


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


def encode_frame(message: dict[str, Any]) -> str:
    """A message as the JSON text of one WebSocket frame."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass(eq=False)
class Connection:
    """One client of a room: a player's (``player_id``) or a spectator's. The room hands it each message
    with :meth:`push` and never waits for the client; this base class, with no socket, keeps none."""

    player_id: str | None
    name: str | None

    def push(self, message: str) -> None:
        """Send ``message`` after those pushed before it."""

    def close(self, code: str, message: str) -> None:
        """End the connection from the server's side, telling the client why (error ``code``)."""


@dataclass(frozen=True)
class ChipRules:
    """For chip games: the ante a player must hold to sit down, and the range of the table stack a
    player brings (its buy-in), in chips. A bot brings the largest."""

    enabled: bool = False
    ante: int = 0
    min_buy_in: int = 0
    max_buy_in: int = 0


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
