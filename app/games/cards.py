"""Cards in the contract's notation, the decks of the three games, and the shuffle.

A card prints as rank then suit (``10H``, ``AS``); the joker is ``JK``. Every card
parses from its text and prints back to the same text; ``repr`` shows how to rebuild it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from app.games.base import InvalidAction

SUITS = ("S", "H", "D", "C")
RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
              11: "J", 12: "Q", 13: "K", 14: "A"}
JOKER_RANK = 15
JOKER_TEXT = "JK"


class Card(NamedTuple):
    """A playing card: ``rank`` 2..14 (J=11, Q=12, K=13, A=14; the joker is 15), ``suit`` S/H/D/C
    (the joker's suit is the empty string)."""

    rank: int
    suit: str

    @classmethod
    def parse(cls, text: object) -> Card:
        """The card named by ``text``; raises :class:`InvalidAction` naming the bad input."""
        if isinstance(text, str):
            card = _BY_TEXT.get(text)
            if card is not None:
                return card
        raise InvalidAction(f"{text!r} is not a card (write rank then suit, e.g. '10H', 'AS', or 'JK')",
                            code="action/bad_card")

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    def __str__(self) -> str:
        return JOKER_TEXT if self.is_joker else RANK_NAMES[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


JOKER = Card(JOKER_RANK, "")
_BY_TEXT: dict[str, Card] = {JOKER_TEXT: JOKER}
_BY_TEXT.update({name + suit: Card(rank, suit) for rank, name in RANK_NAMES.items() for suit in SUITS})


def parse_cards(texts: object) -> tuple[Card, ...]:
    """Cards from a JSON list of card strings, or from one space-separated string (``"AS KH 10D"``)."""
    if isinstance(texts, str):
        texts = texts.replace("[", " ").replace("]", " ").replace("|", " ").split()
    if not isinstance(texts, list | tuple):
        raise InvalidAction(f"expected a list of cards, got {texts!r}", code="action/bad_card")
    return tuple(Card.parse(text) for text in texts)


def card_texts(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def standard_deck() -> tuple[Card, ...]:
    """The 52-card pack (Hazari, HZ-2), in a fixed order."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in range(2, 15))


def azi_deck() -> tuple[Card, ...]:
    """The 27-card Azi pack: 6..A of hearts, diamonds and spades (AZ-2)."""
    return tuple(Card(rank, suit) for suit in ("H", "D", "S") for rank in range(6, 15))


def hasenpfeffer_deck() -> tuple[Card, ...]:
    """The 25-card Hasenpfeffer pack: 9..A of four suits and the joker (HP-2)."""
    return tuple(Card(rank, suit) for suit in SUITS for rank in range(9, 15)) + (JOKER,)


def check_deck(deck: Sequence[Card], full: Sequence[Card]) -> None:
    """Raises :class:`InvalidAction` unless ``deck`` is an ordering of exactly the cards of ``full``."""
    if len(deck) != len(full) or set(deck) != set(full):
        missing = sorted(set(full) - set(deck))
        extra = [card for card in deck if card not in set(full)]
        raise InvalidAction(
            f"a deck must hold each of the game's {len(full)} cards once; got {len(deck)} cards"
            + (f", missing {card_texts(missing)}" if missing else "")
            + (f", foreign {card_texts(extra)}" if extra else ""),
            code="options/bad_deck",
        )
