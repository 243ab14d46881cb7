"""Monte Carlo of an Azi deal as one seat sees it: the unseen cards dealt at random to the other
players consistently with the view, then the deal played out by a fixed policy.

Cards are small integers here (``INDEX``: the order of ``azi_deck()``, suit ``i // 9``, rank
``6 + i % 9``) so that a rollout costs a few tens of microseconds. ``Deal`` is the seat's
knowledge (its hand, trump, who is still in, the tricks so far, what each player has shown he
lacks); :func:`sample_hands` fills in the others' hands; :func:`play_out` finishes the deal.

The rollout policy, for every player: lead the strongest card; when following, win the trick
with the cheapest winning card if last to play and with the strongest one otherwise; when the
trick cannot be won, play the weakest legal card. A deal is worth 1 to its winner, and
:data:`AZI_SHARE` to each one-trick player of an Azi (AZ-9, AZ-13: they replay for the carried
pot among three).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from app.games.base import JSON
from app.games.cards import Card, azi_deck

DECK = azi_deck()
INDEX = {card: index for index, card in enumerate(DECK)}
SUIT_INDEX = {"H": 0, "D": 1, "S": 2}
SUIT_OF = tuple(index // 9 for index in range(len(DECK)))
RANK_OF = tuple(6 + index % 9 for index in range(len(DECK)))
AZI_SHARE = 1 / 3
"""What an Azi is worth, as a share of the pot, to a player who took one trick (AZ-13)."""
TRUMP_BONUS = 100
TRICKS_TO_WIN = 2
TRICKS_PER_DEAL = 3
SAMPLE_TRIES = 40

Table = tuple[tuple[int, ...], ...]
"""``table[led][card]``: how strongly a card bids for a trick led in suit ``led`` (AZ-8)."""


def _strength_table(trump: int, six_on_scene: bool) -> Table:
    rows = []
    for led in range(3):
        row = []
        for card in range(len(DECK)):
            suit, rank = SUIT_OF[card], RANK_OF[card]
            if suit == trump:
                row.append(TRUMP_BONUS + (15 if six_on_scene and rank == 6 else rank))
            else:
                row.append(rank if suit == led else 0)
        rows.append(tuple(row))
    return tuple(rows)


TABLES = {(trump, six): _strength_table(trump, six) for trump in range(3) for six in (False, True)}


def own_power(table: Table, card: int) -> int:
    """A card's strength in its own suit (trumps above everything): the order of "highest"."""
    return table[SUIT_OF[card]][card]


def playable(hand: Sequence[int], led: int | None, trump: int) -> list[int]:
    """AZ-8: the led suit if held, else a trump if held, else anything."""
    if led is None:
        return list(hand)
    same = [card for card in hand if SUIT_OF[card] == led]
    if same:
        return same
    trumps = [card for card in hand if SUIT_OF[card] == trump]
    return trumps or list(hand)


def policy(hand: Sequence[int], trick: Sequence[tuple[int, int]], table: Table, trump: int,
           last: bool) -> int:
    """The rollout policy's card (module docstring)."""
    if not trick:
        return max(hand, key=lambda card: own_power(table, card))
    led = SUIT_OF[trick[0][1]]
    row = table[led]
    legal = playable(hand, led, trump)
    best = max(row[card] for _, card in trick)
    winners = [card for card in legal if row[card] > best]
    if winners:
        return min(winners, key=row.__getitem__) if last else max(winners, key=row.__getitem__)
    return min(legal, key=lambda card: own_power(table, card))


def play_out(hands: list[list[int]], trick: list[tuple[int, int]], leader: int, won: list[int],
             table: Table, trump: int) -> int:
    """Finish the deal from here (``hands`` by position in playing order, the current ``trick``
    as ``(position, card)``); the winner's position, or -1 for an Azi. Mutates its arguments."""
    players = len(hands)
    while True:
        while len(trick) < players:
            position = (leader + len(trick)) % players
            hand = hands[position]
            card = policy(hand, trick, table, trump, len(trick) == players - 1)
            hand.remove(card)
            trick.append((position, card))
        row = table[SUIT_OF[trick[0][1]]]
        winner = max(trick, key=lambda played: row[played[1]])[0]
        won[winner] += 1
        if won[winner] == TRICKS_TO_WIN:
            return winner
        if sum(won) == TRICKS_PER_DEAL:
            return -1
        trick.clear()
        leader = winner


def value(outcome: int, me: int, won: list[int]) -> float:
    """What the end of a rollout is worth to position ``me`` (module docstring)."""
    if outcome == me:
        return 1.0
    if outcome == -1 and won[me] == 1:
        return AZI_SHARE
    return 0.0


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
    def table(self) -> Table:
        return TABLES[(self.trump, self.six_on_scene)]

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
    ring = [(me + step) % len(view["cards_held"]) for step in range(len(view["cards_held"]))]
    seats = [seat for seat in ring if seat in view["participants"] and seat not in folded]
    trump = SUIT_INDEX[view["trump"]]
    deal = Deal(seats=seats, hand=cards_of(view["hand"]),
                counts=[view["cards_held"][seat] for seat in seats], trump=trump,
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
        void = deal.voids.get(pos, set()) if strict else set()
        rest = []
        for card in pool:
            if len(hand) < counts[pos] and SUIT_OF[card] not in void:
                hand.append(card)
            else:
                rest.append(card)
        if len(hand) < counts[pos]:
            return []
        hands[pos] = hand
        pool = rest
    return hands
