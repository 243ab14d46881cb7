"""The match driver (``app/games/driver.py``): what is due next in every phase of every game, a
refused act that changes nothing, whole deals and whole matches played through it, and the log it
keeps replaying to the same state."""

from __future__ import annotations

import random
from typing import Any

import pytest
from support.engines import plays, stacked_deck

from app.games.azi import ENGINE as AZI
from app.games.base import JSON, Engine, IllegalAction, Rejection, Seating
from app.games.driver import (
    AutoStepDue,
    DealNeeded,
    Match,
    MatchOver,
    NextStep,
    RecordedMatch,
    SeatsToAct,
    choices_from_views,
    next_step,
    random_choices,
    shuffled_decks,
)
from app.games.hasenpfeffer import ENGINE as HASENPFEFFER
from app.games.hazari import ENGINE as HAZARI
from app.games.registry import ENGINES
from app.games.replay import replay

# The answer due in each phase a view names.
DUE_IN_PHASE: dict[str, dict[str, type[NextStep]]] = {
    "hazari": {"dealing": DealNeeded, "arranging": SeatsToAct, "showing": AutoStepDue,
               "finished": MatchOver},
    "azi": {"needs_deal": DealNeeded, "discard": SeatsToAct, "betting": SeatsToAct,
            "play": SeatsToAct, "game_over": AutoStepDue, "match_over": MatchOver},
    "hasenpfeffer": {"needs_deal": DealNeeded, "bidding": SeatsToAct, "trump": SeatsToAct,
                     "discard": SeatsToAct, "play": SeatsToAct, "finished": MatchOver},
}
# Short matches, so that each reaches its end: a low target, or small stacks.
SHORT: dict[str, tuple[JSON, Seating]] = {
    "hazari": ({"target": 400}, Seating(4, 1)),
    "azi": ({"hand_size": 4}, Seating(3, 2, (40, 60, 30))),
    "hasenpfeffer": ({"target": 2}, Seating(4, 3)),
}


def short_match(game: str, seed: int) -> tuple[Match[Any, Any], Any, Any]:
    engine: Engine[Any, Any] = ENGINES[game]
    options, seating = SHORT[game]
    rng = random.Random(seed)
    return Match.start(engine, options, seating), shuffled_decks(engine, rng), random_choices(engine, rng)


def agrees_with_the_engine(engine: Engine[Any, Any], state: Any, due: NextStep) -> bool:
    if isinstance(due, MatchOver):
        return due.outcome == engine.outcome(state)
    if isinstance(due, DealNeeded):
        return engine.needs_deck(state) and engine.outcome(state) is None
    if isinstance(due, AutoStepDue):
        return engine.has_auto_step(state) and not engine.needs_deck(state)
    return (due.seats == engine.to_act(state) and not engine.has_auto_step(state)
            and not engine.needs_deck(state))


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_next_step_answers_for_every_phase(game: str) -> None:
    seen: set[str] = set()
    for seed in range(6):
        match, decks, choose = short_match(game, seed)
        while True:
            due = match.next()
            phase = match.engine.view(match.state, None)["phase"]
            assert isinstance(due, DUE_IN_PHASE[game][phase]), (seed, phase, due)
            assert agrees_with_the_engine(match.engine, match.state, due)
            assert due == next_step(match.engine, match.state)
            seen.add(phase)
            if isinstance(due, MatchOver):
                break
            match.perform(due, decks, choose)
    assert seen == set(DUE_IN_PHASE[game])


def test_hazari_seats_arrange_at_once_and_the_rounds_are_shown_by_forced_steps() -> None:
    match, decks, choose = short_match("hazari", 0)
    assert match.next() == DealNeeded()
    match.step(decks, choose)
    assert match.next() == SeatsToAct((0, 1, 2, 3))
    match.step(decks, choose, pick=lambda seats: seats[-1])
    assert match.next() == SeatsToAct((0, 1, 2))
    for _ in range(3):
        match.step(decks, choose)
    assert match.next() == AutoStepDue()
    events = match.play_forced()
    assert [event["type"] for event in events] == ["round"] * 3 + ["round", "deal_end"]
    assert match.next() == DealNeeded() and match.play_forced() == []


def test_an_azi_buy_in_awaits_the_seat_offered() -> None:
    """AZ-9/AZ-13: three players take a trick each; the pot is carried and seat 4 is offered the
    buy-in first (the position of ``test_azi_engine``)."""
    match = Match.start(AZI, {}, Seating(6, 0, (1000,) * 5 + (5,)))
    hands = {1: "AS 9H KS", 2: "7S AH 10H", 3: "8S 7H JH", 4: "6D 8D 9D", 0: "10D JD 7D"}
    match.deal(stacked_deck(match.state, hands))
    moves: list[tuple[int, JSON]] = [
        (1, {"kind": "bet", "amount": 10}), (2, {"kind": "call"}), (3, {"kind": "call"}),
        (4, {"kind": "fold"}), (0, {"kind": "fold"})]
    moves += plays("1:AS", "2:7S", "3:8S", "1:9H", "2:AH", "3:7H", "2:10H", "3:JH", "1:KS")
    for seat, raw in moves:
        assert isinstance(due := match.next(), SeatsToAct) and due.seats == (seat,)
        match.act(seat, AZI.parse_action(raw))
    assert AZI.view(match.state, None)["phase"] == "azi_buy_in"
    assert match.next() == SeatsToAct((4,))
    match.act(4, AZI.parse_action({"kind": "decline"}))
    assert match.next() == SeatsToAct((0,))


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_refused_act_changes_nothing(game: str) -> None:
    engine: Engine[Any, Any] = ENGINES[game]
    options, seating = SHORT[game]
    match = RecordedMatch.start(engine, options, seating)
    rng = random.Random(4)
    decks, choose = shuffled_decks(engine, rng), random_choices(engine, rng)
    match.step(decks, choose)
    due = match.next()
    while isinstance(due, SeatsToAct) and len(due.seats) == seating.players:
        match.step(decks, choose)  # seats that decide at once: until one of them has decided
        due = match.next()
    assert isinstance(due, SeatsToAct)
    before, logged = match.state, list(match.steps)
    action = engine.random_action(match.state, due.seats[0], rng)
    idle = next(seat for seat in range(seating.players) if seat not in due.seats)
    with pytest.raises(Rejection):
        match.act(idle, action)
    with pytest.raises(Rejection):
        match.deal(tuple(engine.full_deck()))
    with pytest.raises(Rejection):
        match.auto_step()
    assert match.state is before and match.steps == logged and match.next() == due


@pytest.mark.parametrize(("engine", "seating", "raw"), [
    (HAZARI, Seating(4, 0), {"kind": "up", "groups": [["2C", "3C", "4C"], ["5C", "6C", "7C"],
                                                      ["8C", "9C", "10C"], ["JC", "QC", "KC", "AC"]]}),
    (HASENPFEFFER, Seating(4, 0), {"kind": "play", "card": "AS"}),
    (AZI, Seating(3, 0, (100,) * 3), {"kind": "play", "card": "AS"}),
])
def test_an_illegal_action_of_the_seat_to_act_changes_nothing(
        engine: Engine[Any, Any], seating: Seating, raw: JSON) -> None:
    match = RecordedMatch.start(engine, {}, seating)
    match.deal(tuple(engine.full_deck()))
    due, before = match.next(), match.state
    assert isinstance(due, SeatsToAct)
    with pytest.raises(IllegalAction):
        match.act(due.seats[0], engine.parse_action(raw))
    assert match.state is before and len(match.steps) == 1 and match.next() == due


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_play_out_reaches_the_outcome(game: str) -> None:
    match, decks, choose = short_match(game, 1)
    outcome = match.play_out(decks, choose)
    assert outcome == match.engine.outcome(match.state) and match.next() == MatchOver(outcome)
    with pytest.raises(RuntimeError, match="over"):
        match.step(decks, choose)
    assert match.play_deal(decks, choose) == [] and match.play_out(decks, choose) == outcome


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_play_deal_stops_at_the_end_of_a_deal(game: str) -> None:
    """Deal by deal, the same match as one played step by step until a step scores a deal."""
    by_deal, decks, choose = short_match(game, 2)
    by_step, step_decks, step_choose = short_match(game, 2)
    numbers: list[int] = []
    while not isinstance(by_deal.next(), MatchOver):
        events = by_deal.play_deal(decks, choose)
        ends = [event for event in events if event["type"] == "deal_end"]
        assert len(ends) == 1, [event["type"] for event in events]
        numbers.append(ends[0]["number"])
        stepped: list[JSON] = []
        while not any(event["type"] == "deal_end" for event in stepped):
            stepped = list(by_step.step(step_decks, step_choose))
        assert by_deal.state == by_step.state
    assert numbers == list(range(1, len(numbers) + 1))


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_recorded_log_replays_to_the_same_state(game: str) -> None:
    engine: Engine[Any, Any] = ENGINES[game]
    options, seating = SHORT[game]
    rng = random.Random(3)
    match = RecordedMatch.start(engine, options, seating)
    match.play_out(shuffled_decks(engine, rng), random_choices(engine, rng), pick=rng.choice)
    assert match.options == engine.make_options(options)
    deals = [action for seat, action in match.steps if seat is None and action["kind"] == "deal"]
    assert [deal["deal"] for deal in deals] == sorted(match.decks) == list(range(1, len(deals) + 1))
    assert replay(engine, match.options, match.seating, match.decks, match.steps) == match.state


def test_a_chooser_from_views_sees_the_seat_view_and_legal_actions() -> None:
    engine = HASENPFEFFER
    asked: list[tuple[int, JSON, list[JSON]]] = []

    def decide(seat: int, view: JSON, legal: list[JSON]) -> JSON:
        asked.append((seat, view, legal))
        return legal[-1]

    match = Match.start(engine, {}, Seating(4, 0))
    rng = random.Random(5)
    decks = shuffled_decks(engine, rng)
    match.step(decks, choices_from_views(engine, decide))
    state = match.state
    match.step(decks, choices_from_views(engine, decide))
    assert asked == [(1, engine.view(state, 1), engine.legal_actions(state, 1))]
    assert engine.view(match.state, None)["auction"] == [{"seat": 1, "call": "pass"}]


def test_shuffled_decks_are_seeded_orderings_of_the_full_deck() -> None:
    first, second = shuffled_decks(AZI, random.Random(8)), shuffled_decks(AZI, random.Random(8))
    decks = [first() for _ in range(3)]
    assert decks == [second() for _ in range(3)]
    assert all(sorted(deck) == sorted(AZI.full_deck()) for deck in decks)
    assert len(set(decks)) == 3
