"""The one loop that drives an engine through a match, for every caller: the room, the simulator,
the benchmarks, the replay and the tests.

An engine answers what is due next (:func:`next_step`); the driver performs it: a deal from the
caller's decks, a forced step, or the decision of the seat to act from the caller's chooser. The
room performs one step at a time with storage and timing around it; everything else plays whole
deals or matches with :meth:`Match.play_deal` and :meth:`Match.play_out`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar

from app.games.base import JSON, Engine, Outcome, Seating, Transition
from app.games.cards import Card
from app.games.events import Event

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True)
class DealNeeded:
    """A chance step: the next deal, from a shuffled deck."""


@dataclass(frozen=True)
class AutoStepDue:
    """A forced step that no player decides (a Hazari round shown, an Azi ante taken)."""


@dataclass(frozen=True)
class SeatsToAct:
    """The seats whose decision is awaited (more than one when they decide at once)."""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class MatchOver:
    outcome: Outcome


NextStep = DealNeeded | AutoStepDue | SeatsToAct | MatchOver


DEAL_NEEDED = DealNeeded()
AUTO_STEP_DUE = AutoStepDue()
_SEATS_TO_ACT: dict[tuple[int, ...], SeatsToAct] = {}


def next_step(engine: Engine[Any, Any], state: Any) -> NextStep:
    """What happens next in ``state``, as one answer."""
    outcome = engine.outcome(state)
    if outcome is not None:
        return MatchOver(outcome)
    if engine.needs_deck(state):
        return DEAL_NEEDED
    if engine.has_auto_step(state):
        return AUTO_STEP_DUE
    seats = engine.to_act(state)
    if not seats:
        raise RuntimeError(f"{engine.name}: no step is due in {engine.view(state, None)}")
    # The answers are values: the few distinct ones are made once (this runs at every step of every
    # simulated deal).
    answer = _SEATS_TO_ACT.get(seats)
    return answer if answer is not None else _SEATS_TO_ACT.setdefault(seats, SeatsToAct(seats))


Decks = Callable[[], Sequence[Card]]
"""The next deck to deal, an ordering of the engine's full deck, top first."""

PickSeat = Callable[[tuple[int, ...]], int]
"""Which of the seats to act decides now (when several decide at once, as in Hazari)."""


def first_seat(seats: tuple[int, ...]) -> int:
    return seats[0]


class Match(Generic[S, A]):
    """A match in progress: its engine and state, moved on one step at a time."""

    def __init__(self, engine: Engine[S, A], state: S) -> None:
        self.engine = engine
        self.state = state

    @classmethod
    def start(cls, engine: Engine[S, A], options: Mapping[str, Any], seating: Seating) -> Self:
        return cls(engine, engine.start(options, seating))

    def next(self) -> NextStep:
        return next_step(self.engine, self.state)

    def _moved(self, transition: Transition[S]) -> tuple[Event, ...]:
        self.state = transition.state
        return transition.events

    def deal(self, deck: Sequence[Card]) -> tuple[Event, ...]:
        return self._moved(self.engine.deal(self.state, deck))

    def auto_step(self) -> tuple[Event, ...]:
        return self._moved(self.engine.auto_step(self.state))

    def act(self, seat: int, action: A) -> tuple[Event, ...]:
        """``seat``'s action; raises the engine's :class:`~app.games.base.Rejection` and changes
        nothing when it is refused."""
        return self._moved(self.engine.apply(self.state, seat, action))

    def perform(self, due: NextStep, decks: Decks, choose: Callable[[S, int], A],
                pick: PickSeat = first_seat) -> tuple[Event, ...]:
        """Perform ``due``, the answer of :meth:`next` for the present state: a deal from ``decks``,
        the forced step, or the action ``choose(state, seat)`` of the seat ``pick`` names."""
        if isinstance(due, SeatsToAct):
            seat = pick(due.seats)
            return self.act(seat, choose(self.state, seat))
        if isinstance(due, DealNeeded):
            return self.deal(decks())
        if isinstance(due, AutoStepDue):
            return self.auto_step()
        raise RuntimeError(f"{self.engine.name}: the match is over")

    def step(self, decks: Decks, choose: Callable[[S, int], A],
             pick: PickSeat = first_seat) -> tuple[Event, ...]:
        """Perform whatever is due; by default the first seat to act decides."""
        return self.perform(self.next(), decks, choose, pick)

    def play_forced(self) -> list[Event]:
        """Perform the forced steps due one after another (a Hazari deal shown round by round);
        the events."""
        events: list[Event] = []
        while isinstance(self.next(), AutoStepDue):
            events.extend(self.auto_step())
        return events

    def play_deal(self, decks: Decks, choose: Callable[[S, int], A],
                  pick: PickSeat = first_seat) -> list[Event]:
        """Play until a deal is scored (its ``deal_end`` event) or the match ends; the events."""
        events: list[Event] = []
        while not isinstance(due := self.next(), MatchOver):
            stepped = self.perform(due, decks, choose, pick)
            events.extend(stepped)
            if stepped and any(event["type"] == "deal_end" for event in stepped):
                break
        return events

    def play_out(self, decks: Decks, choose: Callable[[S, int], A],
                 pick: PickSeat = first_seat) -> Outcome:
        while not isinstance(due := self.next(), MatchOver):
            self.perform(due, decks, choose, pick)
        return due.outcome


class RecordedMatch(Match[S, A]):
    """A match that keeps its log in the form :func:`app.games.replay.replay` reads back: the decks
    by deal number and the steps, ``(None, {"kind": "deal", "deal": n})``, ``(None, {"kind":
    "auto"})`` or ``(seat, action)`` with the action in its JSON form. A refused step is not
    logged."""

    def __init__(self, engine: Engine[S, A], state: S, options: Mapping[str, Any],
                 seating: Seating) -> None:
        super().__init__(engine, state)
        self.options = dict(options)
        self.seating = seating
        self.decks: dict[int, tuple[Card, ...]] = {}
        self.steps: list[tuple[int | None, JSON]] = []

    @classmethod
    def start(cls, engine: Engine[S, A], options: Mapping[str, Any], seating: Seating) -> Self:
        full = engine.make_options(options)
        return cls(engine, engine.start(full, seating), full, seating)

    def deal(self, deck: Sequence[Card]) -> tuple[Event, ...]:
        events = super().deal(deck)
        number = len(self.decks) + 1
        self.decks[number] = tuple(deck)
        self.steps.append((None, {"kind": "deal", "deal": number}))
        return events

    def auto_step(self) -> tuple[Event, ...]:
        events = super().auto_step()
        self.steps.append((None, {"kind": "auto"}))
        return events

    def act(self, seat: int, action: A) -> tuple[Event, ...]:
        events = super().act(seat, action)
        self.steps.append((seat, self.engine.action_to_json(action)))
        return events


def choices_from_views(engine: Engine[S, A], decide: Callable[[int, JSON, list[JSON]], Any]
                       ) -> Callable[[S, int], A]:
    """A chooser for a player who sees what a client sees: ``decide(seat, view, legal)`` answers
    from the seat's view and legal actions, and its answer is read as a client's message is."""

    def choose(state: S, seat: int) -> A:
        return engine.parse_action(decide(seat, engine.view(state, seat), engine.legal_actions(state, seat)))

    return choose


def random_choices(engine: Engine[S, A], rng: random.Random) -> Callable[[S, int], A]:
    """A chooser that picks a uniformly random legal action (bots, simulators, tests)."""
    return lambda state, seat: engine.random_action(state, seat, rng)


def shuffled_decks(engine: Engine[Any, Any], rng: random.Random) -> Decks:
    """Decks shuffled by ``rng``: seeded, so a run can be repeated."""
    deck = list(engine.full_deck())

    def next_deck() -> tuple[Card, ...]:
        rng.shuffle(deck)
        return tuple(deck)

    return next_deck
