"""Trick play on small integers: the one implementation of the follow obligation, the trick winner
and the end of a deal (AZ-6, AZ-8, AZ-9), run by the engine's play phase and by the bots' rollouts.

A card is its index in the pack's fixed order (:data:`DECK`, ``azi_deck()``): suit ``i // 9``
(hearts, diamonds, spades), rank ``6 + i % 9``. :data:`STRENGTHS` holds, for each trump suit and
six-on-the-scene status, how strongly every card bids for a trick led in each suit, so that
deciding a trick is a few tuple look-ups.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.games.cards import Card, azi_deck

DECK = azi_deck()
INDEX: dict[Card, int] = {card: index for index, card in enumerate(DECK)}
TEXT: dict[Card, str] = {card: str(card) for card in DECK}
"""Each card's text form, made once."""
SUITS = ("H", "D", "S")
SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}
SUIT_OF = tuple(index // 9 for index in range(len(DECK)))
RANK_OF = tuple(6 + index % 9 for index in range(len(DECK)))
ACE = 14
SIX = 6
TRUMP_BONUS = 100
SIX_ON_SCENE_RANK = ACE + 1
TRICKS_TO_WIN = 2
TRICKS_PER_DEAL = 3
AZI = -1
"""What :func:`deal_result` and :func:`play_out` answer when the deal ends in an Azi."""
GOES_ON = -2
"""What :func:`deal_result` answers while the deal goes on."""

Strength = tuple[tuple[int, ...], ...]
"""``strength[led][card]``: how strongly a card bids for a trick led in suit ``led``."""


def _strength(trump: int, six_on_scene: bool) -> Strength:
    """AZ-8: any trump beats any non-trump, a card of the led suit beats the off-suit cards
    (which never win: 0); AZ-6: with the six on the scene the 6 of trumps is above the Ace."""
    rows = []
    for led in range(len(SUITS)):
        row = []
        for card in range(len(DECK)):
            suit, rank = SUIT_OF[card], RANK_OF[card]
            if suit == trump:
                row.append(TRUMP_BONUS + (SIX_ON_SCENE_RANK if six_on_scene and rank == SIX else rank))
            else:
                row.append(rank if suit == led else 0)
        rows.append(tuple(row))
    return tuple(rows)


STRENGTHS: dict[tuple[int, bool], Strength] = {
    (trump, six): _strength(trump, six) for trump in range(len(SUITS)) for six in (False, True)}


def own_power(strength: Strength, card: int) -> int:
    """A card's strength in its own suit (trumps above everything): the order of "highest"."""
    return strength[SUIT_OF[card]][card]


def playable(hand: Sequence[int], led: int | None, trump: int) -> list[int]:
    """AZ-8: the leader plays anything; a follower plays the led suit if he holds it, else a
    trump if he holds one, else anything."""
    if led is None:
        return list(hand)
    same = [card for card in hand if SUIT_OF[card] == led]
    if same:
        return same
    trumps = [card for card in hand if SUIT_OF[card] == trump]
    return trumps or list(hand)


def trick_winner(trick: Sequence[tuple[int, int]], strength: Strength) -> int:
    """Who wins ``trick`` (``(player, card)`` in play order): the highest trump, else the highest
    card of the led suit (AZ-8)."""
    row = strength[SUIT_OF[trick[0][1]]]
    winner, best = trick[0][0], row[trick[0][1]]
    for player, card in trick:
        if row[card] > best:
            winner, best = player, row[card]
    return winner


def deal_result(won: Sequence[int], winner: int) -> int:
    """After ``winner`` took a trick (``won`` counted it): ``winner`` when he has two tricks,
    :data:`AZI` when three tricks went to three players, else :data:`GOES_ON` (AZ-9)."""
    if won[winner] == TRICKS_TO_WIN:
        return winner
    if sum(won) == TRICKS_PER_DEAL:
        return AZI
    return GOES_ON


Policy = Callable[[list[int], list[tuple[int, int]], Strength, int, bool], int]
"""A rollout's choice: ``policy(hand, trick, strength, trump, last)`` names a playable card of
``hand`` for ``trick`` (``last``: the trick closes with it)."""


def play_out(hands: list[list[int]], trick: list[tuple[int, int]], leader: int, won: list[int],
             strength: Strength, trump: int, policy: Policy) -> int:
    """Finish the deal from here with every player choosing by ``policy``: ``hands`` by player in
    playing order, the current ``trick`` as ``(player, card)``, ``won`` the tricks taken so far.
    The winner, or :data:`AZI`. Mutates its arguments."""
    players = len(hands)
    while True:
        for step in range(len(trick), players):
            player = (leader + step) % players
            hand = hands[player]
            card = policy(hand, trick, strength, trump, step == players - 1)
            hand.remove(card)
            trick.append((player, card))
        winner = trick_winner(trick, strength)
        won[winner] += 1
        result = deal_result(won, winner)
        if result != GOES_ON:
            return result
        trick.clear()
        leader = winner
