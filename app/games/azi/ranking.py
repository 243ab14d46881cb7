"""Card order, the follow/trump obligation and the trick winner (AZ-2, AZ-6, AZ-8)."""

from __future__ import annotations

from collections.abc import Sequence

from app.games.cards import Card, azi_deck

DECK = azi_deck()
DECK_SET = frozenset(DECK)
SUIT_NAMES = {"H": "hearts", "D": "diamonds", "S": "spades"}
ACE = 14
SIX = 6
_TRUMP_BONUS = 100
_SIX_ON_SCENE_RANK = ACE + 1


def is_six_on_scene(exposed: Card) -> bool:
    """AZ-6: an exposed Ace makes the 6 of trumps the highest card of the deal."""
    return exposed.rank == ACE


def power(card: Card, led: str, trump: str, six_on_scene: bool) -> int:
    """How strongly ``card`` bids for a trick led in suit ``led`` (AZ-8): any trump beats any
    non-trump, a card of the led suit beats the off-suit cards (which never win, power 0)."""
    if card.suit == trump:
        rank = _SIX_ON_SCENE_RANK if six_on_scene and card.rank == SIX else card.rank
        return _TRUMP_BONUS + rank
    if card.suit == led:
        return card.rank
    return 0


def trump_order(trump: str, six_on_scene: bool) -> tuple[Card, ...]:
    """The trumps from highest to lowest (AZ-6 six on the scene included)."""
    trumps = [card for card in DECK if card.suit == trump]
    return tuple(sorted(trumps, key=lambda card: power(card, trump, trump, six_on_scene),
                        reverse=True))


def trick_winner(trick: Sequence[tuple[int, Card]], trump: str, six_on_scene: bool) -> int:
    """The seat whose card wins ``trick`` (``(seat, card)`` in play order; AZ-8)."""
    led = trick[0][1].suit
    best = max(trick, key=lambda played: power(played[1], led, trump, six_on_scene))
    return best[0]


def playable(hand: Sequence[Card], led: str | None, trump: str) -> tuple[Card, ...]:
    """The cards of ``hand`` that may go to a trick led in suit ``led`` (None: leading) (AZ-8):
    the led suit if held, else a trump if held, else anything."""
    if led is None:
        return tuple(hand)
    for suit in (led, trump):
        same = tuple(card for card in hand if card.suit == suit)
        if same:
            return same
    return tuple(hand)


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
