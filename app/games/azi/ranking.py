"""Card order, the follow obligation and the trick winner on cards (AZ-2, AZ-6, AZ-8), for the
engine's messages and for callers that hold cards; every rule itself is in
:mod:`app.games.azi.tricks`."""

from __future__ import annotations

from collections.abc import Sequence

from app.games.azi.tricks import (
    ACE,
    INDEX,
    STRENGTHS,
    SUIT_INDEX,
    own_power,
)
from app.games.azi.tricks import DECK as DECK
from app.games.azi.tricks import playable as playable_indices
from app.games.azi.tricks import trick_winner as winner_of
from app.games.cards import Card

DECK_SET = frozenset(DECK)
SUIT_NAMES = {"H": "hearts", "D": "diamonds", "S": "spades"}


def is_six_on_scene(exposed: Card) -> bool:
    """AZ-6: an exposed Ace makes the 6 of trumps the highest card of the deal."""
    return exposed.rank == ACE


def power(card: Card, led: str, trump: str, six_on_scene: bool) -> int:
    """How strongly ``card`` bids for a trick led in suit ``led`` (AZ-8): any trump beats any
    non-trump, a card of the led suit beats the off-suit cards (which never win, power 0)."""
    return STRENGTHS[SUIT_INDEX[trump], six_on_scene][SUIT_INDEX[led]][INDEX[card]]


def trump_order(trump: str, six_on_scene: bool) -> tuple[Card, ...]:
    """The trumps from highest to lowest (AZ-6 six on the scene included)."""
    strength = STRENGTHS[SUIT_INDEX[trump], six_on_scene]
    trumps = [index for index, card in enumerate(DECK) if card.suit == trump]
    return tuple(DECK[index] for index in sorted(trumps, key=lambda index: own_power(strength, index),
                                                   reverse=True))


def trick_winner(trick: Sequence[tuple[int, Card]], trump: str, six_on_scene: bool) -> int:
    """The seat whose card wins ``trick`` (``(seat, card)`` in play order; AZ-8)."""
    return winner_of([(seat, INDEX[card]) for seat, card in trick],
                     STRENGTHS[SUIT_INDEX[trump], six_on_scene])


def playable(hand: Sequence[Card], led: str | None, trump: str) -> tuple[Card, ...]:
    """The cards of ``hand`` that may go to a trick led in suit ``led`` (None: leading) (AZ-8)."""
    indices = playable_indices([INDEX[card] for card in hand],
                               None if led is None else SUIT_INDEX[led], SUIT_INDEX[trump])
    return tuple(DECK[index] for index in indices)


def play_error(hand: Sequence[Card], card: Card, led: str | None, trump: str) -> tuple[str, str] | None:
    """Why ``card`` may not be played from ``hand`` (a message and a code), or None if it may."""
    if card in playable(hand, led, trump):
        return None
    led_name = SUIT_NAMES[led or trump]
    if any(held.suit == led for held in hand):
        return f"must follow {led_name}: {card} is not one of them (AZ-8)", "action/must_follow"
    message = (f"must play a trump: no {led_name} in hand, and {card} is not a trump "
               f"({SUIT_NAMES[trump]}) (AZ-8)")
    return message, "action/must_trump"
