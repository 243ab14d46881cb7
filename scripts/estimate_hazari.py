"""Estimate the Hazari round win rates that the ``strong`` bot uses; write them as JSON.

Plays ``--deals`` seeded deals in memory. Every seat arranges its hand with the ``--model``
player: ``greedy`` (best triple first), ``strong`` (the strong bot with the win rates of the
file given by ``--tables``, i.e. the previous iteration) or ``mixed`` (each seat of each deal
draws greedy or strong with equal chance). Seat 0 leads round 1, so a seat's round-1 exposure
position is its number; later rounds are led by the previous winner under ``later_wins``
(HZ-6, HZ-7). For each seat and round it records the best key among the three opponents' groups,
their points, and whether a group of that key would win a tie under each tie rule. The format is
described in ``app/bots/hazari_tables.py``.

The stored file is the second of two iterations (from the repository root)::

    nice python scripts/estimate_hazari.py --model greedy --deals 200000 --seed 1 \\
        --out /tmp/hazari_greedy.json
    nice python scripts/estimate_hazari.py --model strong --tables /tmp/hazari_greedy.json \\
        --deals 60000 --seed 2 --jobs 2 --out app/bots/data/hazari_win_rates.json

Deals are split into chunks of 1000 with a seed per chunk, so ``--jobs`` does not change the result.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.bots import hazari_tables  # noqa: E402
from app.bots.hazari import greedy_arrangement, strong_arrangement  # noqa: E402
from app.bots.hazari_tables import COUNT_FIELDS, POSITIONS, ROUNDS, table_name  # noqa: E402
from app.games.cards import Card, standard_deck  # noqa: E402
from app.games.hazari.arrangements import Groups  # noqa: E402
from app.games.hazari.combos import TRIPLE_KEYS, card_points, key_of  # noqa: E402

CHUNK = 1000
SEATS = 4
KEYS = sorted(set(TRIPLE_KEYS))
KEY_INDEX = {key: index for index, key in enumerate(KEYS)}
TABLES = ([table_name(1, p) for p in range(POSITIONS)]
          + [table_name(r, None) for r in range(2, ROUNDS + 1)])
MODELS = ("greedy", "strong", "mixed")

Counts = npt.NDArray[np.int64]
Arranger = Callable[[Sequence[Card], int], Groups]


def _arranger(model: str, rng: random.Random) -> Arranger:
    def greedy(hand: Sequence[Card], position: int) -> Groups:
        return greedy_arrangement(hand)

    def strong(hand: Sequence[Card], position: int) -> Groups:
        return strong_arrangement(hand, position)

    def mixed(hand: Sequence[Card], position: int) -> Groups:
        return strong(hand, position) if rng.random() < 0.5 else greedy(hand, position)

    return {"greedy": greedy, "strong": strong, "mixed": mixed}[model]


def _record(counts: Counts, table: int, keys: list[int], points: list[int], order: list[int],
            place: int) -> None:
    """One sample: the seat exposing at ``place`` of ``order`` against the three others."""
    others = [i for i in range(SEATS) if i != place]
    best = max(keys[order[i]] for i in others)
    taken = sum(points[order[i]] for i in others)
    tied = [i for i in others if keys[order[i]] == best]
    column = KEY_INDEX[best]
    row = counts[table]
    row[0, column] += 1
    row[3, column] += taken
    if all(i < place for i in tied):
        row[1, column] += 1
        row[4, column] += taken
    if all(i > place for i in tied):
        row[2, column] += 1
        row[5, column] += taken


def _play(counts: Counts, arrangements: list[Groups]) -> None:
    leader = 0
    for number in range(ROUNDS):
        groups = [arrangement[number] for arrangement in arrangements]
        keys = [key_of(group) for group in groups]
        points = [sum(map(card_points, group)) for group in groups]
        order = [(leader + i) % SEATS for i in range(SEATS)]
        for place in range(SEATS):
            _record(counts, place if number == 0 else POSITIONS + number - 1, keys, points, order,
                    place)
        winner = order[0]
        for seat in order[1:]:
            if keys[seat] >= keys[winner]:
                winner = seat
        leader = winner


def run_chunk(job: tuple[str, int, int, int]) -> Counts:
    model, seed, index, deals = job
    rng = random.Random(f"estimate-hazari:{seed}:{index}")
    arrange = _arranger(model, rng)
    counts = np.zeros((len(TABLES), len(COUNT_FIELDS), len(KEYS)), dtype=np.int64)
    deck = list(standard_deck())
    for _ in range(deals):
        rng.shuffle(deck)
        hands = [deck[seat::SEATS] for seat in range(SEATS)]
        _play(counts, [arrange(hand, seat) for seat, hand in enumerate(hands)])
    return counts


def estimate(model: str, deals: int, seed: int, jobs: int) -> Counts:
    work = [(model, seed, index, min(CHUNK, deals - start))
            for index, start in enumerate(range(0, deals, CHUNK))]
    if jobs <= 1:
        parts = [run_chunk(job) for job in work]
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(run_chunk, work, chunksize=1)
    total: Counts = np.sum(parts, axis=0)
    return total


def _provenance(model: str, tables: Path) -> dict[str, object]:
    if model == "greedy":
        return {"model": "greedy"}
    previous = json.loads(tables.read_text(encoding="utf-8"))
    return {"model": model, "strong_tables": previous["made"]}


def to_json(counts: Counts, made: dict[str, object]) -> dict[str, object]:
    samples = counts[:, 0].sum(axis=1)
    tables = {}
    for index, name in enumerate(TABLES):
        entry: dict[str, object] = {"samples": int(samples[index])}
        for field, column in zip(COUNT_FIELDS, counts[index], strict=True):
            entry[field] = [int(value) for value in column]
        tables[name] = entry
    return {"about": "Hazari round win rates for the strong bot; format in "
                     "app/bots/hazari_tables.py", "made": made, "keys": KEYS, "tables": tables}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=MODELS, default="greedy")
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--tables", type=Path, default=hazari_tables.DATA_FILE,
                        help="win rates used by the strong model (the previous iteration)")
    parser.add_argument("--out", type=Path, default=hazari_tables.DATA_FILE)
    args = parser.parse_args(argv)
    if args.model != "greedy":
        hazari_tables.load_data.cache_clear()
        hazari_tables.round_values.cache_clear()
        hazari_tables.DATA_FILE = args.tables
        for position in (*range(POSITIONS), None):
            hazari_tables.round_values(position)
    started = time.perf_counter()
    counts = estimate(args.model, args.deals, args.seed, args.jobs)
    made: dict[str, object] = {
        "by": "scripts/estimate_hazari.py", "seed": args.seed, "deals": args.deals,
        "tie_rule_of_play": "later_wins", **_provenance(args.model, args.tables),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(to_json(counts, made), separators=(",", ":")) + "\n",
                        encoding="utf-8")
    seconds = time.perf_counter() - started
    print(f"{args.deals} deals ({args.model}) in {seconds:.1f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
