"""One conformance suite for every engine in the registry, each played through the match driver with
its default options and with several other combinations of them: seeded random matches in which

- legal actions exist until the end, for exactly the seats whose turn it is;
- ``apply`` refuses malformed actions and actions of seats that may not act, and a refused act
  changes neither the match nor its log;
- every card is accounted for: what a spectator sees and what is hidden from him make the whole
  pack, and nothing is both;
- no view shows a card that its seat may not know;
- replaying the log (options, seating, decks, actions) gives the same state;
- the deal scores add up to the final totals.

Every match has its own seed; a failure names it, and :func:`play_match` with it plays the same
match again.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from support import card_strings

from app.games.base import JSON, Engine, InvalidAction, Rejection, Seating
from app.games.cards import Card
from app.games.driver import MatchOver, RecordedMatch, SeatsToAct
from app.games.registry import ENGINES
from app.games.replay import replay

MALFORMED: list[Any] = [None, "up", 7, [], {}, {"kind": "no-such-action"}, {"kind": 3}]
# Deals per game and options in one test run (a match ends early when its engine says so): the
# defaults get the most.
DEALS = {"hazari": 2000, "azi": 2000, "hasenpfeffer": 2000}
OTHER_OPTIONS_DEALS = 500
DEAL_POINT_SUM = {"hazari": 360}
SEAT_COUNTS = {"azi": (2, 3, 4, 5, 6)}
OTHER_OPTIONS: dict[str, list[JSON]] = {
    "hazari": [{"tie_rule": "first_wins"},
               {"match_tie": "play_on", "target": 400},
               {"target": 5, "tie_rule": "first_wins", "match_tie": "play_on"}],
    "azi": [{"stake": 25, "min_raise": 5, "max_bids": 1},
            {"hand_size": 4, "raise_cap": "total", "max_bids": 6, "azi_buy_in": "none"},
            {"bet_limit": "pot", "folded_excess": "to_pot", "stake": 1, "min_bet": 40},
            {"stake": 100, "min_raise": 1, "bet_limit": "pot", "hand_size": 4, "max_bids": 20}],
    "hasenpfeffer": [{"bidding": "pepper"},
                     {"first_lead": "bidder", "defenders_score": False, "target": 3},
                     {"bidding": "pepper", "both_reach_target": "higher_total", "target": 25,
                      "first_lead": "bidder"}],
}
CASES = [(game, options) for game in sorted(ENGINES)
         for options in [{}, *OTHER_OPTIONS[game]]]


def case_name(game: str, options: JSON) -> str:
    return f"{game}-" + (",".join(f"{name}={value}" for name, value in options.items()) or "defaults")


def seating_for(engine: Engine[Any, Any], rng: random.Random) -> Seating:
    players = rng.choice(SEAT_COUNTS.get(engine.name, (engine.min_seats,)))
    stacks = tuple(rng.choice((5, 30, 100, 400, 1000)) for _ in range(players))
    return Seating(players=players, first_dealer=rng.randrange(players),
                   stacks=stacks if engine.name == "azi" else None)


def check_views(match: RecordedMatch[Any, Any]) -> None:
    engine, state = match.engine, match.state
    full = set(engine.full_deck())
    spectator_hidden = engine.hidden_cards(state, None)
    spectator_sees = {Card.parse(text) for text in card_strings(engine.view(state, None))}
    assert not spectator_sees & spectator_hidden, "a spectator sees a hidden card"
    assert spectator_sees | spectator_hidden == full, "cards are missing or made up"
    for seat in range(match.seating.players):
        seen = set(card_strings(engine.view(state, seat)))
        leaked = seen & {str(card) for card in engine.hidden_cards(state, seat)}
        assert not leaked, f"seat {seat} sees {leaked}"


def check_refusals(match: RecordedMatch[Any, Any], acting: tuple[int, ...], rng: random.Random) -> None:
    engine, state, logged = match.engine, match.state, len(match.steps)
    for raw in MALFORMED:
        with pytest.raises(InvalidAction):
            engine.parse_action(raw)
    idle = [seat for seat in range(match.seating.players)
            if seat not in acting and not engine.legal_actions(state, seat)]
    if idle:
        action = engine.random_action(state, rng.choice(acting), rng)
        with pytest.raises(Rejection):
            match.act(rng.choice(idle), action)
        assert match.state is state and len(match.steps) == logged, "a refused act changed the match"


def random_checked_action(engine: Engine[Any, Any], rng: random.Random) -> Any:
    """A chooser of uniformly random legal actions that checks each prints and parses back."""

    def choose(state: Any, seat: int) -> Any:
        action = engine.random_action(state, seat, rng)
        assert engine.parse_action(engine.action_to_json(action)) == action, (
            "actions print and parse back the same")
        return action

    return choose


def play_match(engine: Engine[Any, Any], options: JSON, rng: random.Random,
               max_deals: int) -> tuple[RecordedMatch[Any, Any], list[list[int]]]:
    """A random match and the points of each of its deals."""
    match = RecordedMatch.start(engine, options, seating_for(engine, rng))
    full = engine.full_deck()

    def decks() -> tuple[Card, ...]:
        return tuple(rng.sample(full, len(full)))

    choose = random_checked_action(engine, rng)
    deal_points: list[list[int]] = []
    while not isinstance(due := match.next(), MatchOver) and len(match.decks) <= max_deals:
        if isinstance(due, SeatsToAct):
            for seat in due.seats:
                assert engine.legal_actions(match.state, seat), (
                    f"seat {seat} must act but has no legal action")
            if rng.random() < 0.05:
                check_refusals(match, due.seats, rng)
        events = match.perform(due, decks, choose, pick=rng.choice)
        deal_points += [list(e["points"]) for e in events if e["type"] == "deal_end"]
        if rng.random() < 0.1:
            check_views(match)
    return match, deal_points


def check_scores(match: RecordedMatch[Any, Any], deal_points: list[list[int]]) -> None:
    expected = DEAL_POINT_SUM.get(match.engine.name)
    if expected is not None:
        assert all(sum(points) == expected for points in deal_points)
    outcome = match.engine.outcome(match.state)
    if outcome is not None and deal_points:
        totals = [sum(column) for column in zip(*deal_points, strict=True)]
        assert list(outcome.totals) == totals


def check_match(engine: Engine[Any, Any], options: JSON, seed: str) -> int:
    """Play the match of ``seed`` and check it; the number of deals it dealt."""
    match, deal_points = play_match(engine, options, random.Random(seed), max_deals=60)
    check_views(match)
    check_scores(match, deal_points)
    replayed = replay(engine, match.options, match.seating, match.decks, match.steps)
    assert replayed == match.state, "replaying the log gives another state"
    return len(match.decks)


@pytest.mark.parametrize(("game", "options"), CASES,
                         ids=[case_name(game, options) for game, options in CASES])
def test_random_matches_keep_every_invariant(game: str, options: JSON) -> None:
    engine = ENGINES[game]
    budget = DEALS[game] if not options else OTHER_OPTIONS_DEALS
    deals = 0
    for number in itertools.count():
        if deals >= budget:
            break
        seed = f"conformance-{case_name(game, options)}-{number}"
        try:
            deals += check_match(engine, options, seed)
        except BaseException as failure:
            failure.add_note(f"match seed {seed!r}: play_match(ENGINES[{game!r}], {options!r}, "
                             f"random.Random({seed!r}), max_deals=60) plays it again")
            raise
