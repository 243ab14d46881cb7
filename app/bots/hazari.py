"""Hazari bots: ``strong`` (the arrangement with the most expected points) and ``greedy``.

* ``strong`` scores every valid arrangement of its 13 cards (HZ-4; ``hazari_search``) by the sum
  over the four rounds of ``P(win the round | the group's key) * points of the group`` plus the
  opponents' points that the group takes on average, with win rates per round estimated by
  ``scripts/estimate_hazari.py`` (``hazari_tables``). Round 1's rates depend on the seat's
  exposure position (it knows the dealer), the tie rule (HZ-7) comes from the table options.
* ``greedy`` takes the best triple of the hand as G1, the best triple of the other ten cards as
  G2, the best of the seven left as G3 and the last four as G4. Each group is the best triple of
  a set holding every later group, so the order is always valid (HZ-4).

:func:`suggest_arrangement` is the ``strong`` choice for a hand, for the players' hint.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from app.bots.hazari_search import TRIPLES, best_split
from app.bots.hazari_tables import RoundValues, round_values
from app.games.base import JSON
from app.games.cards import Card, card_texts, parse_cards
from app.games.hazari.arrangements import GROUP_SIZES, HAND_SIZE, Groups, draft_completions, hand_keys
from app.games.hazari.combos import card_points, key_of

SEATS = 4
_TRIPLE_MASKS = tuple(1 << a | 1 << b | 1 << c for a, b, c in TRIPLES)


def strong_arrangement(hand: Sequence[Card], position: int | None = None,
                       tie_rule: str = "later_wins") -> Groups:
    """The valid arrangement with the most expected points; ``position`` is the seat's place in
    round 1's exposure order (0 leads; None: not known)."""
    if len(hand) != HAND_SIZE:
        raise ValueError(f"a Hazari hand has {HAND_SIZE} cards, got {len(hand)}")
    return best_split(hand, round_values(position, tie_rule))


def completed_arrangement(hand: Sequence[Card], draft: Sequence[Sequence[Card]],
                          position: int | None = None, tie_rule: str = "later_wins") -> Groups:
    """The most expected points among the arrangements that keep every drafted card in its group;
    when the draft allows none, among those that keep its full groups; else :func:`strong_arrangement`."""
    values = round_values(position, tie_rule)
    full_groups = [group if len(group) == size else ()
                   for group, size in zip(draft, GROUP_SIZES, strict=False)]
    for kept in (draft, full_groups):
        candidates = draft_completions(hand, kept)
        if candidates:
            scores = expected_points(candidates, values)
            return candidates[int(np.argmax(scores))]
    return best_split(hand, values)


def expected_points(arrangements: Sequence[Groups], values: RoundValues) -> np.ndarray:
    """The expected points of each ordered arrangement, round by round."""
    total = np.zeros(len(arrangements))
    for number in range(len(GROUP_SIZES)):
        groups = [groups[number] for groups in arrangements]
        keys = np.array([key_of(group) for group in groups], dtype=np.int64)
        points = np.array([sum(map(card_points, group)) for group in groups], dtype=np.float64)
        total += values.value(number, keys, points)
    return total


def greedy_arrangement(hand: Sequence[Card]) -> Groups:
    """Best triple, best triple of the rest, again, and the four cards left (in hand order);
    among equal keys the first triple of hand positions in ``combinations`` order."""
    keys = hand_keys(hand)
    ranked = sorted(range(len(TRIPLES)), key=lambda triple: -keys[triple])
    used = 0
    chosen: list[int] = []
    for triple in ranked:
        if not _TRIPLE_MASKS[triple] & used:
            chosen.append(triple)
            used |= _TRIPLE_MASKS[triple]
            if len(chosen) == 3:
                break
    groups = [tuple(hand[i] for i in TRIPLES[triple]) for triple in chosen]
    return (*groups, tuple(hand[i] for i in range(HAND_SIZE) if not used >> i & 1))


def suggest_arrangement(hand: Sequence[str] | Sequence[Card], *, position: int | None = None,
                        tie_rule: str = "later_wins") -> list[list[str]]:
    """The ``strong`` bot's arrangement of ``hand`` (13 cards as strings or :class:`Card`) as the
    ``groups`` of an ``up`` action. Pass ``position = (seat - dealer - 1) % 4`` and the table's
    ``tie_rule`` when known. Raises ``ValueError`` for a hand that is not 13 distinct cards."""
    cards = tuple(card if isinstance(card, Card) else Card.parse(card) for card in hand)
    if len(set(cards)) != len(cards):
        raise ValueError(f"a hand holds every card once, got {card_texts(cards)}")
    return [card_texts(group) for group in strong_arrangement(cards, position, tie_rule)]


def _up_hand(view: JSON, legal: list[JSON]) -> tuple[Card, ...]:
    if not any(entry.get("kind") == "up" for entry in legal):
        raise ValueError(f"a Hazari bot only arranges; legal actions are {legal}")
    return parse_cards(view["hand"])


def view_position(view: JSON) -> int | None:
    """The seat's place in round 1's exposure order (HZ-6: ``dealer+1`` leads), if the view says."""
    seat, dealer = view.get("seat"), view.get("dealer")
    if type(seat) is not int or type(dealer) is not int:
        return None
    return (seat - dealer - 1) % SEATS


def view_tie_rule(view: JSON) -> str:
    options = view.get("options")
    rule = options.get("tie_rule") if isinstance(options, dict) else None
    return rule if isinstance(rule, str) else "later_wins"


class HazariStrongBot:
    """Searches every valid arrangement for the most expected points."""

    game = "hazari"
    level = "strong"

    def choose(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON:
        hand = _up_hand(view, legal)
        draft = [parse_cards(group) for group in view.get("draft") or []]
        if any(draft):
            completed = completed_arrangement(hand, draft, view_position(view), view_tie_rule(view))
            return {"kind": "up", "groups": [card_texts(group) for group in completed]}
        groups = suggest_arrangement(hand, position=view_position(view),
                                     tie_rule=view_tie_rule(view))
        return {"kind": "up", "groups": groups}


class HazariGreedyBot:
    """Best triple first, then the best of the rest."""

    game = "hazari"
    level = "greedy"

    def choose(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON:
        groups = greedy_arrangement(_up_hand(view, legal))
        return {"kind": "up", "groups": [card_texts(group) for group in groups]}
