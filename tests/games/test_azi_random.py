"""Whole seeded Azi sessions: chips and cards conserved after every step, a ledger of chip
events that matches the stacks, no leak in any view, legal actions until the end, and replay
determinism."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from app.games.azi import ENGINE, AziAction, AziState, Phase, concrete_action
from app.games.base import JSON, Rejection, Seating
from app.games.cards import Card, azi_deck
from app.games.driver import AutoStepDue, MatchOver, NextStep, RecordedMatch, SeatsToAct
from app.games.replay import replay

TINY_STACKS = (0, 1, 5, 9, 10, 11, 15, 20, 35)
STACKS = (60, 100, 250, 400, 1000)
MAX_GAMES = 20
DECK_TEXTS = {str(card) for card in azi_deck()}


@dataclass
class Log:
    """What a session did: the match through the driver with its log, for replay, and what the
    checks across steps keep."""

    match: RecordedMatch[AziState, AziAction]
    ledger: list[int] = field(default_factory=list)
    game_points: list[int] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)


Chooser = Callable[[AziState, int, random.Random], AziAction]


def kind_first(state: AziState, seat: int, rng: random.Random) -> AziAction:
    """A livelier random player than the uniform one: an entry first, then a small amount."""
    entry = rng.choice(ENGINE.legal_actions(state, seat))
    if "min" in entry:
        span = entry["max"] - entry["min"]
        return concrete_action(entry, rng.choice([0, 0, rng.randint(0, min(span, 30)), span]))
    return concrete_action(entry)


def uniform(state: AziState, seat: int, rng: random.Random) -> AziAction:
    return ENGINE.random_action(state, seat, rng)


def new_session(rng: random.Random, seats: int, hand_size: int) -> Log:
    stacks = [rng.choice(TINY_STACKS if rng.random() < 0.25 else STACKS) for _ in range(seats)]
    while sum(stack >= 10 for stack in stacks) < 2:
        stacks[rng.randrange(seats)] = rng.choice(STACKS)
    options: JSON = {"hand_size": hand_size,
                     "raise_cap": rng.choice(["per_player", "total"]),
                     "azi_buy_in": rng.choice(["half_pot", "half_pot", "none"]),
                     "folded_excess": rng.choice(["returned", "to_pot"]),
                     "bet_limit": rng.choice(["none", "pot"]),
                     "min_raise": rng.choice([None, 1, 10, 25])}
    seating = Seating(seats, rng.randrange(seats), tuple(stacks))
    return Log(RecordedMatch.start(ENGINE, options, seating), ledger=list(stacks),
               game_points=[0] * seats)


def check_step(before: AziState, events: tuple[JSON, ...], log: Log) -> None:
    """Conservation of chips and of the chip ledger, deal_end points that add up to each game's
    net result."""
    state = log.match.state
    for event in events:
        log.seen[event["type"]] += 1
        if event["type"] == "chips":
            assert event["delta"] != 0 and type(event["delta"]) is int
            log.ledger[event["seat"]] += event["delta"]
            log.seen["chips:" + event["reason"]] += 1
        if event["type"] == "deal_end":
            assert event["number"] == state.deal_number
            log.game_points = [a + b for a, b in zip(log.game_points, event["points"], strict=True)]
        if event["type"] == "game_end":
            assert log.game_points == event["net"] and sum(event["net"]) == 0
            log.game_points = [0] * state.seats
    assert list(state.stacks) == log.ledger
    assert sum(state.stacks) + state.pot == sum(log.match.seating.stacks or ())
    assert all(stack >= 0 for stack in state.stacks) and state.pot >= 0
    assert state.pot == sum(before.stacks) + before.pot - sum(state.stacks)


def check_cards(state: AziState) -> None:
    if state.phase not in (Phase.DISCARD, Phase.BETTING, Phase.PLAY):
        return
    cards = [card for hand in state.hands for card in hand]
    cards += [card for card in state.discards if card is not None]
    cards += list(state.undealt) + [card for _, card in state.played]
    assert sorted(cards) == sorted(azi_deck())


def card_strings(value: object) -> set[str]:
    """Every string inside a JSON value that names a card of the Azi pack."""
    if isinstance(value, str):
        return {value} if value in DECK_TEXTS else set()
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*(card_strings(item) for item in value))
    return set()


def check_views(state: AziState) -> None:
    """No view shows a card hidden from its seat; a spectator sees or is denied every card."""
    for seat in [None, *range(state.seats)]:
        shown = card_strings(json.loads(json.dumps(ENGINE.view(state, seat))))
        hidden = {str(card) for card in ENGINE.hidden_cards(state, seat)}
        assert not shown & hidden, (seat, state.phase, shown & hidden)
        if seat is None:
            assert shown | hidden == DECK_TEXTS
        else:
            assert {str(card) for card in state.hands[seat]} <= shown


def check_turns(state: AziState, rng: random.Random) -> tuple[int, ...]:
    """Legal actions exist for every seat awaited; the other seats are refused."""
    waiting = ENGINE.to_act(state)
    assert waiting, state.phase
    for seat in range(state.seats):
        legal = ENGINE.legal_actions(state, seat)
        assert bool(legal) == (seat in waiting), (seat, state.phase, legal)
    idle = [seat for seat in range(state.seats) if seat not in waiting]
    if idle:
        seat = rng.choice(idle)
        with pytest.raises(Rejection):
            ENGINE.apply(state, seat, ENGINE.random_action(state, waiting[0], rng))
    return waiting


def step_once(match: RecordedMatch[AziState, AziAction], due: NextStep, rng: random.Random,
              chooser: Chooser) -> tuple[JSON, ...]:
    """What is due, a seat leaving now and then instead of a forced step; the seat to act chosen
    at random among those awaited."""
    state = match.state
    if isinstance(due, AutoStepDue):
        leaver = rng.randrange(state.seats * 6)
        if leaver < state.seats and not state.left[leaver]:
            return match.act(leaver, ENGINE.parse_action({"kind": "leave"}))
    if isinstance(due, SeatsToAct):
        assert due.seats == check_turns(state, rng)

    def deck() -> list[Card]:
        cards = list(azi_deck())
        rng.shuffle(cards)
        return cards

    def choose(state: AziState, seat: int) -> AziAction:
        action = chooser(state, seat, rng)
        raw = ENGINE.action_to_json(action)
        assert any(_matches(raw, entry) for entry in ENGINE.legal_actions(state, seat))
        return ENGINE.parse_action(raw)

    return match.perform(due, deck, choose, pick=rng.choice)


def close(match: RecordedMatch[AziState, AziAction]) -> tuple[JSON, ...]:
    transition = ENGINE.close(match.state)
    match.state = transition.state
    match.steps.append((None, {"kind": "close"}))
    return transition.events


def _matches(raw: JSON, entry: JSON) -> bool:
    if raw["kind"] != entry["kind"]:
        return False
    if "min" in entry:
        value = raw.get("amount", raw.get("to"))
        return bool(entry["min"] <= value <= entry["max"])
    return all(raw[key] == entry[key] for key in raw)


def play_session(seed: int, seats: int, hand_size: int, chooser: Chooser,
                 views: bool) -> tuple[AziState, Log]:
    rng = random.Random(seed)
    log = new_session(rng, seats, hand_size)
    match = log.match
    while not isinstance(due := match.next(), MatchOver):
        before = match.state
        if before.is_between_games and before.game_number >= MAX_GAMES:
            events = close(match)
        else:
            events = step_once(match, due, rng, chooser)
        check_step(before, events, log)
        check_cards(match.state)
        if views:
            check_views(match.state)
    state, outcome = match.state, due.outcome
    assert outcome is not None and sum(outcome.totals) == 0
    assert list(outcome.totals) == [now - first for now, first
                                    in zip(state.stacks, match.seating.stacks or (), strict=True)]
    return state, log


SESSIONS = [(seed, 2 + seed % 5, 3 + (seed // 5) % 2) for seed in range(80)]


@pytest.mark.parametrize(("seed", "seats", "hand_size"), SESSIONS)
def test_random_session_conserves_chips_and_cards(seed: int, seats: int, hand_size: int) -> None:
    """Both random players, 2..6 seats, both hand sizes, random stacks including tiny ones."""
    play_session(seed, seats, hand_size, kind_first, views=seed % 3 == 0)
    play_session(seed + 1000, seats, hand_size, uniform, views=False)


def test_random_sessions_reach_every_part_of_the_rules() -> None:
    """The sessions above are not trivial: folds, all-ins, Azi deals, buy-ins, refunds,
    sit-outs, leaving and both ways a session ends all occur."""
    seen: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for seed, seats, hand_size in SESSIONS:
        state, log = play_session(seed, seats, hand_size, kind_first, views=False)
        seen += log.seen
        ends[state.end_reason or ""] += 1
    for kind in ("azi", "buy_in", "decline", "fold", "no_betting", "leave", "discard",
                 "chips:refund", "chips:raise", "chips:buy_in", "button"):
        assert seen[kind] > 0, kind
    assert ends["players"] > 0 and ends["closed"] > 0


@pytest.mark.parametrize("seed", [3, 7, 11, 19])
def test_replay_gives_the_same_state(seed: int) -> None:
    """The session is a function of (options, seating, decks, actions) (STYLE: the log is the
    truth)."""
    state, log = play_session(seed, 2 + seed % 5, 3 + seed % 2, kind_first, views=False)
    match = log.match
    steps = [(seat, action) for seat, action in match.steps if action.get("kind") != "close"]
    replayed = replay(ENGINE, match.options, match.seating, match.decks, steps)
    if state.end_reason == "closed":
        replayed = ENGINE.close(replayed).state
    assert replayed == state
    again, _ = play_session(seed, 2 + seed % 5, 3 + seed % 2, kind_first, views=False)
    assert again == state


def test_random_action_is_uniform_over_concrete_actions() -> None:
    """random_action weighs every amount of a range as one action."""
    state = ENGINE.deal(ENGINE.start({}, Seating(2, 0, (1000, 30))), list(azi_deck())).state
    state = ENGINE.apply(state, 1, ENGINE.parse_action({"kind": "bet", "amount": 10})).state
    rng = random.Random(5)
    kinds = Counter(ENGINE.random_action(state, 0, rng).kind for _ in range(3000))
    legal = ENGINE.legal_actions(state, 0)
    raise_entry = next(entry for entry in legal if entry["kind"] == "raise")
    share = (raise_entry["max"] - raise_entry["min"] + 1) / (raise_entry["max"] - raise_entry["min"] + 3)
    assert abs(kinds["raise"] / 3000 - share) < 0.02
    assert kinds["fold"] > 0 and kinds["call"] > 0
