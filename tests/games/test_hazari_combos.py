"""Hazari combinations and keys (HZ-5, HZ-4): the examples 1-24 of the rules file and the tables."""

from __future__ import annotations

from itertools import combinations

import pytest

from app.games.cards import parse_cards, standard_deck
from app.games.hazari.combos import (
    CARD_INDEX,
    TRIPLE_KEYS,
    Category,
    best_triple,
    card_points,
    category_name,
    classify,
    describe,
    key_of,
    pack,
    triple_key,
    unpack,
)


def key(text: str) -> tuple[int, ...]:
    return unpack(key_of(parse_cards(text)))


# Examples 1-13 (classification).
CLASSIFICATION = [
    (1, "AS AH AD", "Troy", (6, 14)),
    (2, "2C 2D 2H", "Troy", (6, 2)),
    (3, "QS KS AS", "Colour Run", (5, 12)),
    (4, "3D AD 2D", "Colour Run", (5, 11)),
    (5, "4C 3C 2C", "Colour Run", (5, 1)),
    (6, "QS KH AD", "Run", (4, 12)),
    (7, "AS 2H 3H", "Run", (4, 11)),
    (8, "KS AH 2D", "Indi", (1, 14, 13, 2)),
    (9, "KS AS 2S", "Colour", (3, 14, 13, 2)),
    (10, "AS KS JS", "Colour", (3, 14, 13, 11)),
    (11, "5H 3H 2H", "Colour", (3, 5, 3, 2)),
    (12, "9S 9H KD", "Pair", (2, 9, 13)),
    (13, "AS KH JD", "Indi", (1, 14, 13, 11)),
    (13, "5S 3H 2D", "Indi", (1, 5, 3, 2)),
]


@pytest.mark.parametrize(("number", "cards", "name", "expected"), CLASSIFICATION)
def test_examples_1_to_13_classification_hz5(number: int, cards: str, name: str,
                                             expected: tuple[int, ...]) -> None:
    packed = key_of(parse_cards(cards))
    assert unpack(packed) == expected, f"example {number}"
    assert classify(parse_cards(cards)) == expected
    assert category_name(packed) == name


# Examples 14-24 (comparisons): first beats second.
COMPARISONS = [
    (14, "AS KS QS", "AH 2H 3H"),
    (15, "AH 2H 3H", "KC QC JC"),
    (16, "KC QC JC", "QD JD 10D"),
    (17, "2S 2H 2D", "AS KS QS"),
    (18, "AS AH AD", "KS KH KD"),
    (19, "4D 3D 2D", "AS KH QH"),
    (20, "AS KH QH", "AD 2C 3C"),
    (21, "AD 2C 3C", "KS QH JH"),
    (22, "5S 4H 3H", "4C 3S 2D"),
    (23, "4S 3H 2H", "AS KS JS"),
    (24, "JD 9D 2D", "JS 8S 7S"),
]


@pytest.mark.parametrize(("number", "stronger", "weaker"), COMPARISONS)
def test_examples_14_to_24_comparisons_hz5(number: int, stronger: str, weaker: str) -> None:
    assert key_of(parse_cards(stronger)) > key_of(parse_cards(weaker)), f"example {number}"
    assert key(stronger) > key(weaker)


def test_equal_keys_tie_across_suits_hz5() -> None:
    assert key_of(parse_cards("AS KS QS")) == key_of(parse_cards("AH KH QH"))
    assert key_of(parse_cards("9S 9H KD")) == key_of(parse_cards("9D 9C KS"))
    assert key_of(parse_cards("KS 8H 3D")) == key_of(parse_cards("KD 8S 3C"))


RUN_ORDER = ["A K Q", "A 2 3", "K Q J", "Q J 10", "J 10 9", "10 9 8", "9 8 7", "8 7 6", "7 6 5",
             "6 5 4", "5 4 3", "4 3 2"]


def test_run_order_table_hz5_ambiguity_1() -> None:
    """The 12 runs, highest first, with runIndex 12 down to 1, for Colour Runs and Runs alike."""
    for position, ranks in enumerate(RUN_ORDER):
        index = 12 - position
        suited = " ".join(rank + "S" for rank in ranks.split())
        mixed = " ".join(rank + suit for rank, suit in zip(ranks.split(), "SHD", strict=True))
        assert key(suited) == (5, index), ranks
        assert key(mixed) == (4, index), ranks


def test_no_wrap_around_hz5() -> None:
    assert key("KS AH 2D") == (1, 14, 13, 2)
    assert key("QS KH 2D")[0] == Category.INDI
    assert key("KH AH 2H") == (3, 14, 13, 2)


def test_ace_is_high_outside_runs_ambiguity_2() -> None:
    assert key("AS 4S 2S") > key("KS QS 10S")
    assert key("AS AH 2D") == (2, 14, 2)
    assert key("9S 9H AD") == (2, 9, 14)


def test_pair_compares_pair_then_kicker_ambiguity_3() -> None:
    assert key("9S 9H 2D") > key("8S 8H AD")
    assert key("9S 9H KD") > key("9D 9C QS")


def test_colour_and_indi_compare_all_three_ranks_ambiguities_4_5() -> None:
    assert key("JD 9D 3D") > key("JS 9S 2S")
    assert key("JD 9S 3C") > key("JS 9H 2D")
    assert key("AS KS JS") > key("AD QD JD")


def test_every_triple_of_the_pack_has_one_category_and_packed_order_is_tuple_order() -> None:
    deck = standard_deck()
    keyed = [(classify(trio), triple_key(*(CARD_INDEX[c] for c in trio)))
             for trio in combinations(deck, 3)]
    assert len(keyed) == 22100
    counts = {category: 0 for category in Category}
    for readable, packed in keyed:
        assert unpack(packed) == readable
        assert pack(readable) == packed
        counts[Category(readable[0])] += 1
    # Poker-style counts for 3-card hands: 52 troys, 48 straight flushes, 720 straights, ...
    assert counts == {Category.TROY: 52, Category.COLOUR_RUN: 48, Category.RUN: 720,
                      Category.COLOUR: 1096, Category.PAIR: 3744, Category.INDI: 16440}
    by_packed = sorted(keyed, key=lambda pair: pair[1])
    by_tuple = sorted(keyed, key=lambda pair: pair[0])
    assert [p for _, p in by_packed] == [p for _, p in by_tuple]


def test_table_is_symmetric_in_card_order() -> None:
    a, b, c = (CARD_INDEX[card] for card in parse_cards("QS KH AD"))
    values = {TRIPLE_KEYS[(x * 52 + y) * 52 + z]
              for x, y, z in [(a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)]}
    assert values == {pack((4, 12))}


def test_four_card_group_uses_its_best_triple_hz4() -> None:
    """Example 44's G4: the best triple of 9C 9H 2D 4H is the pair of 9s with kicker 4."""
    cards = parse_cards("9C 9H 2D 4H")
    assert unpack(key_of(cards)) == (2, 9, 4)
    assert set(best_triple(cards)) == set(parse_cards("9C 9H 4H"))
    assert unpack(key_of(parse_cards("3S 5H 7C 10D"))) == (1, 10, 7, 5)


def test_fourth_card_never_breaks_ties_hz4_ambiguity_7() -> None:
    assert key_of(parse_cards("AS KS QS 2D")) == key_of(parse_cards("AH KH QH JD"))


def test_describe_and_points_hz2() -> None:
    assert describe(key_of(parse_cards("9C 9H 2D 4H"))) == "Pair 9-9-4"
    assert describe(key_of(parse_cards("AD 2D 3D"))) == "Colour Run A-2-3"
    assert describe(key_of(parse_cards("QS KH AD"))) == "Run A-K-Q"
    assert describe(key_of(parse_cards("6S 5H 4D"))) == "Run 6-5-4"
    assert describe(key_of(parse_cards("AS AH AD"))) == "Troy A-A-A"
    assert sum(card_points(card) for card in standard_deck()) == 360
    assert [card_points(card) for card in parse_cards("AS KS QS JS 10S 9S 2S")] == [10] * 5 + [5] * 2


def test_group_sizes_other_than_three_or_four_are_refused() -> None:
    with pytest.raises(ValueError):
        key_of(parse_cards("AS KS"))
    with pytest.raises(ValueError):
        classify(parse_cards("AS KS QS JS"))
