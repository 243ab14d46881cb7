"""Time per decision of the Azi and Hasenpfeffer ``strong`` bots.

Run ``python -m bench.bots_tables`` (``--deals`` to change the sample; ``--seats`` for the Azi
table size). The strong bot sits in seat 0 (Hasenpfeffer: seats 0 and 2) against ``greedy``
bots; every call of its ``choose`` is timed, on the view and legal list after a JSON round trip
as a client would receive them, in wall-clock and in processor time (``cpu_``, not inflated by
other jobs on the machine). Each line reads ``name: value unit``; ``.all`` covers every decision,
the other lines one kind of decision (``play``, ``bet`` = bet/call/raise/fold, ...).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from app.bots.registry import make_bot
from app.games.base import JSON, Engine, Seating
from app.games.driver import DealNeeded, Match, MatchOver, choices_from_views, shuffled_decks
from app.games.registry import ENGINES

Measurement = tuple[str, float, str]
PHASE_NAMES = {"betting": "bet", "bidding": "bid"}


def decision_times(game: str, levels: Sequence[str], deals: int, seed: int
                   ) -> dict[str, list[tuple[float, float]]]:
    """Wall-clock and processor seconds per ``strong`` decision by phase, over ``deals``
    deals."""
    engine: Engine[Any, Any] = ENGINES[game]
    rng = random.Random(seed)
    bots = [make_bot(game, level) for level in levels]
    players = len(levels)
    times: dict[str, list[tuple[float, float]]] = defaultdict(list)

    def decide(seat: int, view: JSON, legal: list[JSON]) -> JSON:
        view, legal = json.loads(json.dumps(view)), json.loads(json.dumps(legal))
        started, cpu = time.perf_counter(), time.process_time()
        action = bots[seat].choose(view, legal, rng)
        if levels[seat] == "strong":
            phase: str = view["phase"]
            times[PHASE_NAMES.get(phase, phase)].append(
                (time.perf_counter() - started, time.process_time() - cpu))
        return action

    decks, choose = shuffled_decks(engine, rng), choices_from_views(engine, decide)
    match = Match.start(engine, {}, Seating(players, 0, (1000,) * players))
    dealt = 0
    while dealt < deals:
        due = match.next()
        if isinstance(due, MatchOver):
            match = Match.start(engine, {}, Seating(players, rng.randrange(players), (1000,) * players))
            continue
        dealt += isinstance(due, DealNeeded)
        match.perform(due, decks, choose)
    times["all"] = [seconds for values in list(times.values()) for seconds in values]
    return times


def summary(name: str, times: list[tuple[float, float]]) -> list[Measurement]:
    found: list[Measurement] = [(f"{name}.decisions", len(times), "count")]
    for prefix, column in (("", 0), ("cpu_", 1)):
        ordered = sorted(pair[column] for pair in times)
        found += [(f"{name}.{prefix}p50", statistics.median(ordered) * 1000, "ms/decision"),
                  (f"{name}.{prefix}p95", ordered[int(0.95 * (len(ordered) - 1))] * 1000,
                   "ms/decision"),
                  (f"{name}.{prefix}max", ordered[-1] * 1000, "ms/decision")]
    return found


def bench(deals: int, azi_seats: int, seed: int = 1) -> list[Measurement]:
    found: list[Measurement] = []
    tables = {"azi": ("strong",) + ("greedy",) * (azi_seats - 1),
              "hasenpfeffer": ("strong", "greedy", "strong", "greedy")}
    for game, levels in tables.items():
        times = decision_times(game, levels, deals, seed)
        for phase in ["all", *sorted(key for key in times if key != "all")]:
            found.extend(summary(f"{game}.strong.{phase}", times[phase]))
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="time per decision of the Azi and "
                                                 "Hasenpfeffer strong bots")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seats", type=int, default=3, help="Azi players")
    args = parser.parse_args(argv)
    for name, value, unit in bench(args.deals, args.seats):
        print(f"{name}: {value:.4g} {unit}")


if __name__ == "__main__":
    main()
