"""The Hazari view's table of a hand's groups (``combinations``): the engine's keys for every group
of random hands, and only in the seat's own view while its hand is in play."""

from __future__ import annotations

import random
from itertools import combinations

from app.games.base import Seating
from app.games.cards import Card, parse_cards, standard_deck
from app.games.hazari import ENGINE, HazariState
from app.games.hazari.combos import best_triple, key_of
from app.games.hazari.view import hand_combinations


def read_digits(text: str) -> list[int]:
    return [int(text[i:i + 2], 36) for i in range(0, len(text), 2)]


def dealt(seed: int) -> HazariState:
    deck = list(standard_deck())
    random.Random(seed).shuffle(deck)
    return ENGINE.deal(ENGINE.start({}, Seating(players=4, first_dealer=seed % 4)), deck).state


def test_every_group_gets_the_engines_order_category_and_best_triple() -> None:
    rng = random.Random(17)
    for _ in range(25):
        hand = tuple(rng.sample(standard_deck(), 13))
        table = hand_combinations(hand)
        assert parse_cards(table["cards"]) == hand
        triples = list(combinations(hand, 3))
        strengths = read_digits(table["triples"])
        keys = [key_of(trio) for trio in triples]
        assert len(strengths) == 286
        for (s1, k1), (s2, k2) in combinations(zip(strengths, keys, strict=True), 2):
            assert (s1 > s2) == (k1 > k2) and (s1 == s2) == (k1 == k2)
        assert [table["categories"][s] for s in strengths] == [key >> 12 for key in keys]
        best = read_digits(table["quads"])
        for index, quad in zip(best, combinations(hand, 4), strict=True):
            assert set(triples[index]) < set(quad)
            assert keys[index] == key_of(quad) == key_of(best_triple(quad))


def test_only_the_seats_own_view_names_its_own_cards() -> None:
    state = dealt(3)
    assert "combinations" not in ENGINE.view(state, None)
    tables = [ENGINE.view(state, seat)["combinations"] for seat in range(4)]
    for seat, table in enumerate(tables):
        assert parse_cards(table["cards"]) == state.hands[seat]
        assert set(table["cards"]) == set(ENGINE.view(state, seat)["hand"])
        others: set[Card] = set().union(*(state.hands[s] for s in range(4) if s != seat))
        assert not others & set(parse_cards(table["cards"]))


def test_the_table_stays_while_the_rounds_are_shown_and_goes_with_the_deal() -> None:
    state = dealt(5)
    rng = random.Random(5)
    for seat in range(4):
        state = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, rng)).state
    assert ENGINE.view(state, 0)["phase"] == "showing" and "combinations" in ENGINE.view(state, 0)
    while ENGINE.has_auto_step(state):
        state = ENGINE.auto_step(state).state
    assert ENGINE.view(state, 0)["phase"] == "dealing"
    assert "combinations" not in ENGINE.view(state, 0)
