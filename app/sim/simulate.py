"""The simulator: bots against bots through the engines, in memory, in deterministic chunks.

The deals are cut into chunks of ``chunk`` deals (:data:`CHUNK`); chunk ``i`` draws its decks and
its bots' choices from seeds made of ``--seed`` and ``i`` only, and the chunks' tallies are merged
in chunk order, so the result is the same for any number of jobs (only the speed differs). Each
chunk starts a new match; the match in progress when a chunk has played its deals is counted as
unfinished, and only finished matches count for "matches won".

Scoring units are the seats, or the teams when the game's spectator view names ``teams``. A
unit's label is its bot level (``strong``, or ``strong+strong`` for a team); when the units carry
exactly two labels, the per-deal difference ``first label - second label`` (mean over the units
of each) is reported with an interval computed from the per-deal differences: both sides play
the same deals, so this is the interval that judges the gap between them.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.bots.registry import ALL_LEVELS
from app.games.base import JSON, InvalidOptions, Seating
from app.games.registry import ENGINES
from app.sim.play import Tally, Task, play_chunk

CHUNK = 500


@dataclass(frozen=True)
class SimConfig:
    """``levels`` has one bot level per seat; ``jobs`` 0 means every core."""

    game: str
    levels: tuple[str, ...]
    deals: int
    seed: int = 0
    jobs: int = 1
    stack: int = 1000
    options: Mapping[str, Any] = field(default_factory=dict)
    chunk: int = CHUNK


@dataclass(frozen=True)
class SimResult:
    config: SimConfig
    teams: tuple[tuple[int, ...], ...] | None
    labels: tuple[str, ...]
    tally: Tally
    jobs: int
    seconds: float

    @property
    def unit(self) -> str:
        return "chips" if self.tally.chips else "points"

    def shares(self) -> list[float | None]:
        """Each unit's share of all points; None for chips or any negative total."""
        totals = [moments.total for moments in self.tally.values]
        whole = sum(totals)
        if self.tally.chips or whole <= 0 or min(totals) < 0:
            return [None] * len(totals)
        return [total / whole for total in totals]

    def difference_labels(self) -> tuple[str, str] | None:
        distinct = list(dict.fromkeys(self.labels))
        return (distinct[0], distinct[1]) if len(distinct) == 2 else None

    def to_json(self) -> JSON:
        """Everything but ``speed`` depends only on the game, seats, deals, seed, options and chunk.
        The speed per core divides the deals by the processor time of the chunks."""
        tally, config = self.tally, self.config
        units = []
        for index, (moments, share) in enumerate(zip(tally.values, self.shares(), strict=True)):
            seats = list(self.teams[index]) if self.teams else [index]
            units.append({"unit": "team" if self.teams else "seat", "index": index,
                          "seats": seats, "bots": self.labels[index],
                          "mean": _number(moments.mean), "ci95": _number(moments.half_width),
                          "total": moments.total, "share": share, "wins": tally.wins[index]})
        difference = None
        labels = self.difference_labels()
        if labels is not None:
            difference = {"first": labels[0], "second": labels[1],
                          "mean": _number(tally.difference.mean),
                          "ci95": _number(tally.difference.half_width)}
        return {
            "game": config.game, "seats": list(config.levels), "deals": tally.deals,
            "seed": config.seed, "options": dict(config.options), "stack": config.stack,
            "chunk": config.chunk, "unit": self.unit, "matches": tally.matches,
            "unfinished_matches": tally.unfinished, "units": units, "difference": difference,
            "speed": {"jobs": self.jobs, "seconds": self.seconds,
                      "deals_per_second": tally.deals / self.seconds if self.seconds else None,
                      "deals_per_second_per_core":
                          tally.deals / tally.seconds if tally.seconds else None},
        }


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def check_config(config: SimConfig) -> None:
    """Raises ``ValueError`` naming what is wrong."""
    if config.game not in ENGINES:
        raise ValueError(f"unknown game {config.game!r}; games are {sorted(ENGINES)}")
    engine = ENGINES[config.game]
    if not engine.min_seats <= len(config.levels) <= engine.max_seats:
        raise ValueError(f"{config.game} seats {engine.min_seats}..{engine.max_seats} players, "
                         f"got {len(config.levels)}")
    unknown = [level for level in config.levels if level not in ALL_LEVELS]
    if unknown:
        raise ValueError(f"unknown bot level(s) {unknown}; levels are {list(ALL_LEVELS)}")
    if config.deals < 1 or config.chunk < 1 or config.jobs < 0 or config.stack < 0:
        raise ValueError("deals and chunk must be at least 1, jobs and stack not negative")


def _teams(config: SimConfig) -> tuple[tuple[int, ...], ...] | None:
    """The teams as the game's spectator view names them, if it does. Raises ``ValueError`` if
    the options are refused or a match would be over before its first deal."""
    engine = ENGINES[config.game]
    players = len(config.levels)
    try:
        state = engine.start(config.options, Seating(players, 0, (config.stack,) * players))
    except InvalidOptions as error:
        raise ValueError(error.message) from error
    if engine.outcome(state) is not None:
        raise ValueError(f"a {config.game} match with stacks of {config.stack} is over before "
                         "it starts")
    teams = engine.view(state, None).get("teams")
    return tuple(tuple(team) for team in teams) if teams else None


Teams = tuple[tuple[int, ...], ...]


def plan(config: SimConfig) -> tuple[Teams | None, tuple[str, ...], list[Task]]:
    """The game's teams (None: every seat for itself), each unit's label, and the chunks."""
    check_config(config)
    teams = _teams(config)
    units = teams or tuple((seat,) for seat in range(len(config.levels)))
    labels = tuple("+".join(config.levels[seat] for seat in unit) for unit in units)
    distinct = list(dict.fromkeys(labels))
    sides = tuple(distinct.index(label) for label in labels) if len(distinct) == 2 else None
    work = [Task(config.game, config.levels, dict(config.options), config.stack, config.seed,
                 index, min(config.chunk, config.deals - start), units, sides)
            for index, start in enumerate(range(0, config.deals, config.chunk))]
    return teams, labels, work


def simulate(config: SimConfig) -> SimResult:
    """Play ``config.deals`` deals; the same config gives the same result for any ``jobs``."""
    teams, labels, work = plan(config)
    jobs = min(config.jobs or os.cpu_count() or 1, len(work))
    started = time.perf_counter()
    if jobs <= 1:
        tallies = [play_chunk(task) for task in work]
    else:
        with multiprocessing.get_context().Pool(jobs) as pool:
            tallies = pool.map(play_chunk, work, chunksize=1)
    seconds = time.perf_counter() - started
    total = Tally(len(labels))
    for tally in tallies:
        total.merge(tally)
    return SimResult(config, teams, labels, total, jobs, seconds)
