"""The Hasenpfeffer state as a value, and the table options (rules section 3.5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any

from app.games.base import JSON, OptionSpec, read_options
from app.games.cards import Card
from app.games.hasenpfeffer.actions import BidValue, bid_level

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


# Reading ``Phase.X`` goes through the enum's descriptor (hundreds of ns); the engine's hot paths
# read these module constants instead.
NEEDS_DEAL = Phase.NEEDS_DEAL
BIDDING = Phase.BIDDING
TRUMP = Phase.TRUMP
DISCARD = Phase.DISCARD
PLAY = Phase.PLAY
FINISHED = Phase.FINISHED


@dataclass(frozen=True)
class Options:
    bidding: str = "standard"
    first_lead: str = "dealer_left"
    defenders_score: bool = True
    target: int = 10
    both_reach_target: str = "bidders_win"

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> Options:
        """The checked options; a table's options are read once, not at every deal."""
        try:
            key = tuple((name, type(value), value) for name, value in sorted(raw.items()))
            return _options_of(key)
        except TypeError:  # an unhashable value: let the check name it
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


@lru_cache(maxsize=256)
def _options_of(key: tuple[tuple[str, type, Any], ...]) -> Options:
    return Options(**make_options({name: value for name, _, value in key}))


@dataclass(frozen=True)
class HasenpfefferState:
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
        return frozenset([call.seat for call in self.auction if call.bid is None])

    @property
    def high_call(self) -> Call | None:
        """The highest bid so far: bids only rise, so it is the last one (HP-5)."""
        for call in reversed(self.auction):
            if call.bid is not None:
                return call
        return None

    @property
    def high_level(self) -> int:
        high = self.high_call
        return 0 if high is None or high.bid is None else bid_level(high.bid)

    @property
    def bidding_team(self) -> int | None:
        return None if self.bidder is None else team_of(self.bidder)


def evolve(state: HasenpfefferState, **changes: Any) -> HasenpfefferState:
    """``dataclasses.replace`` without running ``__init__`` again: the engine's transitions build
    only well-formed states, and ``replace`` cost more than all the rules of a move."""
    after = _new_state(HasenpfefferState)
    fields = state.__dict__.copy()
    fields.update(changes)
    _set_field(after, "__dict__", fields)
    return after


_new_state = object.__new__
_set_field = object.__setattr__


def team_of(seat: int) -> int:
    """Team A (0) is seats 0 and 2, team B (1) seats 1 and 3 (HP-1)."""
    return seat % 2


def seats_to_act(state: HasenpfefferState) -> tuple[int, ...]:
    """The speaker in the auction, the bidder while he names trump and discards, the next player
    in play; nobody between deals or after the match."""
    phase = state.phase
    if phase is PLAY:
        return _ALONE[(state.leader + len(state.trick)) % SEATS]
    if phase is BIDDING:
        return () if state.speaker is None else _ALONE[state.speaker]
    if (phase is TRUMP or phase is DISCARD) and state.bidder is not None:
        return _ALONE[state.bidder]
    return ()


_ALONE = tuple((seat,) for seat in range(SEATS))
