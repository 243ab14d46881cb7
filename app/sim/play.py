"""One chunk of a simulation: deals played through the match driver exactly as the room plays them.

Each deal from a deck shuffled by a seeded ``random.Random``, the forced steps when they are due,
and for the first seat to act ``bot.choose(view, legal, rng)`` read as a client's message. A
finished match is followed by a new one (first dealer drawn at random; every seat with the
starting stack). Each ``deal_end`` event counts one deal.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.bots.base import Bot
from app.bots.registry import make_bot
from app.games.base import JSON, Engine, Seating
from app.games.driver import Match, choices_from_views, shuffled_decks
from app.games.events import Event
from app.games.registry import ENGINES
from app.sim.stats import Moments


@dataclass(frozen=True)
class Task:
    """What a chunk plays: ``deals`` deals of ``game`` with a seed from ``seed`` and ``index``.
    ``teams`` lists the seats of each scoring unit; ``sides`` gives each unit's side (0 or 1) for
    the per-deal difference between two kinds of player, or is None."""

    game: str
    levels: tuple[str, ...]
    options: Mapping[str, Any]
    stack: int
    seed: int
    index: int
    deals: int
    teams: tuple[tuple[int, ...], ...]
    sides: tuple[int, ...] | None


@dataclass
class Tally:
    """Per unit (seat or team): per-deal values and matches won; the side difference; and the
    processor time spent (``seconds``)."""

    units: int
    deals: int = 0
    matches: int = 0
    unfinished: int = 0
    chips: bool = False
    seconds: float = 0.0
    values: list[Moments] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    difference: Moments = field(default_factory=Moments)

    def __post_init__(self) -> None:
        self.values = self.values or [Moments() for _ in range(self.units)]
        self.wins = self.wins or [0] * self.units

    def merge(self, other: Tally) -> None:
        self.deals += other.deals
        self.matches += other.matches
        self.unfinished += other.unfinished
        self.chips = self.chips or other.chips
        self.seconds += other.seconds
        for mine, theirs in zip(self.values, other.values, strict=True):
            mine.merge(theirs)
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.difference.merge(other.difference)


def seed_for(seed: int, index: int, purpose: str) -> str:
    """The seed of chunk ``index`` for ``purpose`` (``deck`` or ``bots``): independent of the
    number of jobs."""
    return f"cardroom-simulate:{seed}:{index}:{purpose}"


class Table:
    """A match in progress with its bots; the tally of what it produced."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.engine: Engine[Any, Any] = ENGINES[task.game]
        self.bots: list[Bot] = [make_bot(task.game, level) for level in task.levels]
        self.deck_rng = random.Random(seed_for(task.seed, task.index, "deck"))
        self.bot_rng = random.Random(seed_for(task.seed, task.index, "bots"))
        self.decks = shuffled_decks(self.engine, self.deck_rng)
        self.choose = choices_from_views(self.engine, self.decide)
        self.tally = Tally(len(task.teams))
        self.match_deals = 0
        self.match = self.new_match()

    @property
    def state(self) -> Any:
        return self.match.state

    def new_match(self) -> Match[Any, Any]:
        players = len(self.task.levels)
        seating = Seating(players, self.deck_rng.randrange(players), (self.task.stack,) * players)
        self.match_deals = 0
        return Match.start(self.engine, self.task.options, seating)

    def decide(self, seat: int, view: JSON, legal: list[JSON]) -> JSON:
        return self.bots[seat].choose(view, legal, self.bot_rng)

    def step(self) -> tuple[Event, ...]:
        return self.match.step(self.decks, self.choose)

    def record(self, events: tuple[Event, ...]) -> None:
        for event in events:
            if event["type"] == "deal_end":
                self.record_deal(event["points"])
            elif event["type"] == "chips":
                self.tally.chips = True
        outcome = self.engine.outcome(self.state)
        if outcome is not None:
            self.tally.matches += 1
            for unit in outcome.winners:
                self.tally.wins[unit] += 1
            self.match = self.new_match()

    def record_deal(self, points: list[int]) -> None:
        tally = self.tally
        tally.deals += 1
        self.match_deals += 1
        for moments, value in zip(tally.values, points, strict=True):
            moments.add(value)
        sides = self.task.sides
        if sides is not None:
            means = [sum(v for v, s in zip(points, sides, strict=True) if s == side)
                     / sides.count(side) for side in (0, 1)]
            tally.difference.add(means[0] - means[1])


def play_chunk(task: Task) -> Tally:
    """Play until ``task.deals`` deals are scored. A match then in progress is not played on: it
    counts as unfinished."""
    started = time.process_time()
    table = Table(task)
    while table.tally.deals < task.deals:
        table.record(table.step())
    if table.match_deals:
        table.tally.unfinished += 1
    table.tally.seconds = time.process_time() - started
    return table.tally
