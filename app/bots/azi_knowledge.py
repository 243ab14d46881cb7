"""What one seat knows of the Azi deal in play, and hands drawn for the others consistently with it,
for the ``strong`` bot's rollouts (which then run on the engine's trick rules,
:func:`app.games.azi.tricks.play_out`).

Cards are the engine's small integers (:mod:`app.games.azi.tricks`). ``Deal`` is the seat's
knowledge (its hand, trump, who is still in, the tricks so far, what each player has shown he
lacks); :func:`sample_hands` fills in the others' hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from app.games.azi.tricks import DECK, INDEX, STRENGTHS, SUIT_INDEX, SUIT_OF, Strength
from app.games.base import JSON
from app.games.cards import Card

SAMPLE_TRIES = 40


@dataclass
class Deal:
    """One seat's knowledge of the deal in play. Positions 0.. are the players still in the deal
    in clockwise order from the seat; ``me`` is position 0."""

    seats: list[int]
    hand: list[int]
    counts: list[int]
    trump: int
    six_on_scene: bool
    pool: list[int]
    fixed: dict[int, list[int]] = field(default_factory=dict)
    voids: dict[int, set[int]] = field(default_factory=dict)
    won: list[int] = field(default_factory=list)
    trick: list[tuple[int, int]] = field(default_factory=list)
    leader: int | None = None

    @property
    def table(self) -> Strength:
        return STRENGTHS[(self.trump, self.six_on_scene)]

    def position(self, seat: int) -> int:
        return self.seats.index(seat)


def cards_of(texts: Sequence[str]) -> list[int]:
    return [INDEX[Card.parse(text)] for text in texts]


def read_deal(view: JSON) -> Deal:
    """The deal as the seat of ``view`` knows it: every card it has seen is out of the pool; the
    exposed trump card stays with its owner until he plays it (in the 4-card variant he may have
    laid it away unseen; it is assumed kept); voids from the tricks (AZ-8: a player who did not
    follow has none of the led suit, and none of trumps either if he did not trump)."""
    me = view["seat"]
    folded = set(view["folded"])
    ring = [(me + step) % len(view["hand_sizes"]) for step in range(len(view["hand_sizes"]))]
    seats = [seat for seat in ring if seat in view["participants"] and seat not in folded]
    trump = SUIT_INDEX[view["trump"]]
    deal = Deal(seats=seats, hand=cards_of(view["hand"]),
                counts=[view["hand_sizes"][seat] for seat in seats], trump=trump,
                six_on_scene=bool(view["six_on_scene"]), pool=[],
                won=[view["tricks_won"][seat] for seat in seats])
    known = set(deal.hand)
    if view.get("my_discard"):
        known.add(INDEX[Card.parse(view["my_discard"])])
    tricks = [[(entry["seat"], entry["card"]) for entry in trick["cards"]] for trick in view["tricks"]]
    current = [(entry["seat"], entry["card"]) for entry in view["trick"]]
    for plays in [*tricks, current]:
        _note_voids(deal, [(seat, INDEX[Card.parse(text)]) for seat, text in plays], known)
    exposed, owner = view["exposed_card"], view["exposed_seat"]
    if exposed is not None:
        card = INDEX[Card.parse(exposed)]
        if card not in known and owner != me and owner in seats:
            deal.fixed[deal.position(owner)] = [card]
        known.add(card)
    deal.pool = [card for card in range(len(DECK)) if card not in known]
    deal.trick = [(deal.position(seat), INDEX[Card.parse(text)]) for seat, text in current]
    if view["leader"] is not None and view["leader"] in seats:
        deal.leader = deal.position(view["leader"])
    return deal


def _note_voids(deal: Deal, plays: list[tuple[int, int]], known: set[int]) -> None:
    if not plays:
        return
    led = SUIT_OF[plays[0][1]]
    for seat, card in plays:
        known.add(card)
        if seat not in deal.seats or SUIT_OF[card] == led:
            continue
        void = deal.voids.setdefault(deal.position(seat), set())
        void.add(led)
        if SUIT_OF[card] != deal.trump:
            void.add(deal.trump)


Accept = Callable[[int, list[int]], bool]


def sample_hands(deal: Deal, rng: random.Random, accept: Accept | None = None,
                 counts: Sequence[int] | None = None) -> list[list[int]]:
    """Every position's hand: the seat's own, and for the others ``counts`` (default: the cards
    they hold) drawn from the pool, respecting the voids and the fixed cards. ``accept(position,
    hand)`` may refuse a hand (a raiser's hand that looks too weak); after a few refusals or
    conflicts the last draw is taken anyway (voids still respected if possible)."""
    counts = deal.counts if counts is None else counts
    order = sorted(range(1, len(deal.seats)), key=lambda pos: -len(deal.voids.get(pos, ())))
    hands: list[list[int]] = []
    for attempt in range(SAMPLE_TRIES):
        hands = _draw(deal, rng, order, counts, strict=attempt < SAMPLE_TRIES - 1)
        if hands and (accept is None or attempt >= SAMPLE_TRIES // 2
                      or all(accept(pos, hands[pos]) for pos in order)):
            return hands
    return hands or _draw(deal, rng, order, counts, strict=False)


def _draw(deal: Deal, rng: random.Random, order: list[int], counts: Sequence[int],
          strict: bool) -> list[list[int]]:
    pool = deal.pool[:]
    rng.shuffle(pool)
    hands: list[list[int]] = [[] for _ in deal.seats]
    hands[0] = deal.hand[:]
    for pos in order:
        hand = list(deal.fixed.get(pos, ()))
        void = deal.voids.get(pos) if strict else None
        pool = _fill(hand, counts[pos], pool, void)
        if len(hand) < counts[pos]:
            return []
        hands[pos] = hand
    return hands


def _fill(hand: list[int], count: int, pool: list[int], void: set[int] | None) -> list[int]:
    """Deal the first cards of ``pool`` outside the suits of ``void`` into ``hand`` until it holds
    ``count``; what is left of the pool, in order."""
    if not void:
        take = max(0, count - len(hand))
        hand += pool[:take]
        return pool[take:]
    rest = []
    for index, card in enumerate(pool):
        if len(hand) == count:
            rest += pool[index:]
            break
        if SUIT_OF[card] in void:
            rest.append(card)
        else:
            hand.append(card)
    return rest
