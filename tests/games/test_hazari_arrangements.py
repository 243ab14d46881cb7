"""Hazari arrangements (HZ-4): validity examples 42-44 and 49, the enumerator checked against brute
force, and the uniform random arrangement."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, permutations

import pytest

from app.games.base import IllegalAction, InvalidAction
from app.games.cards import Card, parse_cards, standard_deck
from app.games.hazari import arrangements
from app.games.hazari.arrangements import (
    check_arrangement,
    check_draft,
    draft_completions,
    is_valid,
    multiplicity,
    order_problems,
    random_arrangement,
    split_groups,
    valid_splits,
)
from app.games.hazari.combos import key_of


def groups(text: str) -> tuple[tuple[Card, ...], ...]:
    """``"AS AH AD | KS QS JS | ..."`` as groups."""
    return tuple(parse_cards(part) for part in text.strip("[]").split("|"))


def hand_of(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


EX42 = "AS AH AD | KS QS JS | 9H 9D 2C | 3S 5H 7C 10D"
EX43 = "KS QS JS | AS AH AD | 9H 9D 2C | 3S 5H 7C 10D"
EX44 = "AS AH AD | KS QS JS | 8C 6D 3S | 9C 9H 2D 4H"


def test_example_42_valid_hz4() -> None:
    arranged = groups(EX42)
    check_arrangement(hand_of(EX42), arranged)
    assert is_valid(hand_of(EX42), arranged)
    assert order_problems(arranged) == []


def test_example_43_troy_below_colour_run_is_refused_hz4() -> None:
    with pytest.raises(IllegalAction) as caught:
        check_arrangement(hand_of(EX43), groups(EX43))
    assert caught.value.code == "action/bad_order"
    assert "G2 (Troy: AS AH AD) outranks G1 (Colour Run: KS QS JS)" in caught.value.message
    assert "KS QS JS | AS AH AD" in caught.value.message


def test_example_44_four_card_group_above_g3_is_refused_hz4() -> None:
    with pytest.raises(IllegalAction) as caught:
        check_arrangement(hand_of(EX44), groups(EX44))
    assert caught.value.code == "action/bad_order"
    assert "G4 (best triple Pair: 9C 9H 4H) outranks G3 (Indi: 8C 6D 3S)" in caught.value.message


def test_equal_adjacent_groups_are_valid_hz4_ambiguities_6_7() -> None:
    equal = groups("AS KS QS | AH KH QH | 9S 9H 5D | 9D 9C 5C 2H")
    assert key_of(equal[0]) == key_of(equal[1])
    assert key_of(equal[2]) == key_of(equal[3])
    assert is_valid([card for group in equal for card in group], equal)


def test_every_problem_is_listed() -> None:
    arranged = groups("2S 3H 5D | 9S 9H 9D | AS KS QS | AH AD AC 4C")
    problems = order_problems(arranged)
    assert [p.split(" outranks ")[0][:2] for p in problems] == ["G2", "G4"]


def test_example_49_shapes_duplicates_and_foreign_cards_hz4() -> None:
    hand = hand_of(EX42)
    with pytest.raises(InvalidAction) as sizes:
        check_arrangement(hand, groups("3S 5H 7C 10D | AS AH AD | KS QS JS | 9H 9D 2C"))
    assert sizes.value.code == "action/group_sizes"
    with pytest.raises(InvalidAction) as twice:
        check_arrangement(hand, groups("AS AH AD | KS QS JS | 9H 9D 2C | 3S 5H 7C AS"))
    assert twice.value.code == "action/duplicate_card"
    assert "AS more than once" in twice.value.message
    with pytest.raises(IllegalAction) as foreign:
        check_arrangement(hand, groups("AS AH AD | KS QS JS | 9H 9D 2C | 3S 5H 7C 10C"))
    assert foreign.value.code == "action/card_not_in_hand"
    assert "10C" in foreign.value.message


def _triple_table(hand: Sequence[Card]) -> dict[tuple[int, ...], int]:
    return {trio: key_of([hand[i] for i in trio]) for trio in combinations(range(13), 3)}


def _four_key(table: dict[tuple[int, ...], int], four: Sequence[int]) -> int:
    return max(table[trio] for trio in combinations(sorted(four), 3))


def brute_force_ordered(hand: Sequence[Card]) -> tuple[int, Counter[frozenset[frozenset[int]]]]:
    """Every one of the 1,201,200 ordered splits (G1, G2, G3 of 3 cards, G4 of 4), each checked in
    full; returns how many were examined and the valid ones as unordered splits, each with how many
    of its orderings are valid."""
    table = _triple_table(hand)
    fours: dict[tuple[int, ...], int] = {
        four: _four_key(table, four) for four in combinations(range(13), 4)}
    found: Counter[frozenset[frozenset[int]]] = Counter()
    examined = 0
    every = range(13)
    for g1 in combinations(every, 3):
        rest1 = [i for i in every if i not in g1]
        for g2 in combinations(rest1, 3):
            rest2 = [i for i in rest1 if i not in g2]
            for g3 in combinations(rest2, 3):
                g4 = tuple(i for i in rest2 if i not in g3)
                examined += 1
                if table[g1] >= table[g2] >= table[g3] >= fours[g4]:
                    found[frozenset((frozenset(g1), frozenset(g2), frozenset(g3), frozenset(g4)))] += 1
    return examined, found


def brute_force_unordered(hand: Sequence[Card]) -> set[frozenset[frozenset[int]]]:
    """All 200,200 unordered splits (G4, and three triples), kept when valid once sorted."""
    table = _triple_table(hand)
    found = set()
    every = range(13)
    for g4 in combinations(every, 4):
        floor = _four_key(table, g4)
        rest = [i for i in every if i not in g4]
        low = rest[0]
        for b, c in combinations(rest[1:], 2):
            t1 = (low, b, c)
            six = [i for i in rest if i not in t1]
            for e, f in combinations(six[1:], 2):
                t2 = (six[0], e, f)
                t3 = tuple(i for i in six if i not in t2)
                if min(table[t1], table[t2], table[t3]) >= floor:
                    found.add(frozenset(map(frozenset, (t1, t2, t3, g4))))
    return found


def as_positions(split: Sequence[int]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(i for i in range(13) if mask >> i & 1) for mask in split[4:])


def random_hand(seed: int) -> tuple[Card, ...]:
    deck = list(standard_deck())
    random.Random(seed).shuffle(deck)
    return tuple(deck[:13])


def test_enumerator_matches_brute_force_over_all_ordered_splits() -> None:
    hand = hand_of("AS AH KD KC 9S 9H 9D 5S 5C 4H 3H 2H JD")
    examined, expected = brute_force_ordered(hand)
    assert examined == 1_201_200
    splits = valid_splits(hand)
    assert len(splits) == len(expected)
    assert {as_positions(split): multiplicity(split) for split in splits} == dict(expected)


@pytest.mark.parametrize("hand", [
    random_hand(7),
    random_hand(8),
    hand_of("AS AH AD AC KS KH KD KC QS QH QD QC JS"),
])
def test_enumerator_matches_brute_force_over_unordered_splits(hand: tuple[Card, ...]) -> None:
    splits = valid_splits(hand)
    positions = [as_positions(split) for split in splits]
    assert len(set(positions)) == len(positions)
    assert set(positions) == brute_force_unordered(hand)


def test_every_enumerated_split_is_a_valid_descending_arrangement() -> None:
    hand = random_hand(3)
    splits = valid_splits(hand)
    assert 1000 < len(splits) < 200_200
    for split in splits[::7]:
        arranged = split_groups(hand, split)
        assert is_valid(hand, arranged)
        assert tuple(key_of(group) for group in arranged) == split[:4]


def test_random_arrangements_are_valid_and_reproducible() -> None:
    rng = random.Random(11)
    for seed in range(150):
        hand = random_hand(1000 + seed)
        arranged = random_arrangement(hand, rng)
        check_arrangement(hand, arranged)
    first = random_arrangement(random_hand(5), random.Random(42))
    assert random_arrangement(random_hand(5), random.Random(42)) == first


Cell = tuple[int, int, int]


def _chi_square(observed: Counter[Cell], expected: dict[Cell, float]) -> float:
    return sum((observed[cell] - mean) ** 2 / mean for cell, mean in expected.items())


def _chi_square_999(freedom: int) -> float:
    """The 99.9% quantile of chi-square (Wilson-Hilferty approximation)."""
    z = 3.090
    root: float = (2 / (9 * freedom)) ** 0.5
    return freedom * (1 - 2 / (9 * freedom) + z * root) ** 3


def _statistic(hand: Sequence[Card], arranged: Sequence[Sequence[Card]]) -> Cell:
    """A coarse feature of an ordered arrangement: whether its triples tie, which position holds
    the hand's first card, and G1's category."""
    keys = [key_of(group) for group in arranged]
    tied = multiplicity(keys)
    where = next(i for i, group in enumerate(arranged) if hand[0] in group)
    return tied, where, keys[0] >> 12


def _exact_distribution(hand: Sequence[Card]) -> Counter[Cell]:
    """The statistic over every valid ordered arrangement (each tied ordering counted)."""
    counts: Counter[Cell] = Counter()
    for split in valid_splits(hand):
        triples = [(split[i], split[i + 4]) for i in range(3)]
        for order in {(a, b, c) for a, b, c in _orderings(triples)}:
            masks = (*(mask for _, mask in order), split[7])
            counts[_statistic(hand, split_groups(hand, (*split[:4], *masks)))] += 1
    return counts


def _orderings(triples: list[tuple[int, int]]) -> list[tuple[tuple[int, int], ...]]:
    return [order for order in permutations(triples)
            if order[0][0] >= order[1][0] >= order[2][0]]


@pytest.mark.parametrize("use_fallback", [False, True])
def test_random_arrangement_is_uniform_over_ordered_arrangements(
        use_fallback: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four kings, four queens, ...: half the valid ordered arrangements have equal triples, so a
    sampler that ignored the orderings of equal triples would miss that share by far."""
    hand = hand_of("AS AH AD AC KS KH KD KC QS QH QD QC JS")
    exact = _exact_distribution(hand)
    if use_fallback:
        splits = valid_splits(hand)
        monkeypatch.setattr(arrangements, "_MAX_DRAWS", 0)
        monkeypatch.setattr(arrangements, "valid_splits", lambda _: splits)
    total = sum(exact.values())
    samples = 3000
    rng = random.Random(2024)
    observed = Counter(_statistic(hand, random_arrangement(hand, rng)) for _ in range(samples))
    expected = {cell: samples * count / total for cell, count in exact.items()}
    small = [cell for cell, mean in expected.items() if mean < 5]
    for cell in small:
        expected.pop(cell)
        observed.pop(cell, None)
    assert len(expected) > 10
    assert _chi_square(observed, expected) < _chi_square_999(len(expected) - 1)
    tied_share = sum(n for cell, n in observed.items() if cell[0] > 1) / samples
    exact_share = sum(n for cell, n in exact.items() if cell[0] > 1) / total
    assert abs(tied_share - exact_share) < 0.05


DRAFT_HAND = "6S 6H 6D 5S 5H 5D 4S 4H 4D 3S 3H 3D 4C"


def test_draft_completions_keep_every_drafted_card_in_its_group() -> None:
    hand = hand_of(DRAFT_HAND)
    draft = groups("6S 6H | 5S | | 4S")
    found = draft_completions(hand, draft)
    assert found
    for completed in found:
        check_arrangement(hand, completed)
        assert all(set(wanted) <= set(group) for wanted, group in zip(draft, completed, strict=False))
    everything = {tuple(frozenset(group) for group in completed) for completed in draft_completions(hand, ())}
    kept = {tuple(frozenset(group) for group in completed) for completed in found}
    assert kept == {arrangement for arrangement in everything
                    if all(set(w) <= a for w, a in zip(draft, arrangement, strict=False))}


def test_a_draft_out_of_order_has_no_completion() -> None:
    assert draft_completions(hand_of(DRAFT_HAND), groups("3S 3H 3D | 6S 6H 6D")) == []


@pytest.mark.parametrize(("draft", "code"), [
    ("6S 6H 6D 5S", "action/group_sizes"),
    ("6S | 6S", "action/duplicate_card"),
    ("AS", "action/card_not_in_hand"),
    ("| | | | 6S", "action/group_sizes"),
])
def test_a_bad_draft_names_its_problem(draft: str, code: str) -> None:
    with pytest.raises((InvalidAction, IllegalAction)) as raised:
        check_draft(hand_of(DRAFT_HAND), groups(draft))
    assert raised.value.code == code
