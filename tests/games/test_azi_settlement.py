"""AZ-10/AZ-11/AZ-12 settlement: the worked examples and properties over random pots."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.azi.pot import net_results, settle


def test_az11_worked_example_all_in_winner_gets_the_matched_part() -> None:
    """AZ-11 worked example: A 110 (all-in), B 310, C 310; A wins."""
    contributions = (110, 310, 310)
    payouts = settle(contributions, dead=0, winner=0)
    assert payouts == (330, 200, 200)
    assert sum(payouts) == 730
    assert net_results(contributions, payouts) == (220, -110, -110)


def test_az11_worked_example_covered_winner_takes_everything() -> None:
    """AZ-11 worked example, second part: had B won, B takes all 730 (net +420)."""
    contributions = (110, 310, 310)
    payouts = settle(contributions, dead=0, winner=1)
    assert payouts == (0, 730, 0)
    assert net_results(contributions, payouts) == (-110, 420, -310)


def test_example_33_ante_included() -> None:
    """Example 33 (AZ-11): c = A 110, B 310, C 310, pot 730; A wins -> 330 / 200 / 200."""
    payouts = settle([110, 310, 310], 0, 0, folded=(), folded_excess="returned")
    assert payouts == (330, 200, 200)
    assert net_results([110, 310, 310], payouts) == (220, -110, -110)


def test_dead_money_is_won_in_full_by_an_all_in_winner() -> None:
    """Ambiguity 13 / AZ-10: dead money from earlier Azi deals goes wholly to the winner."""
    payouts = settle((10, 60, 60), dead=75, winner=0)
    assert payouts == (75 + 30, 50, 50)


def test_folded_excess_returned_or_to_pot() -> None:
    """Ambiguity 13 and option folded_excess: B folded with 310 > c(A) = 110."""
    contributions = (110, 310, 510)
    assert settle(contributions, 0, 0, folded={1}, folded_excess="returned") == (330, 200, 400)
    assert settle(contributions, 0, 0, folded={1}, folded_excess="to_pot") == (530, 0, 400)


def test_az12_lone_survivor_takes_the_pot() -> None:
    """AZ-12: the only player left after folds wins by the same formula."""
    assert settle((20, 10, 10), 0, 0, folded={1, 2}) == (40, 0, 0)


@pytest.mark.parametrize(("contributions", "dead", "winner", "folded", "mode"), [
    ((10, -1), 0, 0, (), "returned"),
    ((10, 10), -5, 0, (), "returned"),
    ((10, 10), 0, 2, (), "returned"),
    ((10, 10), 0, 1, (1,), "returned"),
    ((10, 10), 0, 0, (), "burn"),
    ((10, True), 0, 0, (), "returned"),
])
def test_impossible_input_is_refused(contributions: tuple[int, ...], dead: int, winner: int,
                                     folded: tuple[int, ...], mode: str) -> None:
    with pytest.raises(ValueError):
        settle(contributions, dead, winner, folded, mode)


@st.composite
def pots(draw: st.DrawFn) -> tuple[list[int], int, int, set[int], str]:
    """A pot as the table can produce it: antes, bets that are mostly matched, some all-ins for
    less, some folds, maybe dead money carried from an Azi."""
    seats = draw(st.integers(2, 6))
    ante = draw(st.integers(1, 50))
    high = draw(st.integers(0, 2000))
    contributions = []
    for _ in range(seats):
        kind = draw(st.sampled_from(["matched", "partial", "zero"]))
        if kind == "matched":
            contributions.append(ante + high)
        elif kind == "partial":  # all-in for less, or folded before the last raise
            contributions.append(ante + draw(st.integers(0, high)))
        else:
            contributions.append(0)
    winner = draw(st.integers(0, seats - 1))
    folded = {seat for seat in range(seats) if seat != winner and draw(st.booleans())}
    dead = draw(st.sampled_from([0, 0, draw(st.integers(1, 5000))]))
    mode = draw(st.sampled_from(["returned", "to_pot"]))
    return contributions, dead, winner, folded, mode


@settings(max_examples=400, deadline=None)
@given(pots())
def test_settlement_properties(pot: tuple[list[int], int, int, set[int], str]) -> None:
    """Conservation; the winner gets the dead money and the matched part of every wager, never
    more; a loser gets back only his unmatched excess (a folded one nothing under to_pot)."""
    contributions, dead, winner, folded, mode = pot
    payouts = settle(contributions, dead, winner, folded, mode)
    cap = contributions[winner]
    assert sum(payouts) == dead + sum(contributions)
    assert all(type(paid) is int and paid >= 0 for paid in payouts)
    for seat, put_in in enumerate(contributions):
        if seat == winner:
            continue
        excess = max(0, put_in - cap)
        expected = 0 if (seat in folded and mode == "to_pot") else excess
        assert payouts[seat] == expected
        assert payouts[seat] <= put_in
    matched = dead + sum(min(put_in, cap) for put_in in contributions)
    forfeited = sum(max(0, contributions[s] - cap) for s in folded) if mode == "to_pot" else 0
    assert payouts[winner] == matched + forfeited
    assert payouts[winner] >= dead + cap
    if cap == max(contributions):
        assert payouts[winner] == dead + sum(contributions)
    assert sum(net_results(contributions, payouts)) == dead
