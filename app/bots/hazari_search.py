"""The exhaustive search of the Hazari ``strong`` bot: every split of a 13-card hand, scored at
once.

A split of hand positions 0..12 is a 4-card G4 (715 choices) and a partition of the other nine
cards into three triples (280 ways): 200,200 splits, precomputed once as triple ids (0..285, in
``itertools.combinations`` order) in an array of shape ``(715, 280, 3)``. A split is valid (HZ-4)
iff its weakest triple's key is at least G4's best triple's key; the three triples then go to
rounds 1, 2, 3 in descending key order (equal keys hold the same ranks and points, HZ-5, so their
order changes nothing).

The score of a split is its expected points: ``sum over rounds r of V_r(group r)`` with
``V_r(g) = P(win r | key g) * points(g) + E[opponents' points in r, counted when g wins]``
(:class:`~app.bots.hazari_tables.RoundValues`). Per hand, ``V_1..V_3`` are computed for the 286
triples and ``V_4`` for the 715 quads; the triples are ranked by key so that the order within a
split is the order of three small integers, and the whole search is a dozen numpy operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from app.bots.hazari_tables import RoundValues
from app.games.cards import Card
from app.games.hazari import arrangements
from app.games.hazari.arrangements import HAND_SIZE, hand_keys
from app.games.hazari.combos import card_points

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

TRIPLES = tuple(combinations(range(HAND_SIZE), 3))
QUADS = tuple(combinations(range(HAND_SIZE), 4))
_TRIPLE_ID = {triple: index for index, triple in enumerate(TRIPLES)}


def _nine_partitions() -> list[tuple[tuple[int, ...], ...]]:
    """The 280 partitions of local positions 0..8 into three triples, each once: the first triple
    holds position 0, the second the lowest position left."""
    result: list[tuple[tuple[int, ...], ...]] = []
    for b, c in combinations(range(1, 9), 2):
        rest = [i for i in range(1, 9) if i not in (b, c)]
        for e, f in combinations(rest[1:], 2):
            last = tuple(i for i in rest[1:] if i not in (e, f))
            result.append(((0, b, c), (rest[0], e, f), last))
    return result


def _split_triples() -> IntArray:
    """Shape ``(715, 280, 3)``: the triple ids of every split, G4 = ``QUADS[i]``."""
    triple_id = np.zeros((HAND_SIZE,) * 3, dtype=np.int64)
    for index, (a, b, c) in enumerate(TRIPLES):
        triple_id[a, b, c] = index
    rests = np.array([[i for i in range(HAND_SIZE) if i not in quad] for quad in QUADS])
    positions = rests[:, np.array(_nine_partitions())]  # (715, 280, 3, 3), each triple ascending
    ids: IntArray = triple_id[positions[..., 0], positions[..., 1], positions[..., 2]]
    return ids


SPLIT_TRIPLES = _split_triples()
QUAD_TRIPLES = np.array(arrangements.QUAD_TRIPLES, dtype=np.int64)
"""Shape ``(715, 4)``: the four triples inside each quad (the engine's table)."""
TRIPLE_POSITIONS = np.array(TRIPLES, dtype=np.int64)
QUAD_POSITIONS = np.array(QUADS, dtype=np.int64)


@dataclass(frozen=True)
class Scored:
    """Every split of one hand with its score; invalid splits score ``-inf``."""

    scores: FloatArray  # (715, 280)
    ranks: IntArray  # (715, 280, 3): the three triples' ranks, for the order
    order: IntArray  # triple id of each rank (ascending key)
    valid: npt.NDArray[np.bool_]  # (715, 280)


def score_splits(hand: Sequence[Card], values: RoundValues) -> Scored:
    """The expected points of every split of ``hand`` under ``values``."""
    keys = np.array(hand_keys(hand), dtype=np.int64)
    points = np.array([card_points(card) for card in hand], dtype=np.float64)
    triple_points = points[TRIPLE_POSITIONS].sum(axis=1)
    quad_points = points[QUAD_POSITIONS].sum(axis=1)
    quad_keys = keys[QUAD_TRIPLES].max(axis=1)
    order = np.argsort(keys, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    by_rank = [values.value(r, keys[order], triple_points[order]) for r in range(3)]
    quad_value = values.value(3, quad_keys, quad_points)
    ranks = rank[SPLIT_TRIPLES]
    a, b, c = ranks[..., 0], ranks[..., 1], ranks[..., 2]
    high = np.maximum(np.maximum(a, b), c)
    low = np.minimum(np.minimum(a, b), c)
    middle = a + b + c - high - low
    valid = keys[order][low] >= quad_keys[:, None]
    total = by_rank[0][high] + by_rank[1][middle] + by_rank[2][low] + quad_value[:, None]
    return Scored(np.where(valid, total, -np.inf), ranks, order, valid)


def best_split(hand: Sequence[Card], values: RoundValues) -> tuple[tuple[Card, ...], ...]:
    """The valid arrangement ``[G1, G2, G3, G4]`` of ``hand`` with the most expected points (the
    first such split in enumeration order when several tie)."""
    scored = score_splits(hand, values)
    q, p = np.unravel_index(int(np.argmax(scored.scores)), scored.scores.shape)
    ranked = sorted(scored.ranks[q, p].tolist(), reverse=True)
    groups = [tuple(hand[i] for i in TRIPLES[int(scored.order[r])]) for r in ranked]
    return (*groups, tuple(hand[i] for i in QUADS[q]))
