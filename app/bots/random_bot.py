"""The ``random`` level of every game: a uniformly random legal action.

An entry of ``legal`` is chosen uniformly; a range (``{"kind": "raise", "min": a, "max": b}``) then
gets a uniformly random amount in it, written in the action's field (``raise`` -> ``to``, ``bet`` ->
``amount``). A Hazari ``up`` becomes a uniformly random valid arrangement of the hand (HZ-4).
Fields that a legal entry adds for information (Azi's ``call`` gives ``amount`` and ``all_in``)
are not part of the action and are dropped.
"""

from __future__ import annotations

import random

from app.games.base import JSON
from app.games.cards import card_texts, parse_cards
from app.games.hazari.arrangements import random_arrangement

RANGE_FIELDS = {"bet": "amount", "raise": "to"}
"""The field that carries the chosen amount of a range entry, by kind (contract, "Actions")."""
KIND_ONLY = frozenset({"call", "fold", "pass", "buy_in", "decline", "leave"})
"""Kinds whose action is ``{"kind": ...}`` alone, whatever else their legal entry says."""


def resolve(entry: JSON, view: JSON, rng: random.Random) -> JSON:
    """The action that a legal ``entry`` stands for; a range or an ``up`` is drawn with ``rng``."""
    kind = entry["kind"]
    if kind in KIND_ONLY:
        return {"kind": kind}
    if "min" in entry and "max" in entry:
        if kind not in RANGE_FIELDS:
            raise ValueError(f"no action form known for the range entry {entry}")
        return {"kind": kind, RANGE_FIELDS[kind]: rng.randint(entry["min"], entry["max"])}
    if kind == "up" and "groups" not in entry:
        groups = random_arrangement(parse_cards(view["hand"]), rng)
        return {"kind": "up", "groups": [card_texts(group) for group in groups]}
    return dict(entry)


class RandomBot:
    """Uniform over the legal entries, then uniform within a range. ``level`` is the name it
    plays under (``random``)."""

    def __init__(self, game: str, level: str = "random") -> None:
        self.game = game
        self.level = level

    def __repr__(self) -> str:
        return f"RandomBot({self.game!r}, {self.level!r})"

    def choose(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON:
        if not legal:
            raise ValueError(f"no legal action to choose from for a {self.game} bot")
        return resolve(rng.choice(legal), view, rng)
