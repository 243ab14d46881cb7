"""Whole seeded Hasenpfeffer matches in both bidding forms: legal actions for exactly the seats to
act, everything else refused with its exact class, the 25 cards conserved, no view leaking a
hidden card, deal points adding up to the totals, and replay determinism."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from app.games.base import JSON, Engine, IllegalAction, NotYourTurn, Seating
from app.games.cards import hasenpfeffer_deck
from app.games.driver import (
    DealNeeded,
    Decks,
    MatchOver,
    NextStep,
    PickSeat,
    RecordedMatch,
    SeatsToAct,
    first_seat,
)
from app.games.hasenpfeffer import ENGINE, HasenpfefferAction, HasenpfefferState, Phase
from app.games.replay import replay

FULL = hasenpfeffer_deck()
FULL_TEXTS = {str(card) for card in FULL}
Policy = Callable[[HasenpfefferState, int, random.Random], HasenpfefferAction]


def uniform(state: HasenpfefferState, seat: int, rng: random.Random) -> HasenpfefferAction:
    return ENGINE.random_action(state, seat, rng)


def cautious(state: HasenpfefferState, seat: int, rng: random.Random) -> HasenpfefferAction:
    """Random, but passing often and bidding low, so that matches reach the target: uniform
    bidders overbid, are set, and both totals sink below zero for ever."""
    legal = ENGINE.legal_actions(state, seat)
    if state.phase is Phase.BIDDING and len(legal) > 1:
        bids, roll = legal[:-1], rng.random()
        if roll < 0.03:
            return ENGINE.parse_action(rng.choice(bids))
        if roll < 0.5 and bids[0]["value"] in (1, 2, 3):
            return ENGINE.parse_action(bids[0])
        return ENGINE.parse_action({"kind": "pass"})
    return ENGINE.parse_action(rng.choice(legal))


def passive(state: HasenpfefferState, seat: int, rng: random.Random) -> HasenpfefferAction:
    """Like :func:`cautious`, passing three times in four: all four often pass (HP-6)."""
    if state.phase is Phase.BIDDING and rng.random() < 0.75:
        return ENGINE.parse_action({"kind": "pass"})
    return cautious(state, seat, rng)


class Match(RecordedMatch[HasenpfefferState, HasenpfefferAction]):
    """A match through the driver with its log and every event it caused."""

    def __init__(self, engine: Engine[HasenpfefferState, HasenpfefferAction],
                 state: HasenpfefferState, options: Mapping[str, Any], seating: Seating) -> None:
        super().__init__(engine, state, options, seating)
        self.events: list[JSON] = []

    def perform(self, due: NextStep, decks: Decks,
                choose: Callable[[HasenpfefferState, int], HasenpfefferAction],
                pick: PickSeat = first_seat) -> tuple[JSON, ...]:
        events = super().perform(due, decks, choose, pick)
        self.events.extend(events)
        return events


def card_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if value in FULL_TEXTS:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_strings(item)


def check_cards(state: HasenpfefferState) -> None:
    """Hands, widow (until taken), discard, the tricks played and the trick in progress hold the
    25 cards exactly once each."""
    if state.phase not in (Phase.BIDDING, Phase.TRUMP, Phase.DISCARD, Phase.PLAY):
        return
    held = [card for hand in state.hands for card in hand]
    held += list(state.played) + list(state.trick)
    if state.phase is Phase.BIDDING and state.widow is not None:
        held.append(state.widow)
    if state.phase is Phase.PLAY and state.discard is not None:
        held.append(state.discard)
    assert Counter(held) == Counter(FULL)
    sizes = sorted(len(hand) for hand in state.hands)
    if state.phase is Phase.BIDDING:
        assert sizes == [6, 6, 6, 6]
    elif state.phase in (Phase.TRUMP, Phase.DISCARD):
        assert sizes == [6, 6, 6, 7]


def check_views(state: HasenpfefferState) -> None:
    spectator = ENGINE.view(state, None)
    seen = set(card_strings(spectator))
    hidden = {str(card) for card in ENGINE.hidden_cards(state, None)}
    assert not seen & hidden and seen | hidden == FULL_TEXTS
    assert spectator["hand"] == []
    for seat in range(4):
        view = ENGINE.view(state, seat)
        leaked = set(card_strings(view)) & {str(c) for c in ENGINE.hidden_cards(state, seat)}
        assert not leaked, f"seat {seat} sees {leaked}"
        assert view["hand"] == [str(card) for card in state.hands[seat]]
        assert view["scores"] == list(state.scores) and view["to_act"] == list(
            ENGINE.to_act(state))
        if state.discard is not None:
            assert str(state.discard) not in set(card_strings(view)) - set(view["hand"])


def check_refusals(state: HasenpfefferState, seat: int) -> None:
    """Every seat but ``seat`` is refused as out of turn; ``seat`` is refused every card or bid
    outside its legal actions."""
    legal = ENGINE.legal_actions(state, seat)
    for other in range(4):
        if other != seat:
            assert ENGINE.legal_actions(state, other) == []
            with pytest.raises(NotYourTurn):
                ENGINE.apply(state, other, ENGINE.parse_action(legal[0]))
    candidates: list[JSON] = [{"kind": "bid", "value": value} for value in
                              (1, 2, 3, 4, 5, 6, "little_pepper", "big_pepper")]
    candidates += [{"kind": kind, "card": str(card)} for kind in ("play", "discard")
                   for card in state.hands[seat]]
    for raw in candidates:
        if raw not in legal:
            with pytest.raises(IllegalAction):
                ENGINE.apply(state, seat, ENGINE.parse_action(raw))


def step(match: Match, due: NextStep, rng: random.Random, policy: Policy) -> None:
    if isinstance(due, SeatsToAct):
        (seat,) = due.seats
        legal = ENGINE.legal_actions(match.state, seat)
        assert legal, f"seat {seat} must act but has no legal action"
        if rng.random() < 0.2:
            check_refusals(match.state, seat)

    def choose(state: HasenpfefferState, seat: int) -> HasenpfefferAction:
        action = policy(state, seat, rng)
        assert ENGINE.action_to_json(action) in ENGINE.legal_actions(state, seat)
        return action

    match.perform(due, lambda: tuple(rng.sample(FULL, len(FULL))), choose)
    check_cards(match.state)
    check_views(match.state)


def play(seed: int, options: dict[str, Any], policy: Policy, max_deals: int) -> Match:
    rng = random.Random(seed)
    match = Match.start(ENGINE, options, Seating(players=4, first_dealer=rng.randrange(4)))
    while not isinstance(due := match.next(), MatchOver) and (
            len(match.decks) < max_deals or not isinstance(due, DealNeeded)):
        step(match, due, rng, policy)
    return match


def check_scores(match: Match) -> None:
    ends = [event for event in match.events if event["type"] == "deal_end"]
    assert [end["number"] for end in ends] == list(range(1, len(ends) + 1))
    totals = [sum(end["points"][team] for end in ends) for team in (0, 1)]
    assert tuple(totals) == match.state.scores
    for end in ends:
        detail = end["detail"]
        if detail["thrown_in"]:
            assert end["points"] == [0, 0]
        else:
            assert sum(detail["tricks"]) == 6 and detail["discard"] in FULL_TEXTS


def check_outcome(match: Match) -> None:
    outcome = ENGINE.outcome(match.state)
    assert outcome is not None and outcome.teams == ((0, 2), (1, 3))
    (winner,) = outcome.winners
    target = match.options["target"]
    assert outcome.totals == match.state.scores and outcome.totals[winner] >= target
    last = [event for event in match.events if event["type"] == "deal_end"][-1]
    if min(outcome.totals) >= target and match.options["both_reach_target"] == "bidders_win":
        assert winner == last["detail"]["team"]


OPTION_SETS = [
    {}, {"bidding": "pepper"}, {"first_lead": "bidder", "both_reach_target": "higher_total"},
    {"bidding": "pepper", "defenders_score": False, "target": 15},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_whole_random_matches_to_the_target(options: dict[str, Any]) -> None:
    for seed in range(12):
        match = play(seed, options, cautious, max_deals=200)
        check_outcome(match)
        check_scores(match)
        assert replay(ENGINE, match.options, match.seating, match.decks, match.steps) == (
            match.state)


@pytest.mark.parametrize("bidding", ["standard", "pepper"])
def test_uniform_random_deals_keep_every_invariant(bidding: str) -> None:
    for seed in range(6):
        match = play(100 + seed, {"bidding": bidding}, uniform, max_deals=12)
        check_scores(match)
        assert replay(ENGINE, match.options, match.seating, match.decks, match.steps) == (
            match.state)


def test_the_same_seed_gives_the_same_match() -> None:
    first = play(7, {"bidding": "pepper"}, cautious, max_deals=200)
    second = play(7, {"bidding": "pepper"}, cautious, max_deals=200)
    assert first.steps == second.steps and first.events == second.events
    assert first.state == second.state


def test_random_matches_see_peppers_forced_bids_and_throw_ins() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(40):
        match = play(200 + seed, {"bidding": "pepper"}, (cautious, passive)[seed % 2],
                     max_deals=200)
        check_outcome(match)
        for event in match.events:
            if event["type"] == "deal_end":
                detail = event["detail"]
                kinds["thrown_in" if detail["thrown_in"] else "forced" if detail["forced"]
                      else str(detail["contract"])] += 1
    assert kinds["thrown_in"] and kinds["forced"] and kinds["big_pepper"]
    assert kinds["little_pepper"]


def test_random_action_is_uniform_over_the_legal_actions() -> None:
    rng = random.Random(3)
    state = ENGINE.deal(ENGINE.start({"bidding": "pepper"}, Seating(4, 0)), FULL).state
    seat = ENGINE.to_act(state)[0]
    legal = ENGINE.legal_actions(state, seat)
    draws = Counter(str(ENGINE.action_to_json(ENGINE.random_action(state, seat, rng)))
                    for _ in range(8000))
    assert set(draws) == {str(entry) for entry in legal}
    expected = 8000 / len(legal)
    assert all(abs(count - expected) < 0.15 * expected for count in draws.values())
