"""The one interface every game engine implements, and the rejections it raises.

A game is ``(options, seating, decks, actions)``: an engine is pure and deterministic, so replaying
the same decks and actions gives the same state. States are frozen values; every transition returns
a new state and the events it caused. Nothing here does I/O.

The life of a match, as ``app/games/driver.py`` drives it for the room and every other caller::

    state = engine.start(options, seating)
    while engine.outcome(state) is None:
        if engine.needs_deck(state):       # a chance step: a new deal
            state = engine.deal(state, shuffled_deck).state
        elif engine.has_auto_step(state):  # a forced step the server performs (a Hazari round shown)
            state = engine.auto_step(state).state
        else:                              # a decision of a seat in engine.to_act(state)
            state = engine.apply(state, seat, engine.parse_action(message)).state

The driver answers the same questions as one typed value (``next_step``); nothing else loops.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from app.games.events import Event

if TYPE_CHECKING:
    from app.games.cards import Card

JSON = dict[str, Any]


class Rejection(Exception):
    """Why an action or an option was refused. ``code`` is stable; ``message`` quotes the input."""

    code = "action/rejected"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class InvalidAction(Rejection):
    """Malformed input: not an action of this game, a card that does not exist, a wrong shape."""

    code = "action/invalid"


class IllegalAction(Rejection):
    """A well-formed action that the rules forbid now."""

    code = "action/illegal"


class NotYourTurn(Rejection):
    code = "action/not_your_turn"


class GameOver(Rejection):
    code = "action/game_over"


class InvalidOptions(Rejection):
    code = "options/invalid"


@dataclass(frozen=True)
class OptionSpec:
    """One table option: its default and the values it allows.

    ``choices`` closes the set; otherwise the value is an int within ``minimum``/``maximum`` and a
    multiple of ``multiple_of``, and the maximum must be given: every number a table holds is bounded,
    so that every frame and every row it reaches can hold it. A ``default`` of None means "derived
    from other options" (the engine fills it in ``make_options``).
    """

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    multiple_of: int | None = None

    def __post_init__(self) -> None:
        if self.choices is None and (self.minimum is None or self.maximum is None):
            raise ValueError(f"option {self.name!r} needs a minimum and a maximum")

    def check(self, value: Any) -> Any:
        if self.choices is not None:
            if value in self.choices and type(value) is type(self.choices[0]):
                return value
            raise InvalidOptions(f"option {self.name!r} must be one of {list(self.choices)}, got {value!r}")
        if type(value) is not int:
            raise InvalidOptions(f"option {self.name!r} must be a whole number, got {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(f"option {self.name!r} must be at least {self.minimum}, got {value}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(f"option {self.name!r} must be at most {self.maximum}, got {value}")
        if self.multiple_of is not None and value % self.multiple_of:
            raise InvalidOptions(
                f"option {self.name!r} must be a multiple of {self.multiple_of}, got {value}")
        return value

    def to_json(self) -> JSON:
        allowed: JSON = {}
        if self.choices is not None:
            allowed["choices"] = list(self.choices)
        for key in ("minimum", "maximum", "multiple_of"):
            if getattr(self, key) is not None:
                allowed[key] = getattr(self, key)
        return {"name": self.name, "default": self.default, "description": self.description,
                "allowed": allowed}


def read_options(specs: Sequence[OptionSpec], raw: Mapping[str, Any]) -> dict[str, Any]:
    """The full options: each given value checked, every missing one at its default; unknown names
    are refused."""
    known = {spec.name for spec in specs}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise InvalidOptions(f"unknown option(s) {unknown}; this game has {sorted(known)}")
    return {spec.name: spec.check(raw[spec.name]) if spec.name in raw else spec.default for spec in specs}


@dataclass(frozen=True)
class Seating:
    """Who plays: ``players`` seats numbered from 0, the first dealer (or button), and for chip games
    each seat's stack at the start."""

    players: int
    first_dealer: int
    stacks: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Outcome:
    """The end of a match. ``winners`` and ``totals`` are per seat, or per team when ``teams`` is
    given (team ``i`` is the seats ``teams[i]``)."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...] | None = None

    def to_json(self) -> JSON:
        result: JSON = {"winners": list(self.winners), "totals": list(self.totals)}
        if self.teams is not None:
            result["teams"] = [list(team) for team in self.teams]
        return result


S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True)
class Transition(Generic[S]):
    """A new state and what happened on the way (``app/games/events.py``: each kind typed; every
    engine reports ``deal_end`` when a deal is scored, ``match_end`` when the match is over,
    ``chips`` for every change of a chip stack and ``trick`` when a trick is complete, after which
    the room holds back a bot's next card for a moment)."""

    state: S
    events: tuple[Event, ...] = field(default=())


class SessionEnd(Enum):
    """How a chip game's session ends."""

    OUTCOME = "outcome"
    """By its rules alone (its outcome); nobody closes it before."""
    CLOSE = "close"
    """It has no end of its own: game follows game until the table is closed (by its owner between
    games, by an operator at any time) or its rules stop it (too few players can pay)."""


@dataclass(frozen=True)
class MoneyRules(Generic[S]):
    """What a game played for chips declares, so that the room names no game: the ante a player must
    hold to sit down, read from the match's options; whether a player brings a buy-in (a table stack
    within the room's range); how its session ends; and ``close(state, during_game)``, the step that
    ends the session (``during_game``: an operator closes it in the middle of a game, which is then
    void and its pot returned)."""

    ante: Callable[[Mapping[str, Any]], int]
    buy_in: bool
    session_end: SessionEnd
    close: Callable[[S, bool], Transition[S]]


class Engine(Protocol[S, A]):
    """The rules of one game. Implementations live in ``app/games/<game>/`` and import nothing from
    the server."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    option_specs: tuple[OptionSpec, ...]

    @property
    def chips(self) -> MoneyRules[S] | None:
        """The money rules of a game played for chips; None for a game without chips."""

    @property
    def drafts(self) -> Callable[[S, int, Any], list[list[str]]] | None:
        """For a game whose decision is an arrangement made over time (Hazari): the check of a seat's
        arrangement in the making, ``check(state, seat, raw_groups)``, which answers the groups as card
        texts or raises a :class:`Rejection`; None for the other games."""

    def full_deck(self) -> tuple[Card, ...]:
        """Every card of the game's pack, in a fixed order."""

    def make_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The validated options with every default filled in; raises :class:`InvalidOptions`."""

    def start(self, options: Mapping[str, Any], seating: Seating) -> S:
        """A new match, waiting for its first deck."""

    def needs_deck(self, state: S) -> bool:
        """Whether the next step is a new deal."""

    def deal(self, state: S, deck: Sequence[Card]) -> Transition[S]:
        """Deal ``deck`` (an ordering of :meth:`full_deck`, top first)."""

    def has_auto_step(self, state: S) -> bool:
        """Whether a forced step that no player decides is due."""

    def auto_step(self, state: S) -> Transition[S]:
        """Perform the forced step."""

    def to_act(self, state: S) -> tuple[int, ...]:
        """The seats whose decision is awaited."""

    def parse_action(self, raw: Any) -> A:
        """A typed action from its JSON form; raises :class:`InvalidAction`."""

    def action_to_json(self, action: A) -> JSON:
        """The JSON form of an action; ``parse_action`` reads it back."""

    def legal_actions(self, state: S, seat: int) -> list[JSON]:
        """What ``seat`` may send now, in the contract's notation (ranges as ``min``/``max``)."""

    def random_action(self, state: S, seat: int, rng: random.Random) -> A:
        """A uniformly random legal action of ``seat`` (used by bots, simulators and tests)."""

    def apply(self, state: S, seat: int, action: A) -> Transition[S]:
        """Check, then apply. Raises a :class:`Rejection` and changes nothing if not allowed."""

    def view(self, state: S, seat: int | None) -> JSON:
        """What ``seat`` may know (``None``: a spectator). Holds ``phase``, ``to_act``, ``hand``
        (own cards, when seated) and ``scores``."""

    def hidden_cards(self, state: S, seat: int | None) -> frozenset[Card]:
        """The cards ``seat`` may not know now (for leak checks)."""

    def outcome(self, state: S) -> Outcome | None:
        """The result once the match is over, else None."""
