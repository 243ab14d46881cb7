"""The rest of a deal played out fast on card indices, for the bots' Monte Carlo rollouts.

The rules are the engine's own (:mod:`app.games.hasenpfeffer.trumps`: the follow rule and the
trick winner, HP-8; :mod:`app.games.hasenpfeffer.scoring`: the points, HP-9, HP-11); the caller
only chooses each card among the legal ones. Cards are indices into ``hasenpfeffer_deck()``
(``trumps.INDEX``), hands are lists, ``played`` is a bitmask of the cards of finished tricks.
"""

from __future__ import annotations

from collections.abc import Callable

from app.games.hasenpfeffer.state import SEATS, TRICKS_PER_DEAL
from app.games.hasenpfeffer.trumps import TrumpOrder, legal_cards, winning_index

Choose = Callable[[list[int], list[int], list[int], int, int, int], int]
"""``choose(legal, hand, trick, seat, leader, played)``: the card ``seat`` plays, one of
``legal``."""


def play_out(hands: list[list[int]], trick: list[int], leader: int, tricks: list[int],
             played: int, order: TrumpOrder, choose: Choose) -> list[int]:
    """Finish the deal from ``hands`` (by seat) and the current ``trick`` (its cards from
    ``leader``), ``tricks`` won per team so far; returns ``tricks``. Mutates its arguments."""
    while tricks[0] + tricks[1] < TRICKS_PER_DEAL:
        while len(trick) < SEATS:
            seat = (leader + len(trick)) % SEATS
            hand = hands[seat]
            card = choose(legal_cards(hand, trick, order), hand, trick, seat, leader, played)
            hand.remove(card)
            trick.append(card)
        leader = (leader + winning_index(trick, order)) % SEATS
        tricks[leader % 2] += 1
        for card in trick:
            played |= 1 << card
        trick.clear()
    return tricks
