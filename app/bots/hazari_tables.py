"""Win rates of Hazari groups per round, read from ``data/hazari_win_rates.json``.

The file is written by ``scripts/estimate_hazari.py``, which plays many deals with every seat
arranging by a model player and records, for each seat and round, the best key among the three
opponents' groups of that round (``M``), the opponents' points in that round, and whether the seat
would win a tie with ``M`` under each tie rule (HZ-7) given the order of exposure. For a table
(round 1 at each exposure position 0..3, where position 0 leads; rounds 2, 3, 4 over all positions)
and every possible key ``K[i]`` in ascending order, it stores over all samples:

* ``best[i]``: how often ``M == K[i]``; ``best_points[i]``: the opponents' points in those samples;
* ``later[i]`` / ``later_points[i]``: the same, restricted to samples where a group of key
  ``K[i]`` would take the round under ``later_wins``; ``first[i]`` / ``first_points[i]`` under
  ``first_wins``.

Then a group of key ``K[j]`` wins the round with probability
``p(K[j]) = (sum of best[i < j] + later[j]) / samples`` (for ``later_wins``), and the opponents'
points it takes, averaged over all samples, are ``q(K[j]) = (sum of best_points[i < j] +
later_points[j]) / samples``. The expected points of a group ``g`` in its round are then
``p(key g) * points(g) + q(key g)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

DATA_FILE = Path(__file__).parent / "data" / "hazari_win_rates.json"
ROUNDS = 4
POSITIONS = 4
TIE_RULES = ("later_wins", "first_wins")
KEY_SPACE = 1 << 15  # every packed key (combos.pack) is below 7 << 12
COUNT_FIELDS = ("best", "later", "first", "best_points", "later_points", "first_points")


@dataclass(frozen=True)
class RoundValues:
    """Per round, ``win[r][k]`` = P(a group of packed key ``k`` wins round ``r+1``) and
    ``taken[r][k]`` = the opponents' points it takes on average (zero when it loses)."""

    win: tuple[FloatArray, ...]
    taken: tuple[FloatArray, ...]

    def value(self, round_index: int, keys: IntArray, points: FloatArray) -> FloatArray:
        """Expected points of groups (``keys``, ``points``) played in round ``round_index + 1``."""
        result: FloatArray = self.win[round_index][keys] * points + self.taken[round_index][keys]
        return result


def table_name(round_number: int, position: int | None) -> str:
    """``round1_position2`` for round 1 (by exposure position), ``round3`` for later rounds."""
    return f"round{round_number}" if position is None else f"round{round_number}_position{position}"


@lru_cache(maxsize=1)
def load_data() -> dict[str, Any]:
    """The contents of :data:`DATA_FILE` (read once)."""
    with DATA_FILE.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def _dense(keys: IntArray, counts: dict[str, Any], tie_rule: str) -> tuple[FloatArray, FloatArray]:
    """``(win, taken)`` over the whole packed key space from one table's counts."""
    samples = counts["samples"]
    tie = "later" if tie_rule == "later_wins" else "first"
    below = np.concatenate(([0], np.cumsum(counts["best"])[:-1]))
    below_points = np.concatenate(([0], np.cumsum(counts["best_points"])[:-1]))
    win = np.zeros(KEY_SPACE)
    taken = np.zeros(KEY_SPACE)
    win[keys] = (below + np.asarray(counts[tie])) / samples
    taken[keys] = (below_points + np.asarray(counts[f"{tie}_points"])) / samples
    return win, taken


@lru_cache(maxsize=16)
def round_values(position: int | None = None, tie_rule: str = "later_wins") -> RoundValues:
    """The values for a seat exposing at ``position`` (0..3, 0 leads) in round 1, or averaged over
    the four positions when it is not known, under ``tie_rule``."""
    if tie_rule not in TIE_RULES:
        raise ValueError(f"tie_rule must be one of {TIE_RULES}, got {tie_rule!r}")
    if position is not None and not 0 <= position < POSITIONS:
        raise ValueError(f"position must be 0..{POSITIONS - 1} or None, got {position!r}")
    data = load_data()
    keys = np.asarray(data["keys"], dtype=np.int64)
    tables = data["tables"]
    positions = range(POSITIONS) if position is None else (position,)
    firsts = [_dense(keys, tables[table_name(1, p)], tie_rule) for p in positions]
    wins = [np.mean([win for win, _ in firsts], axis=0)]
    takens = [np.mean([taken for _, taken in firsts], axis=0)]
    for number in range(2, ROUNDS + 1):
        win, taken = _dense(keys, tables[table_name(number, None)], tie_rule)
        wins.append(win)
        takens.append(taken)
    return RoundValues(tuple(wins), tuple(takens))
