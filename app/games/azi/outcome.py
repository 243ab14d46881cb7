"""The end of the table session (AZ-15) and the match's outcome."""

from __future__ import annotations

from app.games.azi.state import AziState, Phase, Step, evolve
from app.games.base import Outcome
from app.games.events import Event


def end_if_short(state: AziState, events: list[Event]) -> Step:
    """AZ-15: the table stops when fewer than two seated players can pay the ante."""
    if sum(state.can_pay_ante(seat) for seat in range(state.seats)) >= 2:
        return state, events
    return end_match(state, events, "players")


def end_match(state: AziState, events: list[Event], reason: str) -> Step:
    state = evolve(state, phase=Phase.MATCH_OVER, end_reason=reason, turn=None)
    outcome = match_outcome(state)
    events.append({"type": "match_end", "reason": reason, "winners": list(outcome.winners),
                   "totals": list(outcome.totals)})
    return state, events


def match_outcome(state: AziState) -> Outcome:
    """Totals are the net chips each seat won or lost over the session; the winners are the
    seats with the largest gain (nobody, if nobody gained)."""
    totals = state.scores
    best = max(totals)
    winners = tuple(seat for seat, total in enumerate(totals) if total == best and best > 0)
    return Outcome(winners=winners, totals=totals)
