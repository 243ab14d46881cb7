"""The pot: who gets what from it (AZ-10, AZ-11, AZ-12) and its award at the end of a game.

With winner ``W``, contributions ``c`` (chips each seat put in during the current deal: ante and
bets) and dead money ``D`` (the pot carried from earlier Azi deals plus the Azi buy-ins):

* ``W`` receives ``D + sum_j min(c(j), c(W))``;
* every other seat ``j`` gets back ``max(0, c(j) - c(W))``, the part of his wager that the winner
  could not match; with ``folded_excess = "to_pot"`` a seat that folded gets nothing back and that
  excess goes to ``W`` instead.

The payouts always add up to ``D + sum(c)``: chips are conserved exactly.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from app.games.azi.options import RETURNED, TO_POT
from app.games.azi.outcome import end_if_short
from app.games.azi.state import AziState, GameResult, Phase, Step, chips_event, deal_end, evolve, per_seat
from app.games.events import Event


def settle(contributions: Sequence[int], dead: int, winner: int,
           folded: Collection[int] = (), folded_excess: str = RETURNED) -> tuple[int, ...]:
    """The chips each seat receives from the pot. ``folded`` holds the seats that folded
    (``winner`` must not be one of them). Raises ``ValueError`` on impossible input."""
    _check(contributions, dead, winner, folded, folded_excess)
    return payouts_of(contributions, dead, winner, folded, folded_excess)


def payouts_of(contributions: Sequence[int], dead: int, winner: int, folded: Collection[int],
               folded_excess: str) -> tuple[int, ...]:
    """:func:`settle` on input the engine made itself (not checked again)."""
    cap = contributions[winner]
    returned = folded_excess == RETURNED
    payouts = [0] * len(contributions)
    for seat, put_in in enumerate(contributions):
        if seat != winner and put_in > cap and (returned or seat not in folded):
            payouts[seat] = put_in - cap
    payouts[winner] = dead + sum(contributions) - sum(payouts)
    return tuple(payouts)


def net_results(contributions: Sequence[int], payouts: Sequence[int]) -> tuple[int, ...]:
    """Each seat's gain or loss in the deal: what it received minus what it put in."""
    return tuple(paid_out - put_in for put_in, paid_out in zip(contributions, payouts, strict=True))


def _check(contributions: Sequence[int], dead: int, winner: int, folded: Collection[int],
           folded_excess: str) -> None:
    if any(type(c) is not int or c < 0 for c in contributions) or type(dead) is not int or dead < 0:
        raise ValueError(f"contributions {list(contributions)} and dead money {dead!r} must be "
                         "whole numbers, not negative")
    if not 0 <= winner < len(contributions):
        raise ValueError(f"winner {winner} is not one of the {len(contributions)} seats")
    if winner in folded:
        raise ValueError(f"seat {winner} folded and cannot win the pot")
    if folded_excess not in (RETURNED, TO_POT):
        raise ValueError(f"folded_excess must be {RETURNED!r} or {TO_POT!r}, got {folded_excess!r}")


def award_pot(state: AziState, winner: int, reason: str, events: list[Event]) -> Step:
    """AZ-11/AZ-12: settle the pot with ``winner``; the game ends (AZ-4)."""
    folded = [seat for seat in range(state.seats) if state.folded[seat]]
    pot, dead = state.pot, state.dead_money
    payouts = payouts_of(state.contributions, dead, winner, folded, state.options.folded_excess)
    for seat, amount in enumerate(payouts):
        if amount:
            events.append(chips_event(seat, amount, "payout" if seat == winner else "refund"))
    points = tuple(paid - put - bought for paid, put, bought
                   in zip(payouts, state.contributions, state.buy_ins, strict=True))
    events.append(deal_end(state, points, {"winner": winner, "reason": reason, "pot": pot,
                                           "dead_money": dead, "payouts": list(payouts)}))
    stacks = tuple(stack + paid for stack, paid in zip(state.stacks, payouts, strict=True))
    net = tuple(now - before for now, before in zip(stacks, state.game_stacks, strict=True))
    result = GameResult(state.game_number, winner, reason, pot, payouts, net, state.deals_in_game)
    events.append({"type": "game_end", **result.to_json()})
    zeros = per_seat(state.seats, 0)
    state = evolve(state, stacks=stacks, contributions=zeros, carried=0, buy_ins=zeros,
                   turn=None, pending=(), last_result=result, phase=Phase.GAME_OVER)
    return end_if_short(state, events)
