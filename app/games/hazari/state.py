"""The values of a Hazari match: options, rounds and the match state (all frozen)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from app.games.base import JSON
from app.games.cards import Card
from app.games.events import RoundSummary
from app.games.hazari.arrangements import Groups
from app.games.hazari.combos import CARD_TEXT, best_triple, category_name, unpack

SEATS = 4
TIE_RULES = ("later_wins", "first_wins")
MATCH_TIES = ("joint_winners", "play_on")


class Phase(Enum):
    DEALING = "dealing"      # waiting for a deck: before the first deal and after each scored deal
    ARRANGING = "arranging"  # the four players arrange at once (HZ-4)
    SHOWING = "showing"      # all are up; the server reveals one round per automatic step (HZ-6)
    FINISHED = "finished"    # HZ-9


@dataclass(frozen=True)
class Rules:
    """The table options of section 1.5."""

    target: int = 1000
    tie_rule: str = "later_wins"
    match_tie: str = "joint_winners"


@dataclass(frozen=True)
class Play:
    """One group exposed in a round, with its packed key (a 4-card group: its best triple)."""

    seat: int
    cards: tuple[Card, ...]
    key: int

    def to_json(self) -> JSON:
        """A 4-card group also names its ``best`` triple, the one that counts (HZ-7)."""
        shown: JSON = {"seat": self.seat, "cards": [CARD_TEXT[card] for card in self.cards],
                       "combination": category_name(self.key), "key": list(unpack(self.key))}
        if len(self.cards) == 4:
            shown["best"] = [CARD_TEXT[card] for card in best_triple(self.cards)]
        return shown


@dataclass(frozen=True)
class Round:
    """A revealed round (HZ-6, HZ-7): plays in exposure order, the winner and the points taken."""

    number: int
    leader: int
    plays: tuple[Play, ...]
    winner: int
    points: int

    def to_json(self) -> RoundSummary:
        return {"number": self.number, "leader": self.leader,
                "plays": [play.to_json() for play in self.plays],
                "winner": self.winner, "points": self.points}


@dataclass(frozen=True)
class HazariState:
    """A match. ``dealer`` is the dealer of the current deal, or of the next one while a deck is
    awaited. ``hands``, ``arrangements``, ``rounds`` and ``piles`` belong to the current deal (or the
    last one, until the next deck comes); ``history`` holds the points of every scored deal."""

    rules: Rules
    phase: Phase
    dealer: int
    deal_number: int = 0
    scores: tuple[int, ...] = (0,) * SEATS
    hands: tuple[tuple[Card, ...], ...] = ((),) * SEATS
    arrangements: tuple[Groups | None, ...] = (None,) * SEATS
    rounds: tuple[Round, ...] = ()
    piles: tuple[tuple[Card, ...], ...] = ((),) * SEATS
    history: tuple[tuple[int, ...], ...] = ()
    winners: tuple[int, ...] = ()

    def but(self, **changes: Any) -> HazariState:
        """A copy with ``changes`` (what ``dataclasses.replace`` does, without its checks: every
        transition makes several)."""
        new = object.__new__(HazariState)
        new.__dict__.update(self.__dict__, **changes)
        return new

    def exposed(self) -> frozenset[Card]:
        """The cards of the current deal shown in a revealed round."""
        return frozenset(card for rnd in self.rounds for play in rnd.plays for card in play.cards)
