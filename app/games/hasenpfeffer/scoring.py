"""Scoring a deal, throwing one in, and the end of the match (HP-6, HP-9, HP-10, HP-11)."""

from __future__ import annotations

from app.games.base import JSON, Transition
from app.games.events import Event
from app.games.hasenpfeffer.actions import BidValue, bid_stake, bid_tricks
from app.games.hasenpfeffer.state import (
    FINISHED,
    NEEDS_DEAL,
    SEATS,
    TRICKS_PER_DEAL,
    HasenpfefferState,
    Options,
    evolve,
    team_of,
)


def deal_points(options: Options, state: HasenpfefferState) -> tuple[int, int]:
    """Points per team for a played-out deal.

    Bidders who make their contract score one point per trick won, overtricks included; if set
    they lose the tricks they undertook (HP-9). Little Pepper is a contract of six at normal
    stakes, Big Pepper doubles the bidders' score either way (HP-11). Defenders score one point
    per trick won, never doubled, unless the ``defenders_score`` option is off.
    """
    assert state.bidder is not None and state.contract is not None
    team = team_of(state.bidder)
    return contract_points(state.contract, team, state.tricks[team], options.defenders_score)


def contract_points(contract: BidValue, team: int, won: int,
                    defenders_score: bool) -> tuple[int, int]:
    """Points per team when ``team`` played ``contract`` and took ``won`` tricks (HP-9, HP-11)."""
    need, stake = bid_tricks(contract), bid_stake(contract)
    bidders = won * stake if won >= need else -need * stake
    defenders = TRICKS_PER_DEAL - won if defenders_score else 0
    return (bidders, defenders) if team == 0 else (defenders, bidders)


def match_winner(options: Options, scores: tuple[int, int], bidding_team: int) -> int | None:
    """The winning team once a deal has been scored, or None to play on (HP-10).

    If both teams reach the target in the same deal the bidders win (HP-10 DECISION), or with
    ``both_reach_target = higher_total`` the higher total wins and the bidders win on equality.
    """
    reached = [team for team in (0, 1) if scores[team] >= options.target]
    if not reached:
        return None
    if len(reached) == 1:
        return reached[0]
    if options.both_reach_target == "higher_total" and scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    return bidding_team


def score_deal(state: HasenpfefferState) -> Transition[HasenpfefferState]:
    """Score the six tricks just completed and either finish the match or await the next deal."""
    assert state.bidder is not None and state.contract is not None
    points = deal_points(state.options, state)
    scores = (state.scores[0] + points[0], state.scores[1] + points[1])
    team = team_of(state.bidder)
    winner = match_winner(state.options, scores, team)
    detail: JSON = {
        "contract": state.contract, "bidder": state.bidder, "team": team, "trump": state.trump,
        "tricks": list(state.tricks), "forced": state.forced, "thrown_in": False,
        "discard": None if state.discard is None else str(state.discard),
        "made": state.tricks[team] >= bid_tricks(state.contract),
    }
    events: list[Event] = [{"type": "deal_end", "number": state.deal_number,
                           "points": list(points), "detail": detail}]
    if winner is None:
        after = evolve(state, phase=NEEDS_DEAL, scores=scores,
                        dealer=(state.dealer + 1) % SEATS)
    else:
        after = evolve(state, phase=FINISHED, scores=scores, winner=winner)
        events.append({"type": "match_end", "winners": [winner], "totals": list(scores)})
    return Transition(after, tuple(events))


def throw_in(state: HasenpfefferState,
             events: tuple[Event, ...]) -> Transition[HasenpfefferState]:
    """All four passed and the Joker is the widow: no score, the deal passes left (HP-6)."""
    end: Event = {
        "type": "deal_end", "number": state.deal_number, "points": [0, 0],
        "detail": {"contract": None, "bidder": None, "team": None, "trump": None,
                   "tricks": [0, 0], "forced": False, "thrown_in": True, "discard": None,
                   "made": None},
    }
    after = evolve(state, phase=NEEDS_DEAL, speaker=None,
                    hands=((),) * SEATS, dealer=(state.dealer + 1) % SEATS)
    return Transition(after, events + (end,))
