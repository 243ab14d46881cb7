"""The Hasenpfeffer state as a value, and the table options (rules section 3.5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from app.games.base import JSON, OptionSpec, read_options
from app.games.cards import Card

from .actions import BidValue, bid_level

SEATS = 4
TEAMS = ((0, 2), (1, 3))
TRICKS_PER_DEAL = 6
FORCED_CONTRACT = 3

OPTION_SPECS = (
    OptionSpec("bidding", "standard", "standard: bids 1..6 (HP-5); pepper: 1..5, Little Pepper "
               "and Big Pepper (HP-11)", choices=("standard", "pepper")),
    OptionSpec("first_lead", "dealer_left", "who leads the first trick: the dealer's left (HP-8) "
               "or the bidder", choices=("dealer_left", "bidder")),
    OptionSpec("defenders_score", True, "whether the defenders score one point per trick they "
               "win (HP-9)", choices=(True, False)),
    OptionSpec("target", 10, "points that end the match (HP-10)", minimum=1, maximum=100),
    OptionSpec("both_reach_target", "bidders_win", "who wins when both partnerships reach the "
               "target in one deal: the bidders (HP-10), or the higher total with the bidders on "
               "equality", choices=("bidders_win", "higher_total")),
)


def make_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Every option checked and filled with its default; raises ``InvalidOptions``."""
    return read_options(OPTION_SPECS, raw)


class Phase(Enum):
    NEEDS_DEAL = "needs_deal"
    BIDDING = "bidding"
    TRUMP = "trump"
    DISCARD = "discard"
    PLAY = "play"
    FINISHED = "finished"


@dataclass(frozen=True)
class Options:
    bidding: str = "standard"
    first_lead: str = "dealer_left"
    defenders_score: bool = True
    target: int = 10
    both_reach_target: str = "bidders_win"

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> Options:
        return cls(**make_options(raw))

    @property
    def is_pepper(self) -> bool:
        return self.bidding == "pepper"

    def to_json(self) -> JSON:
        return {"bidding": self.bidding, "first_lead": self.first_lead,
                "defenders_score": self.defenders_score, "target": self.target,
                "both_reach_target": self.both_reach_target}


@dataclass(frozen=True)
class Call:
    """One turn of the auction: a bid, or a pass when ``bid`` is None."""

    seat: int
    bid: BidValue | None

    def to_json(self) -> JSON:
        return {"seat": self.seat, "call": "pass" if self.bid is None else self.bid}


@dataclass(frozen=True)
class Trick:
    """A completed trick: its cards in play order from ``leader``, and the seat that won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def to_json(self, number: int) -> JSON:
        return {"number": number, "leader": self.leader, "winner": self.winner,
                "plays": [{"seat": (self.leader + i) % SEATS, "card": str(card)}
                          for i, card in enumerate(self.cards)]}


@dataclass(frozen=True)
class State:
    """A whole match. ``trick`` holds the current trick's cards in play order from ``leader``;
    ``completed`` the tricks of this deal (of the last deal, between deals). ``widow`` stays
    recorded after the bidder takes it (it is then also in his hand); ``discard`` is never shown
    in a view."""

    options: Options
    phase: Phase
    dealer: int
    deal_number: int = 0
    scores: tuple[int, int] = (0, 0)
    hands: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    widow: Card | None = None
    auction: tuple[Call, ...] = ()
    speaker: int | None = None
    bidder: int | None = None
    contract: BidValue | None = None
    forced: bool = False
    trump: str | None = None
    discard: Card | None = None
    leader: int = 0
    trick: tuple[Card, ...] = ()
    completed: tuple[Trick, ...] = ()
    tricks: tuple[int, int] = (0, 0)
    winner: int | None = None

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card of the completed tricks of this deal."""
        return tuple(card for trick in self.completed for card in trick.cards)

    @property
    def turn(self) -> int:
        """The seat to play next to the current trick (HP-8: clockwise from the leader)."""
        return (self.leader + len(self.trick)) % SEATS

    @property
    def passed(self) -> frozenset[int]:
        return frozenset(call.seat for call in self.auction if call.bid is None)

    @property
    def high_call(self) -> Call | None:
        """The highest bid so far: bids only rise, so it is the last one (HP-5)."""
        bids = [call for call in self.auction if call.bid is not None]
        return bids[-1] if bids else None

    @property
    def high_level(self) -> int:
        high = self.high_call
        return 0 if high is None or high.bid is None else bid_level(high.bid)

    @property
    def bidding_team(self) -> int | None:
        return None if self.bidder is None else team_of(self.bidder)


def team_of(seat: int) -> int:
    """Team A (0) is seats 0 and 2, team B (1) seats 1 and 3 (HP-1)."""
    return seat % 2


def seats_to_act(state: State) -> tuple[int, ...]:
    """The speaker in the auction, the bidder while he names trump and discards, the next player
    in play; nobody between deals or after the match."""
    if state.phase is Phase.BIDDING and state.speaker is not None:
        return (state.speaker,)
    if state.phase in (Phase.TRUMP, Phase.DISCARD) and state.bidder is not None:
        return (state.bidder,)
    if state.phase is Phase.PLAY:
        return (state.turn,)
    return ()
