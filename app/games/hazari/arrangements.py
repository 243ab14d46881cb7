"""Arrangements of a 13-card hand into ``[G1, G2, G3, G4]`` (HZ-4): checks, enumeration, sampling.

An arrangement is valid iff the group sizes are 3, 3, 3, 4, every card of the hand is used once and
``key(G1) >= key(G2) >= key(G3) >= best-triple(G4)`` (HZ-4, ambiguities 6 and 7: equality allowed).

The enumerator works on hand positions 0..12 as bit masks. An unordered split is a 4-card G4 (715
choices) and a partition of the other 9 cards into 3 triples (280 ways); the triple that holds the
lowest remaining position is chosen first (28 ways), the other six cards split in 10 ways. For each
6-card rest the 10 splits are ranked once per hand by their weaker triple, so the scan stops at the
first split whose weaker triple falls below G4's best triple.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from itertools import combinations, permutations, product

import numpy as np

from app.games.base import IllegalAction, InvalidAction
from app.games.cards import Card
from app.games.hazari.combos import CARD_INDEX, TRIPLE_KEYS, category_name, key_of

Groups = tuple[tuple[Card, ...], ...]
Split = tuple[int, int, int, int, int, int, int, int]
"""A valid arrangement as ``(k1, k2, k3, k4, m1, m2, m3, m4)``: packed keys (``k4`` is G4's best
triple) with ``k1 >= k2 >= k3 >= k4``, and the groups as masks of hand positions."""

GROUP_SIZES = (3, 3, 3, 4)
HAND_SIZE = 13
_FULL = (1 << HAND_SIZE) - 1
_MAX_DRAWS = 1500


def groups_text(groups: Sequence[Sequence[Card]]) -> str:
    """``[AS AH AD | KS QS JS | ...]``, the fixture form of the rules file."""
    return "[" + " | ".join(" ".join(str(card) for card in group) for group in groups) + "]"


def check_shape(groups: Sequence[Sequence[Card]]) -> None:
    """HZ-4 sizes 3-3-3-4 and no card twice; raises :class:`InvalidAction` (the hand is not needed)."""
    sizes = [len(group) for group in groups]
    if sizes != list(GROUP_SIZES):
        raise InvalidAction(
            f"groups must hold 3, 3, 3 and 4 cards (G1, G2, G3, G4); {groups_text(groups)} has sizes "
            f"{sizes}", code="action/group_sizes")
    _check_each_card_once(groups)


def _check_each_card_once(groups: Sequence[Sequence[Card]]) -> None:
    seen: set[Card] = set()
    twice: list[str] = []
    for card in (card for group in groups for card in group):
        if card in seen:
            twice.append(str(card))
        seen.add(card)
    if twice:
        raise InvalidAction(f"{groups_text(groups)} uses {', '.join(twice)} more than once",
                            code="action/duplicate_card")


def check_cards(hand: Sequence[Card], groups: Sequence[Sequence[Card]]) -> None:
    """Every card must come from the hand (HZ-4); with a valid shape, all 13 are then used once."""
    held = set(hand)
    foreign = [str(card) for group in groups for card in group if card not in held]
    if foreign:
        raise IllegalAction(f"{', '.join(foreign)} in {groups_text(groups)} not in your hand",
                            code="action/card_not_in_hand")


def _group_label(position: int, group: Sequence[Card], key: int) -> str:
    if position == 3:
        best = max(combinations(group, 3), key=key_of)
        return f"G4 (best triple {category_name(key)}: {' '.join(map(str, best))})"
    return f"G{position + 1} ({category_name(key)}: {' '.join(map(str, group))})"


def order_problems(groups: Sequence[Sequence[Card]]) -> list[str]:
    """Each adjacent pair out of HZ-4 order, e.g. ``G2 (Troy: ...) outranks G1 (Colour Run: ...)``."""
    keys = [key_of(group) for group in groups]
    return [
        f"{_group_label(i + 1, groups[i + 1], keys[i + 1])} outranks "
        f"{_group_label(i, groups[i], keys[i])}"
        for i in range(3) if keys[i] < keys[i + 1]
    ]


def check_order(groups: Sequence[Sequence[Card]]) -> None:
    problems = order_problems(groups)
    if problems:
        raise IllegalAction(
            f"{groups_text(groups)} is not in descending order (HZ-4): {'; '.join(problems)}",
            code="action/bad_order")


def check_arrangement(hand: Sequence[Card], groups: Sequence[Sequence[Card]]) -> None:
    """All HZ-4 checks, in the order shape, cards, order; raises the first failure."""
    if _is_valid_arrangement(hand, groups):
        return
    check_shape(groups)
    check_cards(hand, groups)
    check_order(groups)


def _is_valid_arrangement(hand: Sequence[Card], groups: Sequence[Sequence[Card]]) -> bool:
    """The HZ-4 checks in one pass, without the messages of a failure."""
    if len(groups) != 4 or [len(group) for group in groups] != [3, 3, 3, 4]:
        return False
    cards = {card for group in groups for card in group}
    if len(cards) != HAND_SIZE or not cards.issubset(hand):
        return False
    k1, k2, k3, k4 = (key_of(group) for group in groups)
    return k1 >= k2 >= k3 >= k4


def is_valid(hand: Sequence[Card], groups: Sequence[Sequence[Card]]) -> bool:
    try:
        check_arrangement(hand, groups)
    except (InvalidAction, IllegalAction):
        return False
    return True


def _positions(mask: int) -> list[int]:
    return [i for i in range(HAND_SIZE) if mask >> i & 1]


_TRIPLES = tuple(combinations(range(HAND_SIZE), 3))
_TRIPLE_MASKS = tuple(1 << a | 1 << b | 1 << c for a, b, c in _TRIPLES)
_TRIPLE_ID = {mask: index for index, mask in enumerate(_TRIPLE_MASKS)}


def _splits_of(mask: int) -> tuple[tuple[int, int], ...]:
    """Pairs (triple holding the lowest position, triple of the rest) covering a 6-card mask."""
    low, *rest = _positions(mask)
    firsts = (1 << low | 1 << b | 1 << c for b, c in combinations(rest, 2))
    return tuple((_TRIPLE_ID[first], _TRIPLE_ID[mask ^ first]) for first in firsts)


def _quad_entry(quad: tuple[int, ...]) -> tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]:
    """A G4 choice: its mask, its four triple ids, and (first triple id, 6-card rest) choices."""
    mask = sum(1 << i for i in quad)
    own = tuple(_TRIPLE_ID[mask ^ 1 << i] for i in quad)
    rest = _FULL ^ mask
    low, *others = _positions(rest)
    firsts = [1 << low | 1 << b | 1 << c for b, c in combinations(others, 2)]
    return mask, own, tuple((_TRIPLE_ID[first], rest ^ first) for first in firsts)


_QUAD_POSITIONS = tuple(combinations(range(HAND_SIZE), 4))
_QUADS = tuple(_quad_entry(quad) for quad in _QUAD_POSITIONS)
QUAD_TRIPLES = tuple(tuple(_TRIPLE_ID[1 << a | 1 << b | 1 << c] for a, b, c in combinations(quad, 3))
                     for quad in _QUAD_POSITIONS)
"""The four triple ids (indices into ``combinations(range(13), 3)``) inside each 4-card group of
hand positions (in ``combinations(range(13), 4)`` order), in ``combinations(quad, 3)`` order."""
_SIXES = {sum(1 << i for i in six): _splits_of(sum(1 << i for i in six))
          for six in combinations(range(HAND_SIZE), 6)}


_KEYS_ARRAY = np.array(TRIPLE_KEYS, dtype=np.int64)
_FIRSTS, _SECONDS, _THIRDS = np.array(_TRIPLES, dtype=np.int64).T


def hand_keys(hand: Sequence[Card]) -> list[int]:
    """The packed key of each of the 286 triples of hand positions, in ``combinations`` order."""
    if len(hand) != HAND_SIZE:
        raise ValueError(f"a Hazari hand has {HAND_SIZE} cards, got {len(hand)}")
    idx = np.array([CARD_INDEX[card] for card in hand])
    keys: list[int] = _KEYS_ARRAY[(idx[_FIRSTS] * 52 + idx[_SECONDS]) * 52 + idx[_THIRDS]].tolist()
    return keys


def _ranked_pairs(six: int, keys: list[int]) -> list[tuple[int, int, int, int]]:
    """The 10 splits of a 6-card rest as (weaker key, stronger key, weaker mask, stronger mask),
    strongest weaker triple first."""
    ranked = []
    for a, b in _SIXES[six]:
        if keys[a] <= keys[b]:
            ranked.append((keys[a], keys[b], _TRIPLE_MASKS[a], _TRIPLE_MASKS[b]))
        else:
            ranked.append((keys[b], keys[a], _TRIPLE_MASKS[b], _TRIPLE_MASKS[a]))
    ranked.sort(reverse=True)
    return ranked


def valid_splits(hand: Sequence[Card]) -> list[Split]:
    """Every valid arrangement of ``hand`` (HZ-4), once per unordered split; triples in descending
    order (equal ones in either order: they are interchangeable, HZ-6)."""
    keys = hand_keys(hand)
    ranked: dict[int, list[tuple[int, int, int, int]]] = {}
    found: list[Split] = []
    add = found.append
    for mask4, (a, b, c, d), firsts in _QUADS:
        floor = max(keys[a], keys[b], keys[c], keys[d])
        for t1, six in firsts:
            k1 = keys[t1]
            if k1 < floor:
                continue
            m1 = _TRIPLE_MASKS[t1]
            pairs = ranked.get(six) or ranked.setdefault(six, _ranked_pairs(six, keys))
            for lo, hi, m_lo, m_hi in pairs:
                if lo < floor:
                    break
                if k1 >= hi:
                    add((k1, hi, lo, floor, m1, m_hi, m_lo, mask4))
                elif k1 >= lo:
                    add((hi, k1, lo, floor, m_hi, m1, m_lo, mask4))
                else:
                    add((hi, lo, k1, floor, m_hi, m_lo, m1, mask4))
    return found


def multiplicity(split: Sequence[int]) -> int:
    """How many orderings of a split's three triples are valid: 1, or 2 / 6 when keys are equal
    (``split`` starts with the three triple keys in descending order)."""
    k1, k2, k3 = split[:3]
    if k1 == k3:
        return 6
    return 2 if k1 == k2 or k2 == k3 else 1


def split_groups(hand: Sequence[Card], split: Sequence[int]) -> Groups:
    """The cards of a split (masks at ``split[4:8]``), each group in hand order."""
    return tuple(tuple(hand[i] for i in _positions(mask)) for mask in split[4:])


def _tie_bound(hand: Sequence[Card]) -> int:
    """The largest :func:`multiplicity` any split of this hand can have (1, 2 or 6).

    Equal keys have the same rank multiset (HZ-5), so disjoint tied triples are either a pair of a
    rank held four times with a kicker held twice, or three ranks each held at least twice, where
    the key depends only on whether the triple is of one suit. Three ranks held twice always give
    two disjoint triples alike in that (every assignment of suits does), so only three of them
    need ranks held three times and a search."""
    by_rank: dict[int, list[int]] = {}
    for index, card in enumerate(hand):
        by_rank.setdefault(card.rank, []).append(index)
    held = [len(positions) for positions in by_rank.values()]
    repeated = sum(count >= 2 for count in held)
    if repeated >= 3 or (repeated == 2 and 4 in held):
        triples = [positions for positions in by_rank.values() if len(positions) >= 3]
        if any(_has_three_ties(hand, ranks) for ranks in combinations(triples, 3)):
            return 6
        return 2
    return 1


def _has_three_ties(hand: Sequence[Card], ranks: tuple[list[int], ...]) -> bool:
    """Whether the cards of three ranks hold three disjoint triples, all of one suit or none."""
    by_suited: dict[bool, list[int]] = {True: [], False: []}
    for trio in product(*ranks):
        a, b, c = (hand[i].suit for i in trio)
        by_suited[a == b == c].append(1 << trio[0] | 1 << trio[1] | 1 << trio[2])
    return any(z & (x | y) == 0
               for masks in by_suited.values()
               for x, y in combinations(masks, 2) if x & y == 0
               for z in masks)


def _split_table() -> tuple[array[int], array[int]]:
    """Every unordered split as three triple ids (``3 * split`` onwards; ``split // PARTITIONS`` is
    its G4 in :data:`_QUADS` order), and each G4's four triple ids (``4 * quad`` onwards)."""
    triples = array("H")
    quads = array("H")
    for _, own, firsts in _QUADS:
        quads.extend(own)
        for first, six in firsts:
            for a, b in _SIXES[six]:
                triples.extend((first, a, b))
    return triples, quads


PARTITIONS = 280
_SPLIT_TRIPLES, _QUAD_TRIPLES = _split_table()
_SPLIT_COUNT = len(_QUADS) * PARTITIONS
_DRAW_BITS = _SPLIT_COUNT.bit_length()


def _draw(keys: list[int], bound: int, rng: random.Random) -> tuple[int, ...] | None:
    """One uniformly random split as (G1, G2, G3 triple ids, G4 quad index), kept with probability
    multiplicity / bound, else None."""
    split = rng.getrandbits(_DRAW_BITS)
    if split >= _SPLIT_COUNT:
        return None
    quad = split // PARTITIONS
    q = 4 * quad
    floor = max(keys[_QUAD_TRIPLES[q]], keys[_QUAD_TRIPLES[q + 1]], keys[_QUAD_TRIPLES[q + 2]],
                keys[_QUAD_TRIPLES[q + 3]])
    s = 3 * split
    a, b, c = _SPLIT_TRIPLES[s], _SPLIT_TRIPLES[s + 1], _SPLIT_TRIPLES[s + 2]
    if keys[a] < floor or keys[b] < floor or keys[c] < floor:
        return None
    triples = sorted(((keys[a], a), (keys[b], b), (keys[c], c)), reverse=True)
    tied = multiplicity([key for key, _ in triples])
    if tied > 1:
        if tied < bound and rng.random() * bound >= tied:
            return None
        rng.shuffle(triples)
        triples.sort(key=lambda keyed: keyed[0], reverse=True)
    elif bound > 1 and rng.random() * bound >= 1:
        return None
    return (*(t for _, t in triples), quad)


def random_arrangement(hand: Sequence[Card], rng: random.Random) -> Groups:
    """A uniformly random valid ordered arrangement of ``hand`` (HZ-4), each group in hand order.

    Rejection sampling: a uniformly random split, its triples sorted descending (equal triples in a
    random order) and kept when valid, with probability ``m / bound`` when it has ``m`` valid
    orderings, so every valid ordered arrangement is equally likely. After ``_MAX_DRAWS`` misses (a
    hand with very few valid splits) the choice is made from the full enumeration with the same
    weights, so it always ends.
    """
    keys = hand_keys(hand)
    bound = _tie_bound(hand)
    for _ in range(_MAX_DRAWS):
        drawn = _draw(keys, bound, rng)
        if drawn is not None:
            *firsts, quad = drawn
            return (*(tuple(hand[i] for i in _TRIPLES[t]) for t in firsts),
                    tuple(hand[i] for i in _QUAD_POSITIONS[quad]))
    splits = valid_splits(hand)
    split = rng.choices(splits, weights=[multiplicity(s) for s in splits])[0]
    triples = [(split[i], split[i + 4]) for i in range(3)]
    rng.shuffle(triples)
    triples.sort(key=lambda keyed: keyed[0], reverse=True)
    return split_groups(hand, (*split[:4], *(mask for _, mask in triples), split[7]))


def check_draft(hand: Sequence[Card], draft: Sequence[Sequence[Card]]) -> None:
    """A draft is an arrangement in the making: up to four groups (G1 first), each holding at most
    its group's size, every card from the hand and none twice. Its order is not judged yet."""
    if len(draft) > len(GROUP_SIZES):
        raise InvalidAction(f"a draft has at most four groups (G1 to G4); {groups_text(draft)} has "
                            f"{len(draft)}", code="action/group_sizes")
    for position, (group, size) in enumerate(zip(draft, GROUP_SIZES, strict=False)):
        if len(group) > size:
            raise InvalidAction(f"G{position + 1} holds at most {size} cards; {groups_text(draft)} puts "
                                f"{len(group)} there", code="action/group_sizes")
    _check_each_card_once(draft)
    check_cards(hand, draft)


def draft_completions(hand: Sequence[Card], draft: Sequence[Sequence[Card]]) -> list[Groups]:
    """Every valid ordered arrangement of ``hand`` (HZ-4) that keeps each card of ``draft`` in the
    group it was placed in (each group in hand order)."""
    position = {card: index for index, card in enumerate(hand)}
    wanted = [sum(1 << position[card] for card in group) for group in draft]
    wanted += [0] * (len(GROUP_SIZES) - len(wanted))
    found: list[Groups] = []
    for split in valid_splits(hand):
        masks = split[4:]
        if masks[3] & wanted[3] != wanted[3]:
            continue
        for order in permutations(range(3)):
            if (split[order[0]] >= split[order[1]] >= split[order[2]]
                    and all(masks[order[i]] & wanted[i] == wanted[i] for i in range(3))):
                found.append(tuple(tuple(hand[i] for i in _positions(masks[g])) for g in (*order, 3)))
    return found
