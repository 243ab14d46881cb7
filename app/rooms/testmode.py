"""What a room in test mode fixes in advance: its decks and its first dealer."""

from __future__ import annotations

from dataclasses import dataclass

from app.games.base import JSON
from app.games.cards import Card, card_texts, parse_cards


@dataclass(frozen=True)
class TestSetup:
    """Test mode only: fixed decks for deals 1, 2, ... and the first dealer."""

    decks: tuple[tuple[Card, ...], ...] = ()
    first_dealer: int | None = None

    def to_json(self) -> JSON:
        return {"decks": [card_texts(deck) for deck in self.decks], "first_dealer": self.first_dealer}

    @classmethod
    def from_json(cls, saved: JSON | None) -> TestSetup | None:
        if saved is None:
            return None
        return cls(decks=tuple(parse_cards(deck) for deck in saved["decks"]),
                   first_dealer=saved["first_dealer"])
