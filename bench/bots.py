"""Speed of the bots, and of every registered engine played by ``random`` bots.

Run ``python -m bench.bots`` (``--hands``, ``--deals`` to change the sample sizes); each line
reads ``name: value unit``. The Hazari ``strong`` time is per hand (one search over every valid
arrangement of 13 cards, from a shuffled deck), in wall-clock time and in processor time (``cpu``,
which other jobs on the machine do not inflate); engine speeds come from the simulator on one
core, in deals per second of processor time (``cardroom simulate --game G --seats random,...``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from app.games.cards import Card, standard_deck

Measurement = tuple[str, float, str]


def _times(arrange: Callable[[Sequence[Card]], object], hands: int, seed: int
           ) -> tuple[list[float], list[float]]:
    """Wall-clock and processor seconds per hand."""
    rng = random.Random(seed)
    deck = list(standard_deck())
    arrange(deck[:13])  # loads the win rates
    wall, cpu = [], []
    for _ in range(hands):
        rng.shuffle(deck)
        start, start_cpu = time.perf_counter(), time.process_time()
        arrange(deck[:13])
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def _p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def _summary(name: str, times: tuple[list[float], list[float]]) -> list[Measurement]:
    wall, cpu = times
    return [(f"{name}_median", statistics.median(wall) * 1000, "ms/hand"),
            (f"{name}_p95", _p95(wall) * 1000, "ms/hand"),
            (f"{name}_max", max(wall) * 1000, "ms/hand"),
            (f"{name}_cpu_median", statistics.median(cpu) * 1000, "ms/hand"),
            (f"{name}_cpu_p95", _p95(cpu) * 1000, "ms/hand")]


def bench_hazari_bots(hands: int = 500) -> list[Measurement]:
    """Time per hand of the strong search, the greedy rule and a uniform random arrangement."""
    from app.bots.hazari import greedy_arrangement, strong_arrangement
    from app.games.hazari.arrangements import random_arrangement

    rng = random.Random(2)
    return [*_summary("hazari.strong", _times(strong_arrangement, hands, 1)),
            *_summary("hazari.greedy", _times(greedy_arrangement, hands, 1)),
            *_summary("hazari.random",
                      _times(lambda hand: random_arrangement(hand, rng), hands, 1))]


def bench_engines(deals: int = 5000) -> list[Measurement]:
    """Deals per second on one core, every seat a ``random`` bot (4 seats; Azi at 4 seats with
    1000 chips each)."""
    from app.games.registry import ENGINES
    from app.sim.simulate import SimConfig, simulate

    found = []
    for name in sorted(ENGINES):
        result = simulate(SimConfig(name, ("random",) * 4, deals=deals, seed=1, jobs=1))
        speed = result.to_json()["speed"]["deals_per_second_per_core"]
        found.append((f"{name}.random_bots", speed, "deals/s per core"))
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="bot and simulator speed")
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--deals", type=int, default=5000)
    args = parser.parse_args(argv)
    for name, value, unit in [*bench_hazari_bots(args.hands), *bench_engines(args.deals)]:
        print(f"{name}: {value:.6g} {unit}")


if __name__ == "__main__":
    main()
