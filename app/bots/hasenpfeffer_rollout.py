"""Monte Carlo of a Hasenpfeffer deal as one seat sees it: the unseen cards dealt at random to the
other players consistently with the view, then the deal played out on the engine's rules
(:mod:`app.games.hasenpfeffer.rollout`) by a fixed policy.

Cards are the engine's card indices (``INDEX``: the order of ``hasenpfeffer_deck()``, suit
``i // 6`` for S H D C, rank ``9 + i % 6``, the Joker is 24); ``TRUMPS[suit]`` is the engine's
:class:`~app.games.hasenpfeffer.trumps.TrumpOrder` of each trump suit (HP-3).

The rollout policy, for every player (``policy``): a member of the bidding side holding two trumps
or the best trump left leads its best trump; otherwise a side card that nobody else can beat is
led, else the weakest card. A follower whose partner is winning a trick that cannot be lost plays
his weakest card; otherwise he wins with the cheapest card that nobody after him can beat, or the
cheapest winning card, or plays his weakest card. "Cannot be beaten" counts only the cards that are
neither played nor in the player's own hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from app.games.base import JSON
from app.games.cards import Card
from app.games.hasenpfeffer.actions import BidValue
from app.games.hasenpfeffer.rollout import play_out as engine_play_out
from app.games.hasenpfeffer.scoring import contract_points
from app.games.hasenpfeffer.state import SEATS, TRICKS_PER_DEAL
from app.games.hasenpfeffer.trumps import (
    DECK,
    INDEX,
    JOKER_INDEX,
    ORDERS_BY_INDEX,
    SUIT_INDEX,
    TrumpOrder,
)

JOKER = JOKER_INDEX
SUITS = ("S", "H", "D", "C")
SUIT_OF = tuple(index // 6 if index != JOKER else -1 for index in range(len(DECK)))
TRUMPS = ORDERS_BY_INDEX
SAMPLE_TRIES = 40
Trumps = TrumpOrder

__all__ = ["DECK", "INDEX", "JOKER", "SEATS", "SUITS", "SUIT_INDEX", "TRUMPS", "Accept",
           "Contract", "Knowledge", "Trumps", "cards_of", "mask", "play_out", "read_play",
           "sample_hands"]


def is_boss(tr: TrumpOrder, card: int, known: int) -> bool:
    """No card outside ``known`` (a bitmask of played and own cards) beats ``card`` in its
    effective suit."""
    for other in tr.order[tr.eff[card]]:
        if other == card:
            return True
        if not known >> other & 1:
            return False
    return True


def mask(cards: Sequence[int]) -> int:
    result = 0
    for card in cards:
        result |= 1 << card
    return result


def play_out(hands: list[list[int]], trick: list[int], leader: int, tricks: list[int],
             played: int, tr: TrumpOrder, bidders: int) -> list[int]:
    """Finish the deal on the engine's rules, every seat playing :func:`policy`; returns the
    tricks per team. Mutates its arguments."""
    return engine_play_out(hands, trick, leader, tricks, played, tr, partial(policy, tr, bidders))


def policy(tr: TrumpOrder, bidders: int, legal: list[int], hand: list[int], trick: list[int],
           seat: int, leader: int, played: int) -> int:
    """The rollout policy's card among the ``legal`` ones (module docstring)."""
    if not trick:
        return _lead(hand, seat, played | mask(hand), tr, bidders)
    row = tr.strength[tr.eff[trick[0]]]
    best, high = 0, row[trick[0]]
    for index in range(1, len(trick)):
        if row[trick[index]] > high:
            best, high = index, row[trick[index]]
    last = len(trick) == SEATS - 1
    own = tr.own
    if (leader + best) % 2 == seat % 2 and (
            last or is_boss(tr, trick[best], played | mask(hand))):
        return min(legal, key=own.__getitem__)
    winners = [card for card in legal if row[card] > high]
    if not winners:
        return min(legal, key=own.__getitem__)
    if not last:
        known = played | mask(hand)
        safe = [card for card in winners if is_boss(tr, card, known)]
        if safe:
            return min(safe, key=row.__getitem__)
    return min(winners, key=row.__getitem__)


def _lead(hand: list[int], seat: int, known: int, tr: TrumpOrder, bidders: int) -> int:
    trumps = [card for card in hand if tr.eff[card] == tr.trump]
    if trumps and seat % 2 == bidders:
        top = max(trumps, key=tr.own.__getitem__)
        if len(trumps) >= 2 or is_boss(tr, top, known):
            return top
    sides = [card for card in hand if tr.eff[card] != tr.trump]
    bosses = [card for card in sides if is_boss(tr, card, known)]
    if bosses:
        return max(bosses, key=tr.own.__getitem__)
    return min(sides or hand, key=tr.own.__getitem__)


class Contract:
    """What the deal is played for: a bid by team ``bidders`` (``defenders_score`` the table
    option), scored by the engine (HP-9, HP-11)."""

    def __init__(self, value: BidValue, bidders: int, defenders_score: bool = True) -> None:
        self.value = value
        self.bidders = bidders
        self.defenders_score = defenders_score
        self._points = tuple(contract_points(value, bidders, won, defenders_score)
                             for won in range(TRICKS_PER_DEAL + 1))

    def points(self, tricks: Sequence[int]) -> tuple[int, int]:
        return self._points[tricks[self.bidders]]

    def margin(self, tricks: Sequence[int], team: int) -> int:
        """``team``'s points minus the other team's."""
        points = self._points[tricks[self.bidders]]
        return points[team] - points[1 - team]


@dataclass
class Knowledge:
    """One seat's knowledge of the unseen cards: the pool, how many each other seat holds, the
    voids each has shown (effective suits, under ``trump``), cards known to be in a hand, and an
    extra slot for the cards held by nobody (the discard, or the widow before the auction ends)."""

    seat: int
    hand: list[int]
    counts: list[int]
    pool: list[int]
    voids: dict[int, set[int]] = field(default_factory=dict)
    fixed: dict[int, list[int]] = field(default_factory=dict)
    suits: tuple[int, ...] = SUIT_OF
    """The suit of each card that the voids are written in (the effective suits in play)."""


Accept = Callable[[int, list[int]], bool]
def sample_hands(knowledge: Knowledge, rng: random.Random, accept: Accept | None = None
                 ) -> tuple[list[list[int]], list[int]]:
    """Every seat's hand (the seat's own as it is) and the cards left over; voids and fixed
    cards respected; ``accept(seat, hand)`` may refuse a draw (a few times at most)."""
    others = [seat for seat in range(SEATS) if seat != knowledge.seat]
    order = sorted(others, key=lambda seat: -len(knowledge.voids.get(seat, ())))
    drawn: tuple[list[list[int]], list[int]] | None = None
    for attempt in range(SAMPLE_TRIES):
        drawn = _draw(knowledge, rng, order, strict=attempt < SAMPLE_TRIES - 1)
        if drawn is not None and (accept is None or attempt >= SAMPLE_TRIES // 2
                                  or all(accept(seat, drawn[0][seat]) for seat in order)):
            return drawn
    return drawn or _draw_any(knowledge, rng, order)


def _draw(knowledge: Knowledge, rng: random.Random, order: list[int], strict: bool
          ) -> tuple[list[list[int]], list[int]] | None:
    pool = knowledge.pool[:]
    rng.shuffle(pool)
    hands: list[list[int]] = [[] for _ in range(SEATS)]
    hands[knowledge.seat] = knowledge.hand[:]
    for seat in order:
        hand = list(knowledge.fixed.get(seat, ()))
        void = knowledge.voids.get(seat, set()) if strict else set()
        rest = []
        for card in pool:
            if len(hand) < knowledge.counts[seat] and knowledge.suits[card] not in void:
                hand.append(card)
            else:
                rest.append(card)
        if len(hand) < knowledge.counts[seat]:
            return None
        hands[seat] = hand
        pool = rest
    return hands, pool


def _draw_any(knowledge: Knowledge, rng: random.Random, order: list[int]
              ) -> tuple[list[list[int]], list[int]]:
    drawn = _draw(knowledge, rng, order, strict=False)
    assert drawn is not None
    return drawn


def cards_of(texts: Sequence[str]) -> list[int]:
    return [INDEX[Card.parse(text)] for text in texts]


def read_play(view: JSON) -> tuple[Knowledge, list[int], int, int]:
    """From a view in play: the seat's knowledge, the current trick's cards, its leader, and the
    bitmask of every card played this deal (HP-8 voids: a player who did not follow the led
    effective suit has none of it). The forced bidder holds the Joker (HP-6) until he plays it."""
    me = view["seat"]
    tr = TRUMPS[SUIT_INDEX[view["trump"]]]
    hand = cards_of(view["hand"])
    voids: dict[int, set[int]] = {}
    played = 0
    tricks = [[(play["seat"], INDEX[Card.parse(play["card"])]) for play in trick["plays"]]
              for trick in view["completed_tricks"]]
    current = [(play["seat"], INDEX[Card.parse(play["card"])]) for play in view["trick"]]
    for plays in [*tricks, current]:
        if not plays:
            continue
        led = tr.eff[plays[0][1]]
        for seat, card in plays:
            played |= 1 << card
            if tr.eff[card] != led and seat != me:
                voids.setdefault(seat, set()).add(led)
    fixed: dict[int, list[int]] = {}
    forced = view.get("joker_forced")
    if forced is not None and forced != me and not played >> JOKER & 1:
        fixed[forced] = [JOKER]
    known = played | mask(hand)
    pool = [card for card in range(len(DECK)) if not known >> card & 1
            and not (forced is not None and forced != me and card == JOKER)]
    knowledge = Knowledge(me, hand, list(view["hand_sizes"]), pool, voids, fixed, tr.eff)
    leader = view["leader"] if view["leader"] is not None else me
    return knowledge, [card for _, card in current], leader, played
