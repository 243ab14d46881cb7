"""Who gets what from the pot (AZ-10, AZ-11, AZ-12), as a pure function on integers.

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

from .options import RETURNED, TO_POT


def settle(contributions: Sequence[int], dead: int, winner: int,
           folded: Collection[int] = (), folded_excess: str = RETURNED) -> tuple[int, ...]:
    """The chips each seat receives from the pot. ``folded`` holds the seats that folded
    (``winner`` must not be one of them). Raises ``ValueError`` on impossible input."""
    _check(contributions, dead, winner, folded, folded_excess)
    cap = contributions[winner]
    payouts = [0] * len(contributions)
    for seat, put_in in enumerate(contributions):
        if seat == winner:
            continue
        keeps_excess = folded_excess == RETURNED or seat not in folded
        payouts[seat] = max(0, put_in - cap) if keeps_excess else 0
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
