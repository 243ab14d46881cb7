"""Speed of the rules engines, one function per game.

Run ``python -m bench.engine`` (or ``python bench/engine.py``); each line reads ``name: value unit``.
Every game's function returns its measurements; ``main`` runs them all in turn.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from app.games.base import Seating
from app.games.cards import standard_deck

Measurement = tuple[str, float, str]


def _rate(work: Callable[[], int], seconds: float) -> float:
    """Units of ``work`` done per second, calling it repeatedly for about ``seconds``."""
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += work()
    return done / elapsed


def bench_hazari(seconds: float = 3.0, hands: int = 20) -> list[Measurement]:
    """Combination evaluations, whole random deals through the engine, and the enumeration of every
    valid arrangement of a 13-card hand."""
    from app.games.hazari import ENGINE
    from app.games.hazari.arrangements import valid_splits
    from app.games.hazari.combos import TRIPLE_KEYS, key_of

    rng = random.Random(1)
    deck = list(standard_deck())
    trios = [tuple(rng.sample(range(52), 3)) for _ in range(10_000)]
    groups = [rng.sample(deck, 3) for _ in range(10_000)]

    def table_lookups() -> int:
        for a, b, c in trios:
            TRIPLE_KEYS[(a * 52 + b) * 52 + c]
        return len(trios)

    def card_keys() -> int:
        for group in groups:
            key_of(group)
        return len(groups)

    def one_deal() -> int:
        state = ENGINE.start({}, Seating(players=4, first_dealer=rng.randrange(4)))
        rng.shuffle(deck)
        state = ENGINE.deal(state, deck).state
        for seat in range(4):
            state = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, rng)).state
        while ENGINE.has_auto_step(state):
            state = ENGINE.auto_step(state).state
        return 1

    times, counts = [], []
    for _ in range(hands):
        rng.shuffle(deck)
        start = time.perf_counter()
        counts.append(len(valid_splits(deck[:13])))
        times.append(time.perf_counter() - start)
    return [
        ("hazari.combo_eval_table", _rate(table_lookups, seconds / 3), "evaluations/s"),
        ("hazari.combo_eval_cards", _rate(card_keys, seconds / 3), "evaluations/s"),
        ("hazari.random_deal", _rate(one_deal, seconds), "deals/s"),
        ("hazari.enumerate_median", statistics.median(times) * 1000, "ms/hand"),
        ("hazari.enumerate_max", max(times) * 1000, "ms/hand"),
        ("hazari.valid_arrangements_median", statistics.median(counts), "splits/hand"),
        ("hazari.valid_arrangements_min", min(counts), "splits/hand"),
        ("hazari.valid_arrangements_max", max(counts), "splits/hand"),
    ]


def bench_azi(seconds: float = 3.0) -> list[Measurement]:
    """Whole random Azi deals through the engine (4 seats, 1000 chips each, a new table when one
    ends), and AZ-11 settlements of random pots."""
    from app.games.azi import ENGINE
    from app.games.azi.settlement import settle
    from app.games.cards import azi_deck

    rng = random.Random(1)
    deck = list(azi_deck())
    table = {"state": ENGINE.start({}, Seating(4, 0, (1000,) * 4))}
    pots = [([rng.randrange(10, 500) for _ in range(4)], rng.choice([0, 0, 120]),
             rng.randrange(4), {rng.randrange(4)}) for _ in range(10_000)]

    def one_deal() -> int:
        state = table["state"]
        if ENGINE.outcome(state) is not None:
            state = ENGINE.start({}, Seating(4, rng.randrange(4), (1000,) * 4))
        while ENGINE.has_auto_step(state):
            state = ENGINE.auto_step(state).state
        rng.shuffle(deck)
        state = ENGINE.deal(state, deck).state
        while not (ENGINE.needs_deck(state) or ENGINE.has_auto_step(state)
                   or ENGINE.outcome(state) is not None):
            seat = ENGINE.to_act(state)[0]
            state = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, rng)).state
        table["state"] = state
        return 1

    def settlements() -> int:
        for contributions, dead, winner, folded in pots:
            settle(contributions, dead, winner, folded - {winner}, "returned")
        return len(pots)

    return [
        ("azi.random_deal", _rate(one_deal, seconds), "deals/s"),
        ("azi.settlement", _rate(settlements, seconds / 3), "settlements/s"),
    ]


def bench_hasenpfeffer(seconds: float = 3.0) -> list[Measurement]:
    """Whole random Hasenpfeffer deals through the engine: auction, widow, trump, discard and six
    tricks (a thrown-in deal counts as one), every action a uniformly random legal one."""
    from app.games.cards import hasenpfeffer_deck
    from app.games.hasenpfeffer import ENGINE

    rng = random.Random(1)
    deck = list(hasenpfeffer_deck())
    forms = [ENGINE.make_options({}), ENGINE.make_options({"bidding": "pepper"})]

    def one_deal() -> int:
        state = ENGINE.start(rng.choice(forms), Seating(players=4, first_dealer=rng.randrange(4)))
        rng.shuffle(deck)
        state = ENGINE.deal(state, deck).state
        while not ENGINE.needs_deck(state) and ENGINE.outcome(state) is None:
            seat = ENGINE.to_act(state)[0]
            state = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, rng)).state
        return 1

    return [("hasenpfeffer.random_deal", _rate(one_deal, seconds), "deals/s")]


GAMES: list[Callable[[], list[Measurement]]] = [bench_hazari, bench_azi, bench_hasenpfeffer]


def main() -> None:
    for game in GAMES:
        for name, value, unit in game():
            print(f"{name}: {value:.6g} {unit}")


if __name__ == "__main__":
    main()
