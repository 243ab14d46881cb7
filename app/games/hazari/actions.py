"""The Hazari action, read from and written to the contract's JSON form.

``{"kind": "up", "groups": [[3 cards], [3 cards], [3 cards], [4 cards]]}``: arrange and call up
(HZ-4). Parsing refuses anything malformed with :class:`InvalidAction` (shape, cards, sizes, a card
twice); whether the groups fit the seat's hand and the order of HZ-4 is the engine's business. A
draft (an arrangement in the making) is read here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.base import JSON, InvalidAction
from app.games.cards import Card, parse_cards
from app.games.hazari.arrangements import GROUP_SIZES, Groups, check_shape, groups_text
from app.games.hazari.combos import CARD_INDEX, CARD_TEXT


@dataclass(frozen=True)
class Up:
    """Arrange and call up (HZ-4): ``{"kind": "up", "groups": [[3], [3], [3], [4]]}``."""

    groups: Groups

    def __str__(self) -> str:
        return "up " + groups_text(self.groups)

    def to_json(self) -> JSON:
        return {"kind": "up", "groups": [[CARD_TEXT[card] for card in group] for group in self.groups]}


HazariAction = Up
"""Hazari has one action: ``up`` with the arrangement."""


def parse_action(raw: Any) -> HazariAction:
    """The typed action from its contract JSON; raises :class:`InvalidAction` for any malformed input."""
    if not isinstance(raw, dict):
        raise InvalidAction(f"an action is a JSON object, got {raw!r}", code="action/not_an_object")
    if raw.get("kind") != "up":
        raise InvalidAction(f"unknown action kind {raw.get('kind')!r} in {raw!r}; Hazari has only "
                            "'up'", code="action/unknown_kind")
    if set(raw) != {"kind", "groups"}:
        raise InvalidAction(f"'up' takes exactly the fields kind and groups, got {sorted(raw)}",
                            code="action/bad_fields")
    groups = raw["groups"]
    if not isinstance(groups, list | tuple) or len(groups) != len(GROUP_SIZES) or not all(
            isinstance(group, list | tuple) for group in groups):
        raise InvalidAction(f"'groups' must be a list of 4 lists of cards, got {groups!r}",
                            code="action/bad_groups")
    parsed = tuple(parse_cards(list(group)) for group in groups)
    foreign = [str(card) for group in parsed for card in group if card not in CARD_INDEX]
    if foreign:
        raise InvalidAction(f"{', '.join(foreign)} in {groups!r} not in a Hazari pack (HZ-2)",
                            code="action/bad_card")
    check_shape(parsed)
    return Up(parsed)


def action_to_json(action: HazariAction) -> JSON:
    """The JSON form of an action; :func:`parse_action` reads it back."""
    return action.to_json()


def parse_draft(raw: Any) -> tuple[tuple[Card, ...], ...]:
    """The groups of a draft (up to four lists of cards, G1 first); raises :class:`InvalidAction`."""
    if not isinstance(raw, list | tuple) or not all(isinstance(group, list | tuple) for group in raw):
        raise InvalidAction(f"a draft's 'groups' must be a list of up to 4 lists of cards, got {raw!r}",
                            code="action/bad_groups")
    return tuple(parse_cards(list(group)) for group in raw)
