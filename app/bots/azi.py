"""Azi bots: ``strong`` (Monte Carlo equity, chips by expected value) and ``greedy`` (the baseline).

Both see only their seat's view and legal list (rules ``azi.md``).

* ``greedy`` opens with the minimum bet, calls everything (never raises, never folds), buys in
  after every Azi it can pay for, lays away its weakest card in the 4-card variant and plays its
  strongest legal card (trumps above everything, the six on the scene on top, AZ-6).
* ``strong`` deals the unseen cards at random to the players still in, consistently with what it
  has seen (``azi_knowledge``: the exposed trump card stays with its owner, a player who did not
  follow or trump has shown a void), and plays each sample out on the engine's trick rules
  (``app.games.azi.tricks.play_out``) with a simple policy; the share of the pot it then wins is
  its equity. Hands of players who raised are drawn from the stronger hands
  (a weak draw is kept only now and then).

  Betting (AZ-7): each choice is valued in chips on the assumption that the others call: folding
  is worth 0 (chips already in are gone), calling ``equity(high bidder leads) * pot after the
  calls - call``, a bet or raise to ``R`` ``equity(it leads, AZ-7.5) * pot after the calls -
  cost``. A bet or raise is sized by half the Kelly fraction of its stack for a k-to-1 payout (k
  callers), never beyond what an opponent can match; the best-valued choice is taken. So it
  folds a poor hand facing a large bet, raises a strong one for value and for the lead, and
  opens at the minimum unless its hand is good.

  Play (AZ-8, AZ-9): every legal card is tried on the same samples; the card with the highest
  mean value (1 for taking the pot, a third for each one-trick player of an Azi) is played, the
  weaker card on a tie. Buy-in after an Azi (AZ-13): only when its expected share of the pot,
  with those who may still buy in, beats the price (it seldom does: the others replay for
  free). 4-card variant: the discard is the card whose absence leaves the best equity.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.bots.azi_knowledge import Accept, Deal, cards_of, read_deal, sample_hands
from app.bots.base import legal_by_kind
from app.bots.random_bot import resolve
from app.games.azi import tricks
from app.games.azi.tricks import (
    DECK,
    INDEX,
    RANK_OF,
    STRENGTHS,
    SUIT_INDEX,
    SUIT_OF,
    Strength,
    own_power,
    playable,
)
from app.games.base import JSON
from app.games.cards import Card

ROLLOUTS = 360
"""Rollouts per decision (split over the candidates), about 10 ms."""
MIN_SAMPLES = 40
KELLY_SCALE = 0.5
SKILL = 1.1
"""How much better than an average player the bot expects to do in a re-deal (buy-in)."""
WEAK_RAISER_KEPT = 0.35
"""How often a raiser's sampled hand is kept although it looks weak."""
AZI_SHARE = 1 / 3
"""What an Azi is worth, as a share of the pot, to a player who took one trick (AZ-13)."""


def rollout_policy(strength: Strength) -> tricks.Policy:
    """The rollouts' choice of card, for every player: lead the strongest card; when following,
    win the trick with the cheapest winning card if last to play and with the strongest one
    otherwise; when the trick cannot be won, play the weakest legal card."""
    own = tuple(own_power(strength, card) for card in range(len(DECK)))

    def policy(hand: list[int], trick: list[tuple[int, int]], strength: Strength, trump: int,
               last: bool) -> int:
        if not trick:
            return max(hand, key=own.__getitem__)
        led = SUIT_OF[trick[0][1]]
        row = strength[led]
        legal = playable(hand, led, trump)
        best = 0
        for _, card in trick:
            if row[card] > best:
                best = row[card]
        winners = [card for card in legal if row[card] > best]
        if winners:
            return min(winners, key=row.__getitem__) if last else max(winners, key=row.__getitem__)
        return min(legal, key=own.__getitem__)

    return policy


POLICIES = {key: rollout_policy(strength) for key, strength in STRENGTHS.items()}


def play_out(hands: list[list[int]], trick: list[tuple[int, int]], leader: int, won: list[int],
             strength: Strength, trump: int, six_on_scene: bool) -> int:
    """A rollout: the deal finished on the engine's rules with every player on the rollout
    policy."""
    return tricks.play_out(hands, trick, leader, won, strength, trump, POLICIES[trump, six_on_scene])


def value(outcome: int, me: int, won: list[int]) -> float:
    """What the end of a rollout is worth to position ``me``: 1 for taking the pot, a third of
    it for each one-trick player of an Azi (AZ-9, AZ-13: they replay for the pot among three)."""
    if outcome == me:
        return 1.0
    if outcome == tricks.AZI and won[me] == 1:
        return AZI_SHARE
    return 0.0


def _strongest(cards: Sequence[str], view: JSON) -> str:
    table = STRENGTHS[(SUIT_INDEX[view["trump"]], bool(view["six_on_scene"]))]
    return max(cards, key=lambda text: own_power(table, INDEX[Card.parse(text)]))


def _weakest(cards: Sequence[str], view: JSON) -> str:
    table = STRENGTHS[(SUIT_INDEX[view["trump"]], bool(view["six_on_scene"]))]
    return min(cards, key=lambda text: own_power(table, INDEX[Card.parse(text)]))



class AziGreedyBot:
    """The baseline: minimum opening bet, call everything, buy in, play the strongest card."""

    game = "azi"
    level = "greedy"

    def choose(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON:
        kinds = legal_by_kind("Azi", legal)
        if "bet" in kinds:
            return {"kind": "bet", "amount": kinds["bet"]["min"]}
        for kind in ("call", "buy_in"):
            if kind in kinds:
                return {"kind": kind}
        if "play" in kinds:
            return {"kind": "play", "card": _strongest([e["card"] for e in legal], view)}
        if "discard" in kinds:
            return {"kind": "discard", "card": _weakest([e["card"] for e in legal], view)}
        return resolve(legal[0], view, rng)


class AziStrongBot:
    """Monte Carlo equity; bets by expected chips, plays the card that wins most often."""

    game = "azi"
    level = "strong"

    def __init__(self, rollouts: int = ROLLOUTS) -> None:
        self.rollouts = rollouts

    def choose(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON:
        kinds = legal_by_kind("Azi", legal)
        if "play" in kinds:
            return {"kind": "play", "card": self.play(view, [e["card"] for e in legal], rng)}
        if "bet" in kinds or "call" in kinds:
            return self.bet(view, kinds, rng)
        if "buy_in" in kinds:
            return {"kind": "buy_in" if should_buy_in(view) else "decline"}
        if "discard" in kinds:
            return {"kind": "discard", "card": self.discard(view, rng)}
        return resolve(legal[0], view, rng)

    def play(self, view: JSON, cards: list[str], rng: random.Random) -> str:
        """The legal card with the best mean value over the samples (AZ-8, AZ-9)."""
        if len(cards) == 1:
            return cards[0]
        deal = read_deal(view)
        table, candidates = deal.table, cards_of(cards)
        leader = deal.leader if deal.leader is not None else 0
        totals = [0.0] * len(candidates)
        samples = max(MIN_SAMPLES, self.rollouts // len(candidates))
        for _ in range(samples):
            hands = sample_hands(deal, rng)
            for index, card in enumerate(candidates):
                copies = [hand[:] for hand in hands]
                copies[0].remove(card)
                won = deal.won[:]
                outcome = play_out(copies, [*deal.trick, (0, card)], leader, won, table, deal.trump,
                                   deal.six_on_scene)
                totals[index] += value(outcome, 0, won)
        best = max(range(len(candidates)),
                   key=lambda i: (round(totals[i], 6), -own_power(table, candidates[i])))
        return cards[best]

    def bet(self, view: JSON, kinds: dict[str, JSON], rng: random.Random) -> JSON:
        """The opening bet, call, raise or fold with the best expected chips (AZ-7)."""
        deal = read_deal(view)
        high_bidder = view["high_bidder"]
        follow = deal.position(high_bidder) if high_bidder in deal.seats else 0
        lead_equity, follow_equity = equities(deal, view, follow, self.rollouts // 2, rng)
        money = Money.of(view, deal)
        if "bet" in kinds:
            entry = kinds["bet"]
            amount = money.sized(lead_equity, entry["min"], entry["max"])
            return {"kind": "bet", "amount": amount}
        choices: list[tuple[float, JSON]] = [(0.0, {"kind": "fold"})]
        choices.append((money.call_value(follow_equity), {"kind": "call"}))
        if "raise" in kinds:
            entry = kinds["raise"]
            for to in {entry["min"], money.sized(lead_equity, entry["min"], entry["max"])}:
                choices.append((money.raise_value(lead_equity, to), {"kind": "raise", "to": to}))
        return max(choices, key=lambda choice: choice[0])[1]

    def discard(self, view: JSON, rng: random.Random) -> str:
        """4-card variant (AZ-6): the card whose absence leaves the best equity, the others
        laying away their weakest card; the first player after the button is assumed to lead."""
        deal = read_deal(view)
        hand, table = deal.hand, deal.table
        seats, button = len(view["hand_sizes"]), view["button"]
        ring = [(button + step) % seats for step in range(1, seats + 1)]
        leader = deal.position(next(seat for seat in ring if seat in deal.seats))
        totals = [0.0] * len(hand)
        for _ in range(max(MIN_SAMPLES // 2, self.rollouts // len(hand))):
            hands = sample_hands(deal, rng)
            for pos in range(1, len(hands)):
                if len(hands[pos]) > 3:
                    hands[pos].remove(min(hands[pos], key=lambda card: own_power(table, card)))
            for index, card in enumerate(hand):
                copies = [cards[:] for cards in hands]
                copies[0].remove(card)
                won = [0] * len(copies)
                totals[index] += value(play_out(copies, [], leader, won, table, deal.trump,
                                                deal.six_on_scene), 0, won)
        best = max(range(len(hand)), key=lambda i: (round(totals[i], 6), -own_power(table, hand[i])))
        return str(DECK[hand[best]])


def equities(deal: Deal, view: JSON, follow: int, samples: int,
             rng: random.Random) -> tuple[float, float]:
    """Mean value of the deal if the seat leads (position 0), and if position ``follow`` does;
    on the same samples."""
    accept = raiser_reading(deal, view, rng)
    table = deal.table
    lead = follow_total = 0.0
    samples = max(MIN_SAMPLES, samples)
    for _ in range(samples):
        hands = sample_hands(deal, rng, accept)
        won = [0] * len(hands)
        lead += value(play_out([h[:] for h in hands], [], 0, won, table, deal.trump, deal.six_on_scene),
                      0, won)
        if follow == 0:
            continue
        won = [0] * len(hands)
        follow_total += value(play_out([h[:] for h in hands], [], follow, won, table, deal.trump,
                                       deal.six_on_scene), 0, won)
    lead /= samples
    return lead, (lead if follow == 0 else follow_total / samples)


def hand_score(hand: Sequence[int], trump: int, six_on_scene: bool) -> float:
    """A rough strength: 2 per trump (3 for a queen or better, or the six on the scene), 1 per
    side ace, a half per side king."""
    score = 0.0
    for card in hand:
        rank = RANK_OF[card]
        if SUIT_OF[card] == trump:
            score += 3 if rank >= 12 or (six_on_scene and rank == 6) else 2
        elif rank == 14:
            score += 1
        elif rank == 13:
            score += 0.5
    return score


def raiser_reading(deal: Deal, view: JSON, rng: random.Random) -> Accept | None:
    """An acceptance test for sampled hands: a player who raised (or opened above twice the
    minimum bet) is taken to hold a fair hand; a weak draw is kept only now and then."""
    opener, min_bet = view["opener"], view["options"]["min_bet"]
    strong: set[int] = set()
    for pos, seat in enumerate(deal.seats):
        if pos == 0:
            continue
        raises = view["bids"][seat] - (1 if seat == opener else 0)
        if raises > 0 or (seat == opener and view["bets"][seat] > 2 * min_bet):
            strong.add(pos)
    if not strong:
        return None

    def accept(pos: int, hand: list[int]) -> bool:
        if pos not in strong or hand_score(hand, deal.trump, deal.six_on_scene) >= 3:
            return True
        return rng.random() < WEAK_RAISER_KEPT

    return accept


class Money:
    """The chips of a betting decision: the pot, the seat's bet and stack, and what each
    opponent still in could add (his bet and stack)."""

    def __init__(self, pot: int, bet: int, stack: int, high: int,
                 others: list[tuple[int, int]]) -> None:
        self.pot, self.bet, self.stack, self.high, self.others = pot, bet, stack, high, others

    @classmethod
    def of(cls, view: JSON, deal: Deal) -> Money:
        me = view["seat"]
        others = [(view["bets"][seat], view["stacks"][seat]) for seat in deal.seats[1:]]
        return cls(view["pot"], view["bets"][me], view["stacks"][me], view["high"], others)

    def pot_after(self, to: int) -> int:
        """The pot once the seat's bet is ``to`` and every opponent has matched it as far as his
        stack allows."""
        mine = min(to - self.bet, self.stack)
        theirs = sum(min(max(0, to - bet), stack) for bet, stack in self.others)
        return self.pot + mine + theirs

    def call_value(self, equity: float) -> float:
        need = min(self.high - self.bet, self.stack)
        return equity * self.pot_after(self.bet + need) - need

    def raise_value(self, equity: float, to: int) -> float:
        return equity * self.pot_after(to) - (to - self.bet)

    def sized(self, equity: float, lowest: int, highest: int) -> int:
        """Half the Kelly bet for a payout of k to 1 (k opponents able to call), as a total bet
        between ``lowest`` and ``highest``, never above what the deepest opponent can match."""
        callers = sum(1 for _, stack in self.others if stack > 0) or 1
        fraction = (equity * (callers + 1) - 1) / callers
        target = self.bet + int(KELLY_SCALE * max(0.0, fraction) * (self.stack + self.bet))
        deepest = max((bet + stack for bet, stack in self.others), default=highest)
        return max(lowest, min(target, highest, max(lowest, deepest)))


def should_buy_in(view: JSON) -> bool:
    """AZ-13: buy in when the expected share of the pot in the re-deal (the free players, those
    who bought, the seat, and half of those still to answer) beats the price."""
    offer = view["buy_in"]
    price = offer["price"]
    bought = sum(1 for decision in offer["decisions"] if decision["bought"])
    later = max(0, len(offer["waiting"]) - 1) / 2
    players = len(offer["free"]) + bought + 1 + later
    pot = view["pot"] + price * (1 + later)
    return bool(SKILL * pot / players > price)
