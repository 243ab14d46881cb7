"""One conformance suite for every engine in the registry: seeded random matches in which

- legal actions exist until the end, for exactly the seats whose turn it is;
- ``apply`` refuses malformed actions and actions of seats that may not act;
- every card is accounted for: what a spectator sees and what is hidden from him make the whole
  pack, and nothing is both;
- no view shows a card that its seat may not know;
- replaying the log (options, seating, decks, actions) gives the same state;
- the deal scores add up to the final totals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from support import card_strings

from app.games.base import JSON, Engine, InvalidAction, Rejection, Seating
from app.games.cards import Card
from app.games.registry import ENGINES
from app.games.replay import replay

MALFORMED: list[Any] = [None, "up", 7, [], {}, {"kind": "no-such-action"}, {"kind": 3}]
# Deals per game in one test run (a match ends early when its engine says so).
DEALS = {"hazari": 2000, "azi": 2000, "hasenpfeffer": 2000}
DEAL_POINT_SUM = {"hazari": 360}
SEAT_COUNTS = {"azi": (2, 3, 4, 5, 6)}


@dataclass
class Run:
    engine: Engine[Any, Any]
    options: dict[str, Any]
    seating: Seating
    state: Any
    decks: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    steps: list[tuple[int | None, JSON]] = field(default_factory=list)
    deal_points: list[list[int]] = field(default_factory=list)


def seating_for(engine: Engine[Any, Any], rng: random.Random) -> Seating:
    players = rng.choice(SEAT_COUNTS.get(engine.name, (engine.min_seats,)))
    stacks = tuple(rng.choice((5, 30, 100, 400, 1000)) for _ in range(players))
    return Seating(players=players, first_dealer=rng.randrange(players),
                   stacks=stacks if engine.name == "azi" else None)


def check_views(run: Run) -> None:
    engine, state = run.engine, run.state
    full = set(engine.full_deck())
    spectator_hidden = engine.hidden_cards(state, None)
    spectator_sees = {Card.parse(text) for text in card_strings(engine.view(state, None))}
    assert not spectator_sees & spectator_hidden, "a spectator sees a hidden card"
    assert spectator_sees | spectator_hidden == full, "cards are missing or made up"
    for seat in range(run.seating.players):
        seen = set(card_strings(engine.view(state, seat)))
        leaked = seen & {str(card) for card in engine.hidden_cards(state, seat)}
        assert not leaked, f"seat {seat} sees {leaked}"


def check_refusals(run: Run, acting: tuple[int, ...], rng: random.Random) -> None:
    engine, state = run.engine, run.state
    for raw in MALFORMED:
        with pytest.raises(InvalidAction):
            engine.parse_action(raw)
    idle = [seat for seat in range(run.seating.players)
            if seat not in acting and not engine.legal_actions(state, seat)]
    if idle:
        action = engine.random_action(state, rng.choice(acting), rng)
        with pytest.raises(Rejection):
            engine.apply(state, rng.choice(idle), action)


def step(run: Run, rng: random.Random) -> None:
    engine = run.engine
    if engine.needs_deck(run.state):
        number = len(run.decks) + 1
        run.decks[number] = tuple(rng.sample(engine.full_deck(), len(engine.full_deck())))
        run.steps.append((None, {"kind": "deal", "deal": number}))
        transition = engine.deal(run.state, run.decks[number])
    elif engine.has_auto_step(run.state):
        run.steps.append((None, {"kind": "auto"}))
        transition = engine.auto_step(run.state)
    else:
        acting = engine.to_act(run.state)
        assert acting, "nobody may act, yet the match is not over"
        for seat in acting:
            assert engine.legal_actions(run.state, seat), f"seat {seat} must act but has no legal action"
        if rng.random() < 0.05:
            check_refusals(run, acting, rng)
        seat = rng.choice(acting)
        action = engine.random_action(run.state, seat, rng)
        as_json = engine.action_to_json(action)
        assert engine.parse_action(as_json) == action, "actions print and parse back the same"
        run.steps.append((seat, as_json))
        transition = engine.apply(run.state, seat, action)
    run.state = transition.state
    run.deal_points += [list(e["points"]) for e in transition.events if e["type"] == "deal_end"]


def play_match(engine: Engine[Any, Any], rng: random.Random, max_deals: int) -> Run:
    seating = seating_for(engine, rng)
    options = engine.make_options({})
    run = Run(engine, options, seating, engine.start(options, seating))
    while engine.outcome(run.state) is None and len(run.decks) <= max_deals:
        step(run, rng)
        if rng.random() < 0.1:
            check_views(run)
    return run


def check_scores(run: Run) -> None:
    expected = DEAL_POINT_SUM.get(run.engine.name)
    if expected is not None:
        assert all(sum(points) == expected for points in run.deal_points)
    outcome = run.engine.outcome(run.state)
    if outcome is not None and run.deal_points:
        totals = [sum(column) for column in zip(*run.deal_points, strict=True)]
        assert list(outcome.totals) == totals


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_random_matches_keep_every_invariant(game: str) -> None:
    engine = ENGINES[game]
    rng = random.Random(f"conformance-{game}")
    deals = 0
    while deals < DEALS[game]:
        run = play_match(engine, rng, max_deals=60)
        check_views(run)
        check_scores(run)
        replayed = replay(engine, run.options, run.seating, run.decks, run.steps)
        assert replayed == run.state, "replaying the log gives another state"
        deals += len(run.decks)
