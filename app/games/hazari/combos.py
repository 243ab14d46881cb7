"""Three-card combinations and their comparison keys (HZ-5); the best triple of a 4-card group (HZ-4).

A key has two forms that order identically:

* the readable tuple of HZ-5, e.g. ``(6, 14)`` for A-A-A, ``(5, 11)`` for a colour run A-2-3,
  ``(2, 9, 13)`` for 9-9-K, ``(1, 14, 13, 11)`` for an A-K-J indi;
* a packed int, ``category << 12 | a << 8 | b << 4 | c`` with the tuple's further parts in ``a, b, c``
  (missing parts are 0). Every part is below 16, so comparing packed ints compares the tuples
  lexicographically. Keys of different categories never tie, and a category always has the same
  number of parts, so the zero padding never decides anything.

For speed, cards are also numbered 0..51 (the order of :func:`standard_deck`) and the packed key of
every ordered triple of distinct cards is precomputed in :data:`TRIPLE_KEYS`, indexed
``(a * 52 + b) * 52 + c``.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations, permutations

from app.games.cards import RANK_NAMES, Card, standard_deck


class Category(IntEnum):
    """The six categories of HZ-5, with their numeric codes (higher beats lower)."""

    INDI = 1
    PAIR = 2
    COLOUR = 3
    RUN = 4
    COLOUR_RUN = 5
    TROY = 6

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Category.INDI: "Indi",
    Category.PAIR: "Pair",
    Category.COLOUR: "Colour",
    Category.RUN: "Run",
    Category.COLOUR_RUN: "Colour Run",
    Category.TROY: "Troy",
}

ACE_TWO_THREE = 11
ACE_KING_QUEEN = 12
DECK = standard_deck()
CARD_INDEX: dict[Card, int] = {card: index for index, card in enumerate(DECK)}


def run_index(high: int, middle: int, low: int) -> int:
    """The HZ-5 ``runIndex`` of three distinct ranks given high first; 0 when they form no run.

    A-K-Q = 12, A-2-3 = 11, then K-Q-J = 10 down to 4-3-2 = 1. No wrap-around: K-A-2 is no run.
    """
    if (high, middle, low) == (14, 3, 2):
        return ACE_TWO_THREE
    if high - middle == 1 and middle - low == 1:
        return ACE_KING_QUEEN if low == 12 else low - 1
    return 0


def classify(cards: Sequence[Card]) -> tuple[int, ...]:
    """The readable HZ-5 key of a 3-card set (Ace = 14 everywhere except in the run A-2-3)."""
    if len(cards) != 3:
        raise ValueError(f"a combination has 3 cards, got {len(cards)}")
    high, middle, low = sorted((card.rank for card in cards), reverse=True)
    suited = cards[0].suit == cards[1].suit == cards[2].suit
    if high == low:
        return (int(Category.TROY), high)
    if high == middle:
        return (int(Category.PAIR), high, low)
    if middle == low:
        return (int(Category.PAIR), low, high)
    run = run_index(high, middle, low)
    if run:
        return (int(Category.COLOUR_RUN if suited else Category.RUN), run)
    return (int(Category.COLOUR if suited else Category.INDI), high, middle, low)


def pack(key: Sequence[int]) -> int:
    """The packed int of a readable key."""
    parts = [*key[1:], 0, 0, 0]
    return key[0] << 12 | parts[0] << 8 | parts[1] << 4 | parts[2]


_PARTS = {Category.TROY: 1, Category.COLOUR_RUN: 1, Category.RUN: 1, Category.PAIR: 2,
          Category.COLOUR: 3, Category.INDI: 3}


def unpack(packed: int) -> tuple[int, ...]:
    """The readable key of a packed int."""
    known = _UNPACKED.get(packed)
    if known is not None:
        return known
    return _unpack(packed)


def _unpack(packed: int) -> tuple[int, ...]:
    category = Category(packed >> 12)
    parts = (packed >> 8 & 15, packed >> 4 & 15, packed & 15)
    return (int(category), *parts[:_PARTS[category]])


def _build_table() -> array[int]:
    """Unsigned 16-bit entries: the whole table stays in the processor's cache."""
    table = array("H", bytes(2 * 52 * 52 * 52))
    for trio in combinations(range(52), 3):
        packed = pack(classify([DECK[i] for i in trio]))
        for a, b, c in permutations(trio):
            table[(a * 52 + b) * 52 + c] = packed
    return table


TRIPLE_KEYS: array[int] = _build_table()
_UNPACKED = {packed: _unpack(packed) for packed in set(TRIPLE_KEYS) - {0}}
CARD_TEXT: dict[Card, str] = {card: str(card) for card in DECK}


def triple_key(a: int, b: int, c: int) -> int:
    """The packed key of three distinct card indices (any order)."""
    return TRIPLE_KEYS[(a * 52 + b) * 52 + c]


def key_of(cards: Sequence[Card]) -> int:
    """The packed key of a 3-card group, or of a 4-card group's best triple (HZ-4)."""
    if len(cards) == 3:
        a, b, c = cards
        return TRIPLE_KEYS[(CARD_INDEX[a] * 52 + CARD_INDEX[b]) * 52 + CARD_INDEX[c]]
    if len(cards) == 4:
        return max(_subset_keys(cards))
    raise ValueError(f"a group has 3 or 4 cards, got {len(cards)}")


def _subset_keys(cards: Sequence[Card]) -> tuple[int, int, int, int]:
    """The keys of a 4-card group's triples in ``combinations`` order: without the last card, the
    third, the second, the first."""
    first, second, third, fourth = cards
    w, x, y, z = CARD_INDEX[first], CARD_INDEX[second], CARD_INDEX[third], CARD_INDEX[fourth]
    wx, wy, xy = (w * 52 + x) * 52, (w * 52 + y) * 52, (x * 52 + y) * 52
    return TRIPLE_KEYS[wx + y], TRIPLE_KEYS[wx + z], TRIPLE_KEYS[wy + z], TRIPLE_KEYS[xy + z]


_LEFT_OUT = (3, 2, 1, 0)


def best_triple(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The three cards whose combination is the value of a 4-card group (HZ-4, HZ-7); among equal
    triples the first in ``combinations`` order."""
    if len(cards) != 4:
        return max(combinations(cards, 3), key=key_of)
    keys = _subset_keys(cards)
    skip = _LEFT_OUT[keys.index(max(keys))]
    return tuple(card for i, card in enumerate(cards) if i != skip)


def category_of(packed: int) -> Category:
    return Category(packed >> 12)


_NAMES_BY_CODE = {int(category): category.label for category in Category}


def category_name(packed: int) -> str:
    """The display name of a key's category: Troy, Colour Run, Run, Colour, Pair or Indi."""
    name = _NAMES_BY_CODE.get(packed >> 12)
    return name if name is not None else category_of(packed).label


def describe(packed: int) -> str:
    """A short text for messages, e.g. ``Pair 9-9-2``, ``Colour Run A-2-3``, ``Troy A-A-A``."""
    category, *parts = unpack(packed)
    if category == Category.TROY:
        ranks = [parts[0]] * 3
    elif category in (Category.RUN, Category.COLOUR_RUN):
        ranks = _run_ranks(parts[0])
    elif category == Category.PAIR:
        ranks = [parts[0], parts[0], parts[1]]
    else:
        ranks = parts
    return f"{Category(category).label} " + "-".join(RANK_NAMES[rank] for rank in ranks)


def _run_ranks(index: int) -> list[int]:
    if index == ACE_KING_QUEEN:
        return [14, 13, 12]
    if index == ACE_TWO_THREE:
        return [14, 2, 3]
    return [index + 3, index + 2, index + 1]


def card_points(card: Card) -> int:
    """HZ-2: A, K, Q, J, 10 are worth 10 points; 2..9 are worth 5."""
    return 10 if card.rank >= 10 else 5


def cards_points(cards: Sequence[Card]) -> int:
    """The HZ-2 points of some cards."""
    return sum(map(_POINTS.__getitem__, cards))


_POINTS = {card: card_points(card) for card in DECK}
