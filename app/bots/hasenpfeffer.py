"""Hasenpfeffer bots: ``strong`` (Monte Carlo over the unseen cards) and ``greedy`` (the baseline).

Both see only their seat's view and legal list (rules ``hasenpfeffer.md``).

* ``greedy`` counts, for each suit, the trumps it would hold (Joker, both bowers and the suit,
  HP-3) and bids that count for its best suit if it beats the high bid (six is Little Pepper at a
  pepper table), else passes; names the suit with most trumps, lays away its weakest card and
  always plays its strongest legal card (trumps above everything, in trump order).
* ``strong`` values every choice by its expected margin (its team's points minus the others',
  HP-9, HP-11) over deals sampled consistently with its view and played out by a fixed policy
  (``hasenpfeffer_rollout``, on the engine's rules):

  - Bidding (HP-5, HP-6, HP-11): for each promising trump suit it deals the others' hands and the
    widow, takes the widow, lays away a card (:func:`discard_choice`) and plays out; the lowest
    legal bid is made when its expected margin beats that of passing: about zero when the others
    may still bid, more when the partner holds the high bid (it overcalls its partner only with a
    clearly better hand), a point below zero when the opponents hold a bid below 5, and, holding
    the Joker, the forced contract of 3 when all the others have passed (so it bids 1 rather than
    be forced to 3), in part when they may still all pass. Pepper bids need six tricks in
    most samples (Big Pepper in nearly all).
  - Trump and discard (HP-7): the suit, then the card to lay away, with the best expected margin
    for the contract, on samples of the eighteen cards it cannot see.
  - Play (HP-8): every legal card (cards that are equivalent, with no unseen card between them,
    tried once) on the same samples; the card with the best mean margin is played, the weaker
    card on a tie. The samples respect the voids the others have shown, the forced bidder's Joker
    and the trumps a bidder is likely to hold for his contract.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from app.bots.base import legal_by_kind
from app.bots.hasenpfeffer_rollout import (
    DECK,
    JOKER,
    SEATS,
    SUIT_INDEX,
    SUITS,
    TRUMPS,
    Accept,
    Contract,
    Knowledge,
    Trumps,
    cards_of,
    mask,
    play_out,
    read_play,
    sample_hands,
)
from app.bots.random_bot import resolve
from app.games.base import JSON
from app.games.hasenpfeffer.actions import bid_level

BID_SAMPLES = 48
TRUMP_SAMPLES = 60
DISCARD_SAMPLES = 40
PLAY_ROLLOUTS = 240
MIN_PLAY_SAMPLES = 24
PARTNER_HOLDS = 1.0
"""The margin expected when passing leaves the partner's bid standing."""
OVERCALL_PARTNER = 1.5
"""How much better its own contract must look before it overcalls its partner."""
OPEN_PASS = 0.0
"""The margin expected when passing while the others may still bid."""
OPPONENTS_HOLD = {5: 0.0, 6: 1.0}
"""The margin expected when passing leaves the opponents' bid standing, by its level (below 5:
:data:`OPPONENTS_HOLD_LOW`)."""
OPPONENTS_HOLD_LOW = -1.0
ALL_PASS_CHANCE = 0.35
"""How likely everybody else passes after the seat does, leaving it the forced 3 with the
Joker (HP-6)."""
LITTLE_PEPPER_P = 0.7
BIG_PEPPER_P = 0.9
WEAK_BIDDER_KEPT = 0.3


def contract_of(value: int | str, bidders: int, defenders_score: bool) -> Contract:
    """The bid as the engine scores it (HP-9, HP-11: Big Pepper doubles)."""
    return Contract(value, bidders, defenders_score)


def trump_count(cards: Sequence[int], tr: Trumps) -> int:
    return sum(1 for card in cards if tr.eff[card] == tr.trump)


def most_trumps(cards: Sequence[int]) -> int:
    """The suit in which ``cards`` hold most trumps (Joker and bowers included; S H D C on a
    tie)."""
    return max(range(4), key=lambda suit: (trump_count(cards, TRUMPS[suit]), -suit))



class HasenpfefferGreedyBot:
    """The baseline: bid the trump count, name the longest trump suit, play the highest card."""

    game = "hasenpfeffer"
    level = "greedy"

    def choose(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON:
        kinds = legal_by_kind("Hasenpfeffer", legal)
        hand = cards_of(view["hand"])
        if "pass" in kinds:
            return self.bid(view, legal, hand)
        if "trump" in kinds:
            return {"kind": "trump", "suit": SUITS[most_trumps(hand)]}
        tr = TRUMPS[SUIT_INDEX[view["trump"]]] if view.get("trump") else None
        if tr is not None and kinds.keys() & {"discard", "play"}:
            cards = cards_of([entry["card"] for entry in legal])
            choice = (min if "discard" in kinds else max)(cards, key=tr.own.__getitem__)
            return {"kind": "discard" if "discard" in kinds else "play", "card": str(DECK[choice])}
        return resolve(legal[0], view, rng)

    def bid(self, view: JSON, legal: list[JSON], hand: list[int]) -> JSON:
        count = trump_count(hand, TRUMPS[most_trumps(hand)])
        for entry in legal:
            if entry["kind"] == "bid" and bid_level(entry["value"]) == count:
                return {"kind": "bid", "value": entry["value"]}
        return {"kind": "pass"}


def discard_choice(cards: Sequence[int], tr: Trumps) -> int:
    """The card a bidder lays away with trump ``tr`` (HP-7): a side card, not an ace, preferably
    one that leaves a void, the lowest; a trump only from a hand of trumps."""
    def keep(card: int) -> tuple[int, int]:
        if tr.eff[card] == tr.trump:
            return (3, tr.own[card])
        if tr.own[card] == 14:
            return (2, 0)
        length = sum(1 for other in cards if tr.eff[other] == tr.eff[card])
        return (1, tr.own[card] + 3 * (length - 1))
    return min(cards, key=keep)


def candidate_suits(cards: Sequence[int]) -> list[int]:
    """The trump suits worth trying: those within one trump of the longest."""
    counts = [trump_count(cards, TRUMPS[suit]) for suit in range(4)]
    return [suit for suit in range(4) if counts[suit] >= max(counts) - 1 and counts[suit] > 0]


class HasenpfefferStrongBot:
    """Monte Carlo over the unseen cards for every decision (module docstring)."""

    game = "hasenpfeffer"
    level = "strong"

    def choose(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON:
        kinds = legal_by_kind("Hasenpfeffer", legal)
        if "play" in kinds:
            cards = [entry["card"] for entry in legal]
            return {"kind": "play",
                    "card": cards[0] if len(cards) == 1 else play_card(view, cards, rng)}
        if "pass" in kinds:
            return choose_bid(view, legal, rng)
        if "trump" in kinds:
            return {"kind": "trump", "suit": SUITS[choose_trump(view, rng)]}
        if "discard" in kinds:
            return {"kind": "discard", "card": str(DECK[choose_discard(view, rng)])}
        return resolve(legal[0], view, rng)


def _first_leader(view: JSON, bidder: int) -> int:
    """HP-8: the dealer's left leads, or the bidder by option."""
    if view["options"]["first_lead"] == "bidder":
        return bidder
    dealer: int = view["dealer"]
    return (dealer + 1) % SEATS


def declarer_tricks(view: JSON, suits: list[int], samples: int, rng: random.Random
                    ) -> dict[int, list[list[int]]]:
    """For each suit, the tricks per team over ``samples`` deals in which the seat takes the widow,
    names that suit, lays away :func:`discard_choice` and the deal is played out."""
    me = view["seat"]
    hand = cards_of(view["hand"])
    widow = cards_of([view["widow"]]) if view.get("widow") else []
    if widow and widow[0] not in hand:
        hand = hand + widow
    known = mask(hand)
    pool = [card for card in range(len(DECK)) if not known >> card & 1]
    counts = [6] * SEATS
    counts[me] = len(hand)
    knowledge = Knowledge(me, hand, counts, pool)
    leader = _first_leader(view, me)
    accept = auction_reading(view, rng)
    results: dict[int, list[list[int]]] = {suit: [] for suit in suits}
    for _ in range(samples):
        hands, left = sample_hands(knowledge, rng, accept)
        mine = hands[me] + (left[:1] if len(hands[me]) < 7 else [])
        for suit in suits:
            tr = TRUMPS[suit]
            copies = [cards[:] for cards in hands]
            copies[me] = mine[:]
            copies[me].remove(discard_choice(mine, tr))
            results[suit].append(play_out(copies, [], leader, [0, 0], 0, tr, me % 2))
    return results


def auction_reading(view: JSON, rng: random.Random) -> Accept | None:
    """A player who bid ``b`` is taken to hold at least ``min(b, 4) - 1`` trumps in some suit; a
    draw with fewer is kept only now and then."""
    floors: dict[int, int] = {}
    for call in view["auction"]:
        if call["call"] != "pass" and call["seat"] != view["seat"]:
            floors[call["seat"]] = min(bid_level(call["call"]), 4) - 1
    if not floors:
        return None

    def accept(seat: int, hand: list[int]) -> bool:
        floor = floors.get(seat, 0)
        if floor <= 1 or max(trump_count(hand, TRUMPS[suit]) for suit in range(4)) >= floor:
            return True
        return rng.random() < WEAK_BIDDER_KEPT

    return accept


def mean_margin(tricks: list[list[int]], contract: Contract, team: int) -> float:
    return sum(contract.margin(deal, team) for deal in tricks) / len(tricks)


def choose_bid(view: JSON, legal: list[JSON], rng: random.Random) -> JSON:
    """The lowest legal bid if its expected margin beats passing, a pepper bid only when six
    tricks are (nearly) sure, else pass (module docstring)."""
    team = view["seat"] % 2
    bids = [entry["value"] for entry in legal if entry["kind"] == "bid"]
    if not bids:
        return {"kind": "pass"}
    hand = cards_of(view["hand"])
    results = declarer_tricks(view, candidate_suits(hand) or [0], BID_SAMPLES, rng)
    defenders = bool(view["options"]["defenders_score"])

    def value(bid: int | str) -> float:
        contract = contract_of(bid, team, defenders)
        return max(mean_margin(tricks, contract, team) for tricks in results.values())

    slam = max(sum(1 for deal in tricks if deal[team] == 6) / len(tricks)
               for tricks in results.values())
    if "big_pepper" in bids and slam >= BIG_PEPPER_P:
        return {"kind": "bid", "value": "big_pepper"}
    lowest = min(bids, key=bid_level)
    if lowest == "big_pepper" or (lowest == "little_pepper" and slam < LITTLE_PEPPER_P):
        return {"kind": "pass"}
    if value(lowest) > pass_value(view, JOKER in hand, lambda: value(3)):
        return {"kind": "bid", "value": lowest}
    return {"kind": "pass"}


def pass_value(view: JSON, has_joker: bool, forced: Callable[[], float]) -> float:
    """What passing is expected to be worth (module docstring); ``forced`` gives the value of
    the forced contract of 3 (HP-6)."""
    me, high_bidder = view["seat"], view["high_bidder"]
    if high_bidder is not None and high_bidder % 2 == me % 2:
        return PARTNER_HOLDS + OVERCALL_PARTNER
    others_passed = len([seat for seat in view["passed"] if seat != me]) == SEATS - 1
    if high_bidder is None and others_passed:
        return forced() if has_joker else 0.0
    if high_bidder is not None:
        return OPPONENTS_HOLD.get(bid_level(view["high_bid"]), OPPONENTS_HOLD_LOW)
    if has_joker:
        return ALL_PASS_CHANCE * forced() + (1 - ALL_PASS_CHANCE) * OPEN_PASS
    return OPEN_PASS


def choose_trump(view: JSON, rng: random.Random) -> int:
    """HP-7: the suit with the best expected margin for the contract, the widow in hand."""
    hand = cards_of(view["hand"])
    suits = candidate_suits(hand) or [most_trumps(hand)]
    if len(suits) == 1:
        return suits[0]
    team = view["seat"] % 2
    contract = contract_of(view["contract"], team, bool(view["options"]["defenders_score"]))
    results = declarer_tricks(view, suits, TRUMP_SAMPLES, rng)
    return max(suits, key=lambda suit: (mean_margin(results[suit], contract, team), -suit))


def choose_discard(view: JSON, rng: random.Random) -> int:
    """HP-7: of the likely cards to lay away, the one that leaves the best expected margin."""
    me, team = view["seat"], view["seat"] % 2
    tr = TRUMPS[SUIT_INDEX[view["trump"]]]
    hand = cards_of(view["hand"])
    ranked = sorted(hand, key=lambda card: discard_rank(hand, card, tr))
    candidates = ranked[:4]
    contract = contract_of(view["contract"], team, bool(view["options"]["defenders_score"]))
    known = mask(hand)
    pool = [card for card in range(len(DECK)) if not known >> card & 1]
    counts = [6] * SEATS
    counts[me] = len(hand)
    knowledge = Knowledge(me, hand, counts, pool)
    leader = _first_leader(view, me)
    totals = [0.0] * len(candidates)
    for _ in range(DISCARD_SAMPLES):
        hands, _left = sample_hands(knowledge, rng)
        for index, card in enumerate(candidates):
            copies = [cards[:] for cards in hands]
            copies[me].remove(card)
            tricks = play_out(copies, [], leader, [0, 0], 0, tr, team)
            totals[index] += contract.margin(tricks, team)
    best = max(range(len(candidates)), key=lambda i: (round(totals[i], 6), -i))
    return candidates[best]


def discard_rank(hand: Sequence[int], card: int, tr: Trumps) -> int:
    """Position of ``card`` in the order of :func:`discard_choice` (0: laid away first)."""
    rest = list(hand)
    place = 0
    while rest:
        choice = discard_choice(rest, tr)
        if choice == card:
            return place
        rest.remove(choice)
        place += 1
    return place


def distinct_cards(cards: list[int], known: int, tr: Trumps) -> list[int]:
    """``cards`` less those equivalent to a weaker one kept: two cards of one effective suit with
    no unseen card between them win and lose the same tricks."""
    kept: list[int] = []
    for suit in {tr.eff[card] for card in cards}:
        run: list[int] = []
        for card in tr.order[suit]:
            if card in cards:
                run.append(card)
            elif not known >> card & 1 and run:
                kept.append(run[-1])
                run = []
        if run:
            kept.append(run[-1])
    return sorted(kept, key=cards.index)


def bidder_reading(view: JSON, knowledge: Knowledge, tr: Trumps, rng: random.Random
                   ) -> Accept | None:
    """A bidder other than the seat (not forced) is taken to hold trumps for his contract (two,
    three for four tricks or more, counting those he has played); a draw with fewer is kept only
    now and then."""
    bidder = view["bidder"]
    if bidder is None or bidder == view["seat"] or view["forced"]:
        return None
    floor = 3 if bid_level(view["contract"]) >= 4 else 2
    shown = sum(1 for trick in view["completed_tricks"] for play in trick["plays"]
                if play["seat"] == bidder and tr.is_trump(cards_of([play["card"]])[0]))
    shown += sum(1 for play in view["trick"]
                 if play["seat"] == bidder and tr.is_trump(cards_of([play["card"]])[0]))

    def accept(seat: int, hand: list[int]) -> bool:
        if seat != bidder or shown + trump_count(hand, tr) >= floor:
            return True
        return rng.random() < WEAK_BIDDER_KEPT

    return accept


def play_card(view: JSON, cards: list[str], rng: random.Random) -> str:
    """HP-8: the legal card with the best mean margin over determinized play-outs."""
    knowledge, trick, leader, played = read_play(view)
    tr = TRUMPS[SUIT_INDEX[view["trump"]]]
    me, team = view["seat"], view["seat"] % 2
    bidders = view["bidder"] % 2
    contract = contract_of(view["contract"], bidders, bool(view["options"]["defenders_score"]))
    candidates = distinct_cards(cards_of(cards), played | mask(knowledge.hand), tr)
    if len(candidates) == 1:
        return str(DECK[candidates[0]])
    accept = bidder_reading(view, knowledge, tr, rng)
    totals = [0.0] * len(candidates)
    samples = max(MIN_PLAY_SAMPLES, PLAY_ROLLOUTS // len(candidates))
    for _ in range(samples):
        hands, _left = sample_hands(knowledge, rng, accept)
        for index, card in enumerate(candidates):
            copies = [cards[:] for cards in hands]
            copies[me].remove(card)
            tricks = play_out(copies, [*trick, card], leader, list(view["tricks"]),
                              played | 1 << card, tr, bidders)
            totals[index] += contract.margin(tricks, team)
    best = max(range(len(candidates)),
               key=lambda i: (round(totals[i], 6), -tr.own[candidates[i]]))
    return str(DECK[candidates[best]])
