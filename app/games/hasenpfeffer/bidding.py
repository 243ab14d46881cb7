"""The auction (HP-5, HP-11), everybody passing (HP-6) and taking the widow (HP-7)."""

from __future__ import annotations

import random

from app.games.base import JSON, IllegalAction, Transition
from app.games.cards import JOKER
from app.games.events import Event
from app.games.hasenpfeffer.actions import (
    BIG_PEPPER,
    LITTLE_PEPPER,
    PEPPERS,
    Bid,
    BidValue,
    HasenpfefferAction,
    Pass,
    bid_level,
)
from app.games.hasenpfeffer.scoring import throw_in
from app.games.hasenpfeffer.state import (
    FORCED_CONTRACT,
    SEATS,
    TRUMP,
    Call,
    HasenpfefferState,
    evolve,
)
from app.games.hasenpfeffer.trumps import SORT_KEYS

STANDARD_BIDS: tuple[BidValue, ...] = (1, 2, 3, 4, 5, 6)
PEPPER_BIDS: tuple[BidValue, ...] = (1, 2, 3, 4, 5, LITTLE_PEPPER, BIG_PEPPER)
PASS = Pass()
_CALLS: dict[tuple[bool, int], tuple[Bid | Pass, ...]] = {
    (pepper, level): tuple(Bid(value) for value in (PEPPER_BIDS if pepper else STANDARD_BIDS)
                           if bid_level(value) > level) + (PASS,)
    for pepper in (False, True) for level in range(8)
}
"""The typed legal calls by table form and high level, in the order of :func:`legal_bidding`."""


def legal_bids(state: HasenpfefferState) -> tuple[BidValue, ...]:
    """The bids that beat the current highest bid, in this table's form (HP-5 / HP-11)."""
    values = PEPPER_BIDS if state.options.is_pepper else STANDARD_BIDS
    return tuple(value for value in values if bid_level(value) > state.high_level)


def legal_bidding(state: HasenpfefferState, seat: int) -> list[JSON]:
    if seat != state.speaker:
        return []
    bids: list[JSON] = [{"kind": "bid", "value": value} for value in legal_bids(state)]
    return bids + [{"kind": "pass"}]


def random_call(state: HasenpfefferState, rng: random.Random) -> Bid | Pass:
    """A uniformly random one of :func:`legal_bidding` (the same draw from ``rng``)."""
    return rng.choice(_CALLS[state.options.is_pepper, state.high_level])


def apply_bidding(state: HasenpfefferState, seat: int,
                  action: HasenpfefferAction) -> Transition[HasenpfefferState]:
    """A bid or a pass by the seat to speak (the engine has checked the turn)."""
    if isinstance(action, Bid):
        _check_bid(state, action)
        return _after_call(state, Call(seat, action.value))
    assert isinstance(action, Pass)
    return _after_call(state, Call(seat, None))


def _check_bid(state: HasenpfefferState, action: Bid) -> None:
    value = action.value
    if state.options.is_pepper and value == 6:
        raise IllegalAction("a bid of 6 is refused at a pepper table: bid 'little_pepper' or "
                            "'big_pepper' to undertake all six tricks (HP-11)",
                            code="action/no_numeric_six")
    if not state.options.is_pepper and value in PEPPERS:
        raise IllegalAction(f"a bid of {value!r} exists only at tables with bidding 'pepper' "
                            "(HP-11); here bid a number 1..6 (HP-5)",
                            code="action/pepper_not_in_use")
    high = state.high_call
    if high is not None and bid_level(value) <= state.high_level:
        raise IllegalAction(f"a bid of {value!r} does not beat seat {high.seat}'s bid of "
                            f"{high.bid!r}: each bid must be strictly higher (HP-5)",
                            code="action/bid_too_low")


def _is_unbeatable(state: HasenpfefferState, value: BidValue) -> bool:
    """A 6 (standard) or Big Pepper (pepper form) cannot be overcalled, so the auction closes at
    once (HP-5, HP-11)."""
    return value == (BIG_PEPPER if state.options.is_pepper else 6)


def _after_call(state: HasenpfefferState, call: Call) -> Transition[HasenpfefferState]:
    auction = state.auction + (call,)
    passed = {entry.seat for entry in auction if entry.bid is None}
    event: Event = ({"type": "pass", "seat": call.seat} if call.bid is None
                   else {"type": "bid", "seat": call.seat, "value": call.bid})
    if call.bid is not None and (len(passed) == SEATS - 1 or _is_unbeatable(state, call.bid)):
        return _close(evolve(state, auction=auction), call.seat, call.bid, False, (event,))
    if len(passed) == SEATS:
        return _everybody_passed(evolve(state, auction=auction), (event,))
    high = state.high_call if call.bid is None else call
    if len(passed) == SEATS - 1 and high is not None and high.bid is not None:
        return _close(evolve(state, auction=auction), high.seat, high.bid, False, (event,))
    speaker = next(seat % SEATS for seat in range(call.seat + 1, call.seat + SEATS + 1)
                   if seat % SEATS not in passed)
    return Transition(evolve(state, auction=auction, speaker=speaker), (event,))


def _everybody_passed(state: HasenpfefferState,
                      events: tuple[Event, ...]) -> Transition[HasenpfefferState]:
    """The Joker holder reveals it and must play a contract of 3 (also in the pepper form, HP-11);
    if the Joker is the widow the deal is thrown in (HP-6)."""
    holder = next((seat for seat in range(SEATS) if JOKER in state.hands[seat]), None)
    if holder is None:
        return throw_in(state, events)
    forced: Event = {"type": "joker_forced", "seat": holder}
    return _close(evolve(state, forced=True), holder, FORCED_CONTRACT, True, events + (forced,))


def _close(state: HasenpfefferState, bidder: int, contract: BidValue, forced: bool,
           events: tuple[Event, ...]) -> Transition[HasenpfefferState]:
    """The auction is won: the bidder picks up the widow at once, to name trump next (HP-7)."""
    assert state.widow is not None
    hands = list(state.hands)
    hands[bidder] = tuple(sorted(hands[bidder] + (state.widow,), key=SORT_KEYS.__getitem__))
    after = evolve(state, phase=TRUMP, speaker=None, bidder=bidder, contract=contract,
                   forced=forced, hands=tuple(hands))
    won: Event = {"type": "auction_end", "bidder": bidder, "contract": contract, "forced": forced}
    return Transition(after, events + (won, {"type": "widow_taken", "seat": bidder}))
