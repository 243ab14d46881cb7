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
from app.games.driver import Match, MatchOver, random_choices, shuffled_decks

Measurement = tuple[str, float, str]


def _rate(work: Callable[[], int], seconds: float) -> float:
    """Units of ``work`` done per second of this process's processor time (one core, whatever else
    the machine runs), calling it repeatedly for about ``seconds``."""
    done = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
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

    decks, choose = shuffled_decks(ENGINE, rng), random_choices(ENGINE, rng)

    def one_deal() -> int:
        Match.start(ENGINE, {}, Seating(players=4, first_dealer=rng.randrange(4))).play_deal(decks, choose)
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
    from app.games.azi.pot import settle

    rng = random.Random(1)
    decks, choose = shuffled_decks(ENGINE, rng), random_choices(ENGINE, rng)
    table = {"match": Match.start(ENGINE, {}, Seating(4, 0, (1000,) * 4))}
    pots = [([rng.randrange(10, 500) for _ in range(4)], rng.choice([0, 0, 120]),
             rng.randrange(4), {rng.randrange(4)}) for _ in range(10_000)]

    def one_deal() -> int:
        if isinstance(table["match"].next(), MatchOver):
            table["match"] = Match.start(ENGINE, {}, Seating(4, rng.randrange(4), (1000,) * 4))
        table["match"].play_deal(decks, choose)
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
    from app.games.hasenpfeffer import ENGINE

    rng = random.Random(1)
    decks, choose = shuffled_decks(ENGINE, rng), random_choices(ENGINE, rng)
    forms = [ENGINE.make_options({}), ENGINE.make_options({"bidding": "pepper"})]

    def one_deal() -> int:
        Match.start(ENGINE, rng.choice(forms), Seating(players=4, first_dealer=rng.randrange(4))).play_deal(
            decks, choose)
        return 1

    return [("hasenpfeffer.random_deal", _rate(one_deal, seconds), "deals/s")]


GAMES: list[Callable[[], list[Measurement]]] = [bench_hazari, bench_azi, bench_hasenpfeffer]


def main() -> None:
    for game in GAMES:
        for name, value, unit in game():
            print(f"{name}: {value:.6g} {unit}")


if __name__ == "__main__":
    main()
