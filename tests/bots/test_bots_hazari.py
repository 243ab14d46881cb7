"""The Hazari bots: ``strong`` picks the best of every valid arrangement (checked against a brute
force over ``valid_splits``), ``greedy`` follows its rule, the hint, and the win-rate file."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pytest

from app.bots.hazari import (
    HazariGreedyBot,
    HazariStrongBot,
    greedy_arrangement,
    strong_arrangement,
    suggest_arrangement,
    view_position,
)
from app.bots.hazari_search import score_splits
from app.bots.hazari_tables import RoundValues, load_data, round_values
from app.games.base import Seating
from app.games.cards import Card, card_texts, parse_cards, standard_deck
from app.games.hazari import ENGINE
from app.games.hazari.arrangements import check_arrangement, split_groups, valid_splits
from app.games.hazari.combos import card_points, key_of

HANDS = 6


def hands(count: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    deck = list(standard_deck())
    result = []
    for _ in range(count):
        rng.shuffle(deck)
        result.append(tuple(deck[:13]))
    return result


def expected_points(groups: Sequence[Sequence[Card]], values: RoundValues) -> float:
    """The strong bot's objective for one arrangement, written plainly."""
    total = 0.0
    for number, group in enumerate(groups):
        key, points = key_of(group), sum(map(card_points, group))
        total += values.win[number][key] * points + values.taken[number][key]
    return total


@pytest.mark.parametrize("position", [None, 0, 3])
def test_strong_is_the_argmax_over_every_valid_split(position: int | None) -> None:
    values = round_values(position)
    for hand in hands(HANDS, seed=11 if position is None else position):
        scored = score_splits(hand, values)
        splits = valid_splits(hand)
        assert int(scored.valid.sum()) == len(splits)
        brute = max(expected_points(split_groups(hand, split), values) for split in splits)
        chosen = strong_arrangement(hand, position)
        check_arrangement(hand, chosen)
        assert expected_points(chosen, values) == pytest.approx(brute, abs=1e-9)
        assert float(scored.scores.max()) == pytest.approx(brute, abs=1e-9)


def test_strong_finds_the_only_valid_arrangements_of_a_tight_hand() -> None:
    """Four troys and a spare card: G4 must hold the weakest troy, and the strong bot keeps the
    troys of aces, kings and queens for the first three rounds."""
    hand = parse_cards("AS AH AD KS KH KD QS QH QD 2S 2H 2D 7C")
    groups = strong_arrangement(hand)
    check_arrangement(hand, groups)
    assert [key_of(group) for group in groups] == [key_of(parse_cards(t)) for t in
                                                   ("AS AH AD", "KS KH KD", "QS QH QD", "2S 2H 2D")]


def test_greedy_takes_the_best_triple_then_the_best_of_the_rest() -> None:
    for hand in hands(40, seed=3):
        groups = greedy_arrangement(hand)
        check_arrangement(hand, groups)
        left = list(hand)
        for group in groups[:3]:
            assert key_of(group) == max(key_of(trio) for trio in combinations(left, 3))
            left = [card for card in left if card not in group]
        assert sorted(groups[3]) == sorted(left)


def test_strong_beats_greedy_on_its_own_objective() -> None:
    values = round_values(None)
    for hand in hands(HANDS, seed=4):
        assert (expected_points(strong_arrangement(hand), values)
                >= expected_points(greedy_arrangement(hand), values))


def test_suggest_arrangement_gives_the_groups_of_an_up() -> None:
    hand = hands(1, seed=9)[0]
    texts = card_texts(hand)
    groups = suggest_arrangement(texts)
    assert [len(group) for group in groups] == [3, 3, 3, 4]
    assert sorted(card for group in groups for card in group) == sorted(texts)
    assert groups == suggest_arrangement(hand)
    check_arrangement(hand, [parse_cards(group) for group in groups])
    with pytest.raises(ValueError):
        suggest_arrangement(texts[:12])
    with pytest.raises(ValueError):
        suggest_arrangement(texts[:12] + texts[:1])


def test_bots_answer_from_the_json_view_and_use_the_seat_position() -> None:
    state = ENGINE.start({}, Seating(4, first_dealer=2))
    deck = list(standard_deck())
    random.Random(6).shuffle(deck)
    state = ENGINE.deal(state, deck).state
    for seat in range(4):
        view = json.loads(json.dumps(ENGINE.view(state, seat)))
        legal = ENGINE.legal_actions(state, seat)
        assert view_position(view) == (seat - 3) % 4
        for bot in (HazariStrongBot(), HazariGreedyBot()):
            action = bot.choose(view, legal, random.Random(0))
            assert action == bot.choose(ENGINE.view(state, seat), legal, random.Random(1))
            state_after = ENGINE.apply(state, seat, ENGINE.parse_action(action)).state
            assert state_after.arrangements[seat] is not None
        expected = suggest_arrangement(view["hand"], position=view_position(view))
        assert HazariStrongBot().choose(view, legal, random.Random(0))["groups"] == expected


def test_win_rates_file_says_how_it_was_made_and_is_consistent() -> None:
    data = load_data()
    made = data["made"]
    assert {"by", "seed", "deals", "model"} <= set(made)
    for name, table in data["tables"].items():
        assert table["samples"] == sum(table["best"]), name
        assert len(table["best"]) == len(data["keys"])
        assert all(a >= b for a, b in zip(table["best"], table["later"], strict=True))
    for rule in ("later_wins", "first_wins"):
        values = round_values(None, rule)
        keys = np.asarray(data["keys"])
        for win in values.win:
            assert np.all(np.diff(win[keys]) >= -1e-12)  # a stronger key never wins less often
            assert win[keys].min() >= 0 and win[keys].max() <= 1
