"""The Azi actions, read from and written to the contract's JSON forms.

``{"kind": "discard", "card": c}`` · ``{"kind": "bet", "amount": n}`` · ``{"kind": "call"}`` ·
``{"kind": "raise", "to": n}`` · ``{"kind": "fold"}`` · ``{"kind": "play", "card": c}`` ·
``{"kind": "buy_in"}`` · ``{"kind": "decline"}`` · ``{"kind": "leave"}``.
Parsing refuses anything malformed with :class:`InvalidAction`; whether a well-formed action is
allowed now is the engine's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from app.games.azi.ranking import DECK, DECK_SET
from app.games.base import JSON, InvalidAction
from app.games.cards import Card

MAX_AMOUNT = 1_000_000_000
"""The most chips an amount in an action may name (a bet's ``amount``, a raise's ``to``)."""


@dataclass(frozen=True)
class Discard:
    """4-card variant: lay one card away face down before betting (AZ-6)."""

    card: Card
    kind: ClassVar[str] = "discard"

    def to_json(self) -> JSON:
        return {"kind": self.kind, "card": str(self.card)}


@dataclass(frozen=True)
class Bet:
    """The opening bet of a betting phase (AZ-7.1)."""

    amount: int
    kind: ClassVar[str] = "bet"

    def to_json(self) -> JSON:
        return {"kind": self.kind, "amount": self.amount}


@dataclass(frozen=True)
class Call:
    """Match the high bet, or go all-in for less when short (AZ-7.3)."""

    kind: ClassVar[str] = "call"

    def to_json(self) -> JSON:
        return {"kind": self.kind}


@dataclass(frozen=True)
class Raise:
    """Raise one's bet in this betting phase to ``to`` chips (AZ-7.3)."""

    to: int
    kind: ClassVar[str] = "raise"

    def to_json(self) -> JSON:
        return {"kind": self.kind, "to": self.to}


@dataclass(frozen=True)
class Fold:
    """Leave the deal; chips already in the pot stay there (AZ-7.3)."""

    kind: ClassVar[str] = "fold"

    def to_json(self) -> JSON:
        return {"kind": self.kind}


@dataclass(frozen=True)
class Play:
    """Play a card to the current trick (AZ-8)."""

    card: Card
    kind: ClassVar[str] = "play"

    def to_json(self) -> JSON:
        return {"kind": self.kind, "card": str(self.card)}


@dataclass(frozen=True)
class BuyIn:
    """Pay half the pot to join the Azi re-deal (AZ-13)."""

    kind: ClassVar[str] = "buy_in"

    def to_json(self) -> JSON:
        return {"kind": self.kind}


@dataclass(frozen=True)
class Decline:
    """Stay out of the Azi re-deal (AZ-13)."""

    kind: ClassVar[str] = "decline"

    def to_json(self) -> JSON:
        return {"kind": self.kind}


@dataclass(frozen=True)
class Leave:
    """Leave the table between games (AZ-15); the seat sits out of every later game."""

    kind: ClassVar[str] = "leave"

    def to_json(self) -> JSON:
        return {"kind": self.kind}


AziAction = Discard | Bet | Call | Raise | Fold | Play | BuyIn | Decline | Leave

_FIELDS: dict[str, tuple[str, ...]] = {
    "discard": ("card",), "bet": ("amount",), "call": (), "raise": ("to",), "fold": (),
    "play": ("card",), "buy_in": (), "decline": (), "leave": (),
}


def parse_action(raw: Any) -> AziAction:
    """The typed action for ``raw``; raises :class:`InvalidAction` naming what is wrong."""
    kind = _kind(raw)
    _check_fields(raw, kind)
    if kind == "discard":
        return Discard(_card(raw, "card"))
    if kind == "play":
        return Play(_card(raw, "card"))
    if kind == "bet":
        return Bet(_amount(raw, "amount"))
    if kind == "raise":
        return Raise(_amount(raw, "to"))
    return _SIMPLE[kind]


def action_to_json(action: AziAction) -> JSON:
    """The JSON form of ``action``; :func:`parse_action` reads it back."""
    return action.to_json()


CALL, FOLD, BUY_IN, DECLINE, LEAVE = Call(), Fold(), BuyIn(), Decline(), Leave()
_SIMPLE: dict[str, AziAction] = {"call": CALL, "fold": FOLD, "buy_in": BUY_IN, "decline": DECLINE,
                                 "leave": LEAVE}
PLAYS = {card: Play(card) for card in DECK}
"""The play of each card, made once (actions are values)."""


def concrete_action(entry: JSON, offset: int = 0) -> AziAction:
    """The action an entry of ``AziEngine.legal_actions`` stands for; for a range, the amount
    ``min + offset``."""
    kind = entry["kind"]
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind == "bet":
        return Bet(entry["min"] + offset)
    if kind == "raise":
        return Raise(entry["min"] + offset)
    card = Card.parse(entry["card"])
    return Discard(card) if kind == "discard" else Play(card)


def _kind(raw: Any) -> str:
    if not isinstance(raw, dict):
        raise InvalidAction(f"an action is a JSON object with a 'kind', got {raw!r}",
                            code="action/not_an_object")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise InvalidAction(f"unknown action kind {kind!r} in {raw!r}; Azi knows {sorted(_FIELDS)}",
                            code="action/unknown_kind")
    return kind


def _check_fields(raw: dict[str, Any], kind: str) -> None:
    expected = set(_FIELDS[kind])
    given = set(raw) - {"kind"}
    missing, extra = sorted(expected - given), sorted(given - expected)
    if missing or extra:
        problems = ([f"missing {missing}"] if missing else []) + ([f"unexpected {extra}"] if extra else [])
        raise InvalidAction(f"a {kind!r} action has the fields {sorted(expected)}: "
                            f"{' and '.join(problems)} in {raw!r}", code="action/bad_fields")


def _card(raw: dict[str, Any], field: str) -> Card:
    card = Card.parse(raw[field])
    if card not in DECK_SET:
        raise InvalidAction(f"{raw[field]!r} is not a card of the Azi pack (6..A of hearts, "
                            "diamonds and spades, AZ-2)", code="action/bad_card")
    return card


def _amount(raw: dict[str, Any], field: str) -> int:
    value = raw[field]
    if type(value) is not int:
        raise InvalidAction(f"{field!r} must be a whole number of chips, got {value!r} in {raw!r}",
                            code="action/bad_amount")
    if not 0 <= value <= MAX_AMOUNT:
        raise InvalidAction(f"{field!r} must be from 0 to {MAX_AMOUNT:,} chips, got {value} in {raw!r}",
                            code="action/bad_amount")
    return value
