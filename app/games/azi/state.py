"""The Azi table as a value: one frozen dataclass for a whole session (AZ-4, AZ-15).

Chips are conserved at every step: ``sum(stacks) + pot`` never changes, where the pot is the
dead money (carried from Azi deals, plus buy-ins) and the contributions of the current deal.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from app.games.azi.options import AziOptions
from app.games.azi.ranking import is_six_on_scene
from app.games.base import JSON, IllegalAction, NotYourTurn
from app.games.cards import Card
from app.games.events import ChipsMoved, DealEnd, Event, GameSummary


class Phase(Enum):
    NEEDS_DEAL = "needs_deal"
    DISCARD = "discard"
    BETTING = "betting"
    PLAY = "play"
    AZI_BUY_IN = "azi_buy_in"
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"


@dataclass(frozen=True)
class GameResult:
    """How a game ended: the pot went to ``winner`` by ``reason`` (``tricks`` or ``folds``)."""

    number: int
    winner: int
    reason: str
    pot: int
    payouts: tuple[int, ...]
    net: tuple[int, ...]
    deals: int

    def to_json(self) -> GameSummary:
        return {"number": self.number, "winner": self.winner, "reason": self.reason,
                "pot": self.pot, "payouts": list(self.payouts), "net": list(self.net),
                "deals": self.deals}


@dataclass(frozen=True)
class AziState:
    """A whole table session. Per-seat tuples are indexed by seat.

    ``bets``/``bids``/``high``/``high_bidder``/``pending`` describe the betting phase (AZ-7);
    ``trick`` is the trick being played, ``tricks`` the finished ones of this deal as
    ``(winner, cards)`` and ``played`` every card played in this deal with its seat;
    ``contributions`` are this deal's ante and bets, ``carried`` the pot carried over from Azi
    deals and ``buy_ins`` the Azi buy-ins (both dead money, AZ-10).
    """

    options: AziOptions
    seats: int
    phase: Phase
    button: int
    initial_stacks: tuple[int, ...]
    stacks: tuple[int, ...]
    left: tuple[bool, ...]
    game_number: int = 0
    deal_number: int = 0
    deals_in_game: int = 0
    redeal: bool = False
    game_stacks: tuple[int, ...] = ()
    participants: tuple[int, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    discards: tuple[Card | None, ...] = ()
    undealt: tuple[Card, ...] = ()
    exposed: Card | None = None
    exposed_owner: int | None = None
    folded: tuple[bool, ...] = ()
    contributions: tuple[int, ...] = ()
    carried: int = 0
    buy_ins: tuple[int, ...] = ()
    bets: tuple[int, ...] = ()
    bids: tuple[int, ...] = ()
    raises: int = 0
    high: int = 0
    high_bidder: int | None = None
    opener: int | None = None
    pending: tuple[int, ...] = ()
    turn: int | None = None
    leader: int | None = None
    trick: tuple[tuple[int, Card], ...] = ()
    played: tuple[tuple[int, Card], ...] = ()
    tricks_won: tuple[int, ...] = ()
    tricks: tuple[tuple[int, tuple[tuple[int, Card], ...]], ...] = ()
    azi_players: tuple[int, ...] = ()
    buy_in_price: int = 0
    buy_in_queue: tuple[int, ...] = ()
    buy_in_decisions: tuple[tuple[int, bool], ...] = ()
    last_result: GameResult | None = None
    end_reason: str | None = None

    @property
    def pot(self) -> int:
        """Every chip in the pot now: dead money plus this deal's contributions."""
        return self.dead_money + sum(self.contributions)

    @property
    def dead_money(self) -> int:
        """AZ-10: the pot carried over from earlier Azi deals plus the Azi buy-ins."""
        return self.carried + sum(self.buy_ins)

    def stack(self, seat: int) -> int:
        return self.stacks[seat]

    @property
    def last_trick(self) -> tuple[tuple[int, Card], ...]:
        return self.tricks[-1][1] if self.tricks else ()

    @property
    def last_trick_winner(self) -> int | None:
        return self.tricks[-1][0] if self.tricks else None

    @property
    def trump(self) -> str | None:
        return None if self.exposed is None else self.exposed.suit

    @property
    def six_on_scene(self) -> bool:
        return self.exposed is not None and is_six_on_scene(self.exposed)

    @property
    def scores(self) -> tuple[int, ...]:
        """Net chips per seat over the session so far (chips now in the pot count as spent)."""
        return tuple(now - first for now, first in zip(self.stacks, self.initial_stacks, strict=True))

    @property
    def in_deal(self) -> tuple[int, ...]:
        """The participants who have not folded."""
        folded = self.folded
        return tuple(seat for seat in self.participants if not folded[seat])

    def is_all_in(self, seat: int) -> bool:
        """A participant still in the deal with no chips left behind."""
        return self.stacks[seat] == 0 and seat in self.participants and not self.folded[seat]

    def can_pay_ante(self, seat: int) -> bool:
        return not self.left[seat] and self.stacks[seat] >= self.options.stake

    @property
    def is_between_games(self) -> bool:
        return self.phase is Phase.GAME_OVER or (self.phase is Phase.NEEDS_DEAL and not self.redeal)

    def clockwise_after(self, seat: int, members: Collection[int]) -> tuple[int, ...]:
        """The ``members`` in clockwise order (increasing seat index) starting after ``seat``;
        ``seat`` itself comes last if it is a member (AZ-1)."""
        return tuple(s for s in RINGS[self.seats][seat] if s in members)

    def next_clockwise(self, seat: int, members: Collection[int]) -> int:
        """The first of ``members`` clockwise after ``seat`` (``seat`` itself last, AZ-1)."""
        return next(s for s in RINGS[self.seats][seat] if s in members)


def evolve(state: AziState, *bases: Mapping[str, Any], **changes: Any) -> AziState:
    """A copy of ``state`` with the changes of ``bases`` then ``changes``: ``dataclasses.replace``
    without running ``__init__`` again, which costs most of a step for a value of this many fields
    (every field keeps a value the engine made, so nothing needs checking)."""
    copy = object.__new__(AziState)
    fields = copy.__dict__
    fields.update(state.__dict__)
    for base in bases:
        fields.update(base)
    fields.update(changes)
    return copy


def _rings(seats: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple((seat + step) % seats for step in range(1, seats + 1)) for seat in range(seats))


RINGS = {seats: _rings(seats) for seats in range(1, 13)}
"""``RINGS[seats][seat]``: every seat clockwise from the one after ``seat``, ``seat`` last."""


def put_at(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    """``values`` with the entry of ``seat`` replaced by ``value``."""
    return (*values[:seat], value, *values[seat + 1:])


Step = tuple[AziState, list[Event]]
"""A new state and the events on the way to it."""


def per_seat(seats: int, value: Any) -> tuple[Any, ...]:
    return tuple(value for _ in range(seats))


def add_at(values: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    return (*values[:seat], values[seat] + amount, *values[seat + 1:])


def to_act(state: AziState) -> tuple[int, ...]:
    """The seats whose decision is awaited: every participant who has not discarded yet (the
    4-card discard is simultaneous), else the one seat on turn, else the next buy-in offer."""
    if state.phase is Phase.DISCARD:
        return tuple(seat for seat in state.participants if state.discards[seat] is None)
    if state.phase in (Phase.BETTING, Phase.PLAY) and state.turn is not None:
        return (state.turn,)
    if state.phase is Phase.AZI_BUY_IN:
        return state.buy_in_queue[:1]
    return ()


def require_turn(state: AziState, seat: int) -> None:
    """Raises :class:`NotYourTurn` unless ``seat`` is the one to act in betting or play."""
    if seat not in state.participants:
        raise NotYourTurn(f"seat {seat} is not playing this deal", code="action/not_participant")
    if state.folded[seat]:
        raise NotYourTurn(f"seat {seat} has folded and is out of this deal (AZ-7.3)",
                          code="action/folded")
    if seat != state.turn:
        raise NotYourTurn(f"it is seat {state.turn}'s turn, not seat {seat}'s")


def wrong_phase(state: AziState, action: JSON) -> IllegalAction:
    return IllegalAction(f"{action} is not a move of the {state.phase.value} phase",
                         code="action/wrong_phase")


def chips_event(seat: int, delta: int, reason: str) -> ChipsMoved:
    """One change of a stack; ``delta`` < 0 puts chips into the pot."""
    return {"type": "chips", "seat": seat, "delta": delta, "reason": reason}


def paid_in(state: AziState, seat: int, amount: int) -> dict[str, tuple[int, ...]]:
    """The changes when ``seat`` puts ``amount`` chips of his stack into the pot as this deal's
    contribution (for :func:`evolve`)."""
    return {"stacks": add_at(state.stacks, seat, -amount),
            "contributions": add_at(state.contributions, seat, amount)}


def deal_end(state: AziState, points: tuple[int, ...], detail: JSON) -> DealEnd:
    """The ``deal_end`` event of the contract: each seat's net chips in the deal, and how it ended."""
    detail = {**detail, "game": state.game_number, "redeal": state.redeal,
              "contributions": list(state.contributions), "buy_ins": list(state.buy_ins),
              "tricks": list(state.tricks_won), "folded": [seat for seat in range(state.seats)
                                                           if state.folded[seat]]}
    return {"type": "deal_end", "number": state.deal_number, "points": list(points),
            "detail": detail}
