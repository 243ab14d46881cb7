"""The five Hasenpfeffer actions, read from and written to the contract's JSON forms.

``{"kind": "bid", "value": 1..6 | "little_pepper" | "big_pepper"}``, ``{"kind": "pass"}``,
``{"kind": "trump", "suit": "S"}``, ``{"kind": "discard", "card": c}``, ``{"kind": "play", "card": c}``.
Parsing refuses anything malformed with :class:`InvalidAction`; whether a well-formed action is
allowed now is the engine's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.base import JSON, InvalidAction
from app.games.cards import SUITS, Card, hasenpfeffer_deck

LITTLE_PEPPER = "little_pepper"
BIG_PEPPER = "big_pepper"
PEPPERS = (LITTLE_PEPPER, BIG_PEPPER)
MIN_BID = 1
MAX_BID = 6

BidValue = int | str
"""A numeric bid 1..6, or ``"little_pepper"`` / ``"big_pepper"`` (HP-11)."""

_DECK = frozenset(hasenpfeffer_deck())


@dataclass(frozen=True)
class Bid:
    """Undertake ``value`` tricks for one's partnership (HP-5, HP-11)."""

    value: BidValue


@dataclass(frozen=True)
class Pass:
    """Decline to bid; a pass is final (HP-5)."""


@dataclass(frozen=True)
class NameTrump:
    """The bidder names trump after taking the widow (HP-7)."""

    suit: str


@dataclass(frozen=True)
class Discard:
    """The bidder lays one of his seven cards away face down (HP-7)."""

    card: Card


@dataclass(frozen=True)
class Play:
    """Play a card to the current trick (HP-8)."""

    card: Card


HasenpfefferAction = Bid | Pass | NameTrump | Discard | Play

_FIELDS: dict[str, frozenset[str]] = {
    "bid": frozenset({"kind", "value"}),
    "pass": frozenset({"kind"}),
    "trump": frozenset({"kind", "suit"}),
    "discard": frozenset({"kind", "card"}),
    "play": frozenset({"kind", "card"}),
}


def bid_level(value: BidValue) -> int:
    """The rank of a bid in the auction: 1..6, Little Pepper 6, Big Pepper 7 (HP-5, HP-11)."""
    if value == LITTLE_PEPPER:
        return 6
    if value == BIG_PEPPER:
        return 7
    assert isinstance(value, int)
    return value


def bid_tricks(value: BidValue) -> int:
    """How many tricks a contract undertakes: the number, or all six for either pepper."""
    return min(bid_level(value), 6)


def bid_stake(value: BidValue) -> int:
    """Big Pepper doubles the bidders' score (HP-11); everything else is at normal stakes."""
    return 2 if value == BIG_PEPPER else 1


def parse_action(raw: Any) -> HasenpfefferAction:
    """The action written as ``raw``; raises :class:`InvalidAction` naming what is wrong."""
    if not isinstance(raw, dict):
        raise InvalidAction(f"an action is a JSON object with a 'kind', got {raw!r}",
                            code="action/not_an_object")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise InvalidAction(f"unknown action kind {kind!r} in {raw!r}; Hasenpfeffer has "
                            f"{sorted(_FIELDS)}", code="action/unknown_kind")
    _check_fields(raw, kind)
    if kind == "bid":
        return Bid(_parse_bid_value(raw["value"]))
    if kind == "pass":
        return Pass()
    if kind == "trump":
        return NameTrump(_parse_suit(raw["suit"]))
    card = _parse_card(raw["card"])
    return Discard(card) if kind == "discard" else Play(card)


def action_to_json(action: HasenpfefferAction) -> JSON:
    if isinstance(action, Bid):
        return {"kind": "bid", "value": action.value}
    if isinstance(action, Pass):
        return {"kind": "pass"}
    if isinstance(action, NameTrump):
        return {"kind": "trump", "suit": action.suit}
    if isinstance(action, Discard):
        return {"kind": "discard", "card": str(action.card)}
    return {"kind": "play", "card": str(action.card)}


def _check_fields(raw: dict[str, Any], kind: str) -> None:
    expected = _FIELDS[kind]
    missing = sorted(expected - set(raw))
    if missing:
        raise InvalidAction(f"{kind!r} action {raw!r} lacks field(s) {missing}",
                            code="action/missing_field")
    extra = sorted(str(key) for key in set(raw) - expected)
    if extra:
        raise InvalidAction(f"{kind!r} action {raw!r} has unknown field(s) {extra}",
                            code="action/extra_field")


def _parse_bid_value(value: Any) -> BidValue:
    if type(value) is int:
        if not MIN_BID <= value <= MAX_BID:
            raise InvalidAction(f"a bid of {value} is impossible: bids are {MIN_BID}..{MAX_BID} "
                                "tricks (HP-5)", code="action/bid_out_of_range")
        return value
    if isinstance(value, str) and value in PEPPERS:
        return value
    raise InvalidAction(f"bid value {value!r} is neither a whole number 1..6 nor "
                        f"{' nor '.join(repr(p) for p in PEPPERS)}", code="action/bad_bid")


def _parse_suit(suit: Any) -> str:
    if suit is None or suit == "":
        raise InvalidAction("naming trump needs a suit: one of S, H, D, C (HP-7)",
                            code="action/no_suit")
    if suit == "JK":
        raise InvalidAction("'JK' is the Joker, not a suit: name S, H, D or C as trump "
                            "(HP-7, there is no no-trump)", code="action/joker_not_a_suit")
    if not isinstance(suit, str) or suit not in SUITS:
        raise InvalidAction(f"{suit!r} is not a suit: name S, H, D or C as trump (HP-7)",
                            code="action/bad_suit")
    return suit


def _parse_card(text: Any) -> Card:
    card = Card.parse(text)
    if card not in _DECK:
        raise InvalidAction(f"{text!r} is not in the 25-card Hasenpfeffer pack (9 to A and JK, "
                            "HP-2)", code="action/card_not_in_deck")
    return card
