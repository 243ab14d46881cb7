"""What a seat (or a spectator) may know of a Hazari match, and the cards hidden from it.

While its hand is in play, a seat's view also names every 3-card and 4-card group its 13 cards can
make (``combinations``), so that the client names a group and checks the order of HZ-4 without a
rule of its own and without asking:

* ``cards``: the 13 cards dealt to the seat; groups are named by positions in this list;
* ``triples``: two base-36 digits per 3-card group, positions ``i < j < k`` in lexicographic order
  (286 groups): the group's strength, a rank among the distinct keys of the hand (0 the weakest;
  equal keys have equal strength, HZ-5);
* ``categories``: the HZ-5 category code (1 Indi .. 6 Troy) of each strength, weakest first;
* ``quads``: two base-36 digits per 4-card group, positions in lexicographic order (715 groups):
  the index in ``triples`` of its best triple, which is its value (HZ-4).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from app.games.base import JSON
from app.games.cards import Card
from app.games.hazari.arrangements import QUAD_TRIPLES, hand_keys
from app.games.hazari.combos import CARD_TEXT, cards_points, category_of, key_of
from app.games.hazari.state import HazariState, Phase

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_DIGIT_CODES = np.frombuffer(DIGITS.encode("ascii"), dtype=np.uint8)
_QUADS = np.array(QUAD_TRIPLES, dtype=np.int64)


def to_act(state: HazariState) -> tuple[int, ...]:
    """The seats still arranging (HZ-4: everyone at once, until each calls up)."""
    if state.phase is not Phase.ARRANGING:
        return ()
    return tuple(seat for seat, groups in enumerate(state.arrangements) if groups is None)


def next_leader(state: HazariState) -> int:
    """HZ-6: round 1 is led by ``dealer+1``, later rounds by the previous round's winner."""
    return state.rounds[-1].winner if state.rounds else (state.dealer + 1) % len(state.hands)


def hand_combinations(hand: tuple[Card, ...]) -> JSON:
    """The ``combinations`` field for a 13-card hand (see the module docstring)."""
    categories, triples, quads = _combinations(hand)
    return {"cards": [CARD_TEXT[card] for card in hand], "categories": list(categories),
            "triples": triples, "quads": quads}


@lru_cache(maxsize=64)
def _combinations(hand: tuple[Card, ...]) -> tuple[tuple[int, ...], str, str]:
    distinct, strengths = np.unique(np.array(hand_keys(hand)), return_inverse=True)
    best = _QUADS[np.arange(len(_QUADS)), np.argmax(strengths[_QUADS], axis=1)]
    return tuple((distinct >> 12).tolist()), _base36_pairs(strengths), _base36_pairs(best)


def _base36_pairs(numbers: npt.NDArray[np.int64]) -> str:
    """Two base-36 digits per number (each below 1296)."""
    text = np.empty(2 * len(numbers), dtype=np.uint8)
    text[0::2] = _DIGIT_CODES[numbers // 36]
    text[1::2] = _DIGIT_CODES[numbers % 36]
    return text.tobytes().decode("ascii")


def view(state: HazariState, seat: int | None) -> JSON:
    exposed = state.exposed()
    result: JSON = {
        "game": "hazari",
        "phase": state.phase.value,
        "dealer": state.dealer,
        "deal_number": state.deal_number,
        "to_act": list(to_act(state)),
        "up": [groups is not None for groups in state.arrangements],
        "hand_sizes": [sum(card not in exposed for card in hand) for hand in state.hands],
        "rounds": [rnd.to_json() for rnd in state.rounds],
        "next_leader": next_leader(state) if state.phase is Phase.SHOWING else None,
        "scores": list(state.scores),
        "deal_points": [cards_points(pile) for pile in state.piles],
        "last_deal_points": list(state.history[-1]) if state.history else None,
        "options": {"target": state.rules.target, "tie_rule": state.rules.tie_rule,
                    "match_tie": state.rules.match_tie},
        "winners": list(state.winners),
        "hand": [],
    }
    if seat is not None:
        result.update(_own(state, seat, exposed))
    return result


def _own(state: HazariState, seat: int, exposed: frozenset[Card]) -> JSON:
    """The seat's own part: its hand, its arrangement with each group's HZ-5 category (1 Indi ..
    6 Troy), and its groups' names while they matter."""
    groups = state.arrangements[seat]
    own: JSON = {
        "seat": seat,
        "hand": [CARD_TEXT[card] for card in state.hands[seat] if card not in exposed],
        "arrangement": None if groups is None else [[CARD_TEXT[card] for card in g] for g in groups],
    }
    if groups is not None:
        own["arrangement_categories"] = [category_of(key_of(group)).value for group in groups]
    if state.phase in (Phase.ARRANGING, Phase.SHOWING):
        own["combinations"] = hand_combinations(state.hands[seat])
    return own


def hidden_cards(state: HazariState, seat: int | None) -> frozenset[Card]:
    """Every dealt card not yet exposed in a revealed round, except the seat's own."""
    own: Sequence[Card] = state.hands[seat] if seat is not None else ()
    exposed = state.exposed()
    return frozenset(card for hand in state.hands for card in hand
                     if card not in exposed and card not in own)
