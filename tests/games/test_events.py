"""The events are what their types say: every event a random match of any game reports has exactly
the fields of its kind in ``app/games/events.py``, with values of the declared types, and every kind
declared there is one that some game reports."""

from __future__ import annotations

import random
import types
from collections import Counter
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest

from app.games.base import Seating
from app.games.driver import Match, MatchOver, random_choices, shuffled_decks
from app.games.events import Event
from app.games.registry import ENGINES

KINDS: tuple[type, ...] = get_args(Event)
FIELDS = {kind: (get_type_hints(kind), kind.__required_keys__) for kind in KINDS}  # type: ignore[attr-defined]
TABLES: dict[str, list[tuple[dict[str, Any], int]]] = {
    "hazari": [({}, 4), ({"target": 500}, 4)],
    "azi": [({}, 4), ({"hand_size": 4}, 3), ({"stake": 100}, 6), ({"stake": 300}, 2)],
    "hasenpfeffer": [({"target": 3}, 4), ({"bidding": "pepper", "target": 3}, 4)],
}


def conforms(value: Any, annotation: Any) -> bool:
    origin = get_origin(annotation)
    if origin is Literal:
        return value in get_args(annotation)
    if origin in (Union, types.UnionType):
        return any(conforms(value, option) for option in get_args(annotation))
    if origin is list:
        (item,) = get_args(annotation)
        return isinstance(value, list) and all(conforms(entry, item) for entry in value)
    if origin is dict:
        return isinstance(value, dict)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, annotation)


def kind_of(event: dict[str, Any]) -> type | None:
    """The declared kind whose fields and value types ``event`` has exactly, if any."""
    for kind, (hints, required) in FIELDS.items():
        if (required <= event.keys() <= hints.keys()
                and all(conforms(value, hints[key]) for key, value in event.items())):
            return kind
    return None


def events_of(game: str, options: dict[str, Any], seats: int, seed: int) -> list[dict[str, Any]]:
    """The events of a match to its end, or for at most 40 deals, between random players who, more
    often than not, pass, call or bet the least they may (so that a whole auction is passed now and
    then, and Azi pots stay small enough to buy into), and of whom one in twenty leaves an Azi table
    between games."""
    engine = ENGINES[game]
    rng = random.Random(f"events:{game}:{seed}")
    match = Match.start(engine, engine.make_options(options), Seating(seats, 0, (1000,) * seats))
    decks, uniform = shuffled_decks(engine, rng), random_choices(engine, rng)

    def choose(state: Any, seat: int) -> Any:
        legal = engine.legal_actions(state, seat)
        modest = [{"kind": entry["kind"]} for entry in legal if entry["kind"] in ("pass", "call")] or [
            {"kind": "bet", "amount": entry["min"]} for entry in legal if entry["kind"] == "bet"]
        if modest and rng.random() < 0.6:
            return engine.parse_action(modest[0])
        return uniform(state, seat)

    reported: list[dict[str, Any]] = []
    for _ in range(40):
        if isinstance(match.next(), MatchOver):
            break
        reported += [dict(event) for event in match.play_deal(decks, choose)]
        for seat in range(seats):
            if engine.legal_actions(match.state, seat) == [{"kind": "leave"}] and rng.random() < 0.05:
                reported += [dict(event) for event in match.act(seat, engine.parse_action({"kind": "leave"}))]
    return reported


@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_event_of_a_random_match_has_the_fields_of_its_kind(game: str) -> None:
    seen: Counter[str] = Counter()
    for options, seats in TABLES[game]:
        for seed in range(12):
            for event in events_of(game, options, seats, seed):
                kind = kind_of(event)
                assert kind is not None, f"{game}: no declared kind fits {event}"
                seen[kind.__name__] += 1
    assert {"DealEnd", "MatchEnd"} <= seen.keys(), seen


def test_every_declared_kind_is_reported_by_some_game() -> None:
    seen: set[str] = set()
    for game, tables in TABLES.items():
        for options, seats in tables:
            for seed in range(12):
                seen |= {kind.__name__ for event in events_of(game, options, seats, seed)
                         if (kind := kind_of(event)) is not None}
    assert seen == {kind.__name__ for kind in KINDS}
