"""Rebuilding a match from its log: the same options, seating, decks and actions give the same state,
and the views after each step of it, for the replay page."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.games.base import JSON, Engine, Seating, Transition
from app.games.cards import Card
from app.games.events import Event


def replay_transition(engine: Engine[Any, Any], state: Any, seat: int | None, action: JSON,
                      decks: Mapping[int, Sequence[Card]]) -> Transition[Any]:
    """Apply one logged step: ``{"kind": "deal", "deal": n}`` deals deck ``n``, ``{"kind": "auto"}``
    is a forced step, ``{"kind": "close"}`` closes a chip game's table (``"by": "operator"``: in the
    middle of a game); anything else is ``seat``'s action. The new state and the step's events."""
    if seat is None and action.get("kind") == "deal":
        return engine.deal(state, decks[int(action["deal"])])
    if seat is None and action.get("kind") == "auto":
        return engine.auto_step(state)
    if seat is None and action.get("kind") == "close" and engine.chips is not None:
        return engine.chips.close(state, action.get("by") == "operator")
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


@dataclass(frozen=True)
class ReplayedStep:
    """One logged step replayed: what happened (the engine's events) and the view after it."""

    seat: int | None
    action: JSON
    events: tuple[Event, ...]
    view: JSON


def face_up_view(engine: Engine[Any, Any], state: Any, seats: int) -> JSON:
    """The spectator's view with every hand shown, for a finished match: ``seats`` holds what only
    each seat's own view adds (its hand, its discard, its arrangement), and ``face_down`` the cards
    nobody holds and nobody has seen (the undealt cards, a widow, the discards), in deck order."""
    public = engine.view(state, None)
    own = [engine.view(state, seat) for seat in range(seats)]
    held = {card for view in own for card in view["hand"]}
    hidden = engine.hidden_cards(state, None)
    private = {"hand"} | {key for view in own for key, value in view.items()
                          if key not in public or public[key] != value}
    return {**public,
            "seats": [{key: view.get(key) for key in sorted(private)} for view in own],
            "face_down": [str(card) for card in engine.full_deck()
                          if card in hidden and str(card) not in held]}


def replay_views(engine: Engine[Any, Any], options: Mapping[str, Any], seating: Seating,
                 decks: Mapping[int, Sequence[Card]], steps: Sequence[tuple[int | None, JSON]],
                 shown: range, show: Callable[[Any], JSON]) -> tuple[JSON, list[ReplayedStep]]:
    """Replay ``steps`` and return ``show(state)`` before step ``shown.start`` and, for every step in
    ``shown``, that step replayed with ``show`` of the state after it."""
    state = replay(engine, options, seating, decks, steps[:shown.start])
    before = show(state)
    replayed = []
    for seat, action in steps[shown.start:shown.stop]:
        moved = replay_transition(engine, state, seat, action, decks)
        state = moved.state
        replayed.append(ReplayedStep(seat, action, moved.events, show(state)))
    return before, replayed
