"""Trumps, bowers, effective suits and who wins a trick (HP-3, HP-8).

Once trump is named the Joker and the two Jacks of the trump colour belong to the trump suit:
``JK`` (best bower), the Jack of trumps (right bower), the Jack of the same-colour suit (left bower),
then ``A K Q 10 9`` of trumps. Same-colour pairs are S-C and H-D. Every following and trick-winning
rule uses the effective suit.

The order of every trump suit is worked out once, in :class:`TrumpOrder`, in two forms: by
:class:`Card` for the engine's state, and by card index (``INDEX``: the order of
``hasenpfeffer_deck()``, the Joker is 24; suits 0..3 for S H D C) for the bots' play-outs
(:mod:`app.games.hasenpfeffer.rollout`).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.cards import JOKER, SUITS, Card, hasenpfeffer_deck

JACK = 11
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
SUIT_PLURALS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SINGULARS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
PLAIN_RANKS = (14, 13, 12, 11, 10, 9)
NOT_WINNING = -1
"""The strength of a card that neither trumps nor follows the led suit."""

DECK = hasenpfeffer_deck()
INDEX: dict[Card, int] = {card: index for index, card in enumerate(DECK)}
JOKER_INDEX = INDEX[JOKER]
SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}


def right_bower(trump: str) -> Card:
    """The Jack of trumps, second-best trump (HP-3)."""
    return Card(JACK, trump)


def left_bower(trump: str) -> Card:
    """The Jack of the other suit of the trump colour, third-best trump (HP-3, examples 7)."""
    return Card(JACK, SAME_COLOUR[trump])


def _suit_order(suit: str, trump: str) -> tuple[Card, ...]:
    """HP-3, examples 4-6: trumps are JK, right bower, left bower, A K Q 10 9; the same-colour
    suit loses its Jack; the two other suits keep all six."""
    if suit == trump:
        plain = tuple(Card(rank, trump) for rank in PLAIN_RANKS if rank != JACK)
        return (JOKER, right_bower(trump), left_bower(trump)) + plain
    return tuple(Card(rank, suit) for rank in PLAIN_RANKS
                 if Card(rank, suit) != left_bower(trump))


class TrumpOrder:
    """Everything the rules say about cards once ``trump`` is named (HP-3, HP-8)."""

    def __init__(self, trump: str) -> None:
        self.trump = SUIT_INDEX[trump]
        self.orders = {suit: _suit_order(suit, trump) for suit in SUITS}
        """The cards of each effective suit, high to low."""
        self.suit_of = {card: suit for suit, cards in self.orders.items() for card in cards}
        """The effective suit of every card: the Joker and the left bower are trumps."""
        trump_rank = {card: 200 - place for place, card in enumerate(self.orders[trump])}
        self.strengths = {led: {card: trump_rank.get(card, card.rank if self.suit_of[card] == led
                                                     else NOT_WINNING) for card in DECK}
                          for led in SUITS}
        """A card's strength in a trick led in each effective suit: higher wins."""
        self.eff = tuple(SUIT_INDEX[self.suit_of[card]] for card in DECK)
        self.order = tuple(tuple(INDEX[card] for card in self.orders[suit]) for suit in SUITS)
        self.strength = tuple(tuple(self.strengths[led][card] for card in DECK) for led in SUITS)
        self.own = tuple(self.strength[self.eff[index]][index] for index in range(len(DECK)))
        """A card's strength in its own effective suit: the order of "highest" (trumps on top)."""

    def is_trump(self, card: int) -> bool:
        return self.eff[card] == self.trump


TRUMP_ORDERS = {suit: TrumpOrder(suit) for suit in SUITS}
ORDERS_BY_INDEX = tuple(TRUMP_ORDERS[suit] for suit in SUITS)


def effective_suit(card: Card, trump: str) -> str:
    """The suit ``card`` counts as: the Joker and the left bower are trumps (HP-3, example 8)."""
    return TRUMP_ORDERS[trump].suit_of[card]


def is_trump(card: Card, trump: str) -> bool:
    return effective_suit(card, trump) == trump


def suit_order(suit: str, trump: str) -> tuple[Card, ...]:
    """The cards whose effective suit is ``suit``, high to low (HP-3, examples 4-6)."""
    return TRUMP_ORDERS[trump].orders[suit]


def trick_winner(cards: Sequence[Card], trump: str) -> int:
    """The index in ``cards`` (play order, leader first) of the card that wins the trick: the
    highest trump if any, else the highest card of the led effective suit (HP-8)."""
    order = TRUMP_ORDERS[trump]
    row = order.strengths[order.suit_of[cards[0]]]
    strengths = [row[card] for card in cards]
    return strengths.index(max(strengths))


def playable(hand: Sequence[Card], led: Card | None, trump: str) -> Sequence[Card]:
    """The cards of ``hand`` that may be played to a trick led by ``led`` (None: a lead). Follow the
    led card's effective suit if possible, else play anything; a Joker or left bower lead calls
    for trumps (HP-8, examples 9-16)."""
    if led is None:
        return hand
    suit_of = TRUMP_ORDERS[trump].suit_of
    led_suit = suit_of[led]
    return [card for card in hand if suit_of[card] == led_suit] or hand


def legal_cards(hand: Sequence[int], trick: Sequence[int], order: TrumpOrder) -> list[int]:
    """:func:`playable` on card indices, ``trick`` the cards played to it so far (HP-8)."""
    if not trick:
        return list(hand)
    eff = order.eff
    led = eff[trick[0]]
    return [card for card in hand if eff[card] == led] or list(hand)


def winning_index(trick: Sequence[int], order: TrumpOrder) -> int:
    """:func:`trick_winner` on card indices (HP-8)."""
    row = order.strength[order.eff[trick[0]]]
    strengths = [row[card] for card in trick]
    return strengths.index(max(strengths))


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


def _sort_key(card: Card) -> tuple[int, int]:
    """A fixed display order: the Joker first, then spades, hearts, diamonds, clubs, high to low."""
    if card.is_joker:
        return (-1, 0)
    return (SUITS.index(card.suit), -card.rank)


SORT_KEYS = {card: _sort_key(card) for card in DECK}

