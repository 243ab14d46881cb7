"""The random arrangement's tie bound (``arrangements._tie_bound``), read from the ranks, against a
brute force over every pair and trio of disjoint triples."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from app.games.cards import Card, standard_deck
from app.games.hazari import arrangements
from app.games.hazari.combos import key_of


def _disjoint_ties(hand: Sequence[Card]) -> int:
    """6 when three disjoint triples share a key, 2 when two do, else 1."""
    by_key: dict[int, list[frozenset[Card]]] = {}
    for trio in combinations(hand, 3):
        by_key.setdefault(key_of(trio), []).append(frozenset(trio))
    found = 1
    for groups in by_key.values():
        for x, y in combinations(groups, 2):
            if not x & y:
                found = 2
                if any(not z & (x | y) for z in groups):
                    return 6
    return found


def test_the_tie_bound_is_the_largest_number_of_disjoint_tied_triples() -> None:
    rng = random.Random(31)
    deck = list(standard_deck())
    hands = [tuple(rng.sample(deck, 13)) for _ in range(150)]
    for _ in range(150):
        ranks = rng.sample(range(2, 15), rng.choice([4, 5]))
        hands.append(tuple(rng.sample([card for card in deck if card.rank in ranks], 13)))
    bounds = [arrangements._tie_bound(hand) for hand in hands]
    assert bounds == [_disjoint_ties(hand) for hand in hands]
    assert {1, 2, 6} <= set(bounds)
