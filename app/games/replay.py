"""Rebuilding a match from its log: the same options, seating, decks and actions give the same state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.games.base import JSON, Engine, Seating, Transition
from app.games.cards import Card


def replay_transition(engine: Engine[Any, Any], state: Any, seat: int | None, action: JSON,
                      decks: Mapping[int, Sequence[Card]]) -> Transition[Any]:
    """Apply one logged step: ``{"kind": "deal", "deal": n}`` deals deck ``n``, ``{"kind": "auto"}``
    is a forced step, ``{"kind": "close"}`` closes a table (games that have tables, such as Azi);
    anything else is ``seat``'s action. The new state and the step's events."""
    if seat is None and action.get("kind") == "deal":
        return engine.deal(state, decks[int(action["deal"])])
    if seat is None and action.get("kind") == "auto":
        return engine.auto_step(state)
    if seat is None and action.get("kind") == "close":
        return engine.close(state)  # type: ignore[attr-defined, no-any-return]
    if seat is None:
        raise ValueError(f"a logged step without a seat must be a deal or an automatic step: {action}")
    return engine.apply(state, seat, engine.parse_action(action))


def replay_step(engine: Engine[Any, Any], state: Any, seat: int | None, action: JSON,
                decks: Mapping[int, Sequence[Card]]) -> Any:
    """The state after one logged step (:func:`replay_transition`)."""
    return replay_transition(engine, state, seat, action, decks).state


def replay(engine: Engine[Any, Any], options: Mapping[str, Any], seating: Seating,
           decks: Mapping[int, Sequence[Card]], steps: Iterable[tuple[int | None, JSON]]) -> Any:
    state = engine.start(options, seating)
    for seat, action in steps:
        state = replay_step(engine, state, seat, action, decks)
    return state
