"""Trumps, bowers, effective suits and who wins a trick (HP-3, HP-8).

Once trump is named the Joker and the two Jacks of the trump colour belong to the trump suit:
``JK`` (best bower), the Jack of trumps (right bower), the Jack of the same-colour suit (left bower),
then ``A K Q 10 9`` of trumps. Same-colour pairs are S-C and H-D. Every following and trick-winning
rule uses the effective suit.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.cards import JOKER, SUITS, Card

JACK = 11
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
SUIT_PLURALS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SINGULARS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
PLAIN_RANKS = (14, 13, 12, 11, 10, 9)


def right_bower(trump: str) -> Card:
    """The Jack of trumps, second-best trump (HP-3)."""
    return Card(JACK, trump)


def left_bower(trump: str) -> Card:
    """The Jack of the other suit of the trump colour, third-best trump (HP-3, examples 7)."""
    return Card(JACK, SAME_COLOUR[trump])


def effective_suit(card: Card, trump: str) -> str:
    """The suit ``card`` counts as: the Joker and the left bower are trumps (HP-3, example 8)."""
    if card.is_joker or card == left_bower(trump):
        return trump
    return card.suit


def is_trump(card: Card, trump: str) -> bool:
    return effective_suit(card, trump) == trump


def suit_order(suit: str, trump: str) -> tuple[Card, ...]:
    """The cards whose effective suit is ``suit``, high to low (HP-3, examples 4-6)."""
    if suit == trump:
        plain = tuple(Card(rank, trump) for rank in PLAIN_RANKS if rank != JACK)
        return (JOKER, right_bower(trump), left_bower(trump)) + plain
    return tuple(Card(rank, suit) for rank in PLAIN_RANKS
                 if Card(rank, suit) != left_bower(trump))


def _strength(card: Card, led_suit: str, trump: str) -> int:
    """Higher wins; a card that neither trumps nor follows has -1 and cannot win."""
    suit = effective_suit(card, trump)
    if suit == trump:
        order = suit_order(trump, trump)
        return 200 - order.index(card)
    if suit == led_suit:
        return card.rank
    return -1


def trick_winner(cards: Sequence[Card], trump: str) -> int:
    """The index in ``cards`` (play order, leader first) of the card that wins the trick: the
    highest trump if any, else the highest card of the led effective suit (HP-8)."""
    led_suit = effective_suit(cards[0], trump)
    strengths = [_strength(card, led_suit, trump) for card in cards]
    return strengths.index(max(strengths))


def playable(hand: Sequence[Card], led: Card | None, trump: str) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to a trick led by ``led`` (None: a lead). Follow the
    led card's effective suit if possible, else play anything; a Joker or left bower lead calls
    for trumps (HP-8, examples 9-16)."""
    if led is None:
        return tuple(hand)
    led_suit = effective_suit(led, trump)
    following = tuple(card for card in hand if effective_suit(card, trump) == led_suit)
    return following or tuple(hand)


def follow_reason(led_suit: str, trump: str) -> str:
    """Names the suit that must be followed, counting the bowers, for a rejection message."""
    plural = SUIT_PLURALS[led_suit]
    if led_suit == trump:
        return (f"must follow {plural} (trumps: the Joker JK and the left bower "
                f"{left_bower(trump)} count as {SUIT_PLURALS[trump]})")
    if led_suit == SAME_COLOUR[trump]:
        return (f"must follow {plural} (the {left_bower(trump)} is the left bower and counts as a "
                f"{SUIT_SINGULARS[trump]}, not a {SUIT_SINGULARS[led_suit]})")
    return f"must follow {plural}"


def sort_key(card: Card) -> tuple[int, int]:
    """A fixed display order: the Joker first, then spades, hearts, diamonds, clubs, high to low."""
    if card.is_joker:
        return (-1, 0)
    return (SUITS.index(card.suit), -card.rank)
