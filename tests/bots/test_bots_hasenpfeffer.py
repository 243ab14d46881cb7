"""The Hasenpfeffer bots: every decision legal (both bidding forms, both first leads), decisions
made from the view alone, the ``greedy`` baseline's rules and the ``strong`` bot's sense in set
positions (rules ``hasenpfeffer.md``)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.bots.hasenpfeffer import HasenpfefferGreedyBot, HasenpfefferStrongBot, distinct_cards
from app.bots.hasenpfeffer_rollout import TRUMPS, cards_of, mask
from app.bots.registry import make_bot
from app.games.base import JSON, Seating
from app.games.cards import Card, parse_cards
from app.games.driver import DealNeeded, Match, MatchOver, SeatsToAct, shuffled_decks
from app.games.hasenpfeffer import ENGINE, HasenpfefferAction, HasenpfefferState


def wire(data: Any) -> Any:
    """What a client receives: plain JSON."""
    return json.loads(json.dumps(data))


def ask(bot: Any, state: HasenpfefferState, seat: int, seed: int = 0) -> JSON:
    view, legal = wire(ENGINE.view(state, seat)), wire(ENGINE.legal_actions(state, seat))
    action: JSON = bot.choose(view, legal, random.Random(seed))
    assert action in legal, f"{action} is not in {legal}"
    return action


def act(state: HasenpfefferState, seat: int, action: JSON) -> HasenpfefferState:
    return ENGINE.apply(state, seat, ENGINE.parse_action(action)).state


def run(levels: list[str], deals: int, seed: int, options: JSON) -> int:
    rng = random.Random(seed)
    bots = [make_bot("hasenpfeffer", level) for level in levels]

    def choose(state: HasenpfefferState, seat: int) -> HasenpfefferAction:
        return ENGINE.parse_action(ask(bots[seat], state, seat, rng.randrange(1 << 30)))

    decks = shuffled_decks(ENGINE, rng)
    match = Match.start(ENGINE, options, Seating(4, 0))
    decisions = dealt = 0
    while dealt < deals:
        due = match.next()
        if isinstance(due, MatchOver):
            match = Match.start(ENGINE, options, Seating(4, rng.randrange(4)))
            continue
        dealt += isinstance(due, DealNeeded)
        decisions += isinstance(due, SeatsToAct)
        match.perform(due, decks, choose)
    return decisions


@pytest.mark.parametrize(("levels", "options"), [
    (["strong", "greedy", "strong", "greedy"], {}),
    (["greedy", "strong", "random", "strong"], {"bidding": "pepper"}),
    (["strong", "strong", "strong", "strong"], {"first_lead": "bidder", "bidding": "pepper"}),
    (["random", "greedy", "strong", "random"], {"defenders_score": False}),
])
def test_every_decision_is_legal(levels: list[str], options: JSON) -> None:
    assert run(levels, 12, seed=len(options), options=options) > 12 * 20


def deck_for(dealer: int, hands: dict[int, str], widow: str | None = None) -> list[Card]:
    """A deck that deals ``hands`` (six cards per seat given): packets of three clockwise from the
    dealer's left, twice round, the 25th card the widow (HP-4)."""
    wanted = {seat: list(parse_cards(text)) for seat, text in hands.items()}
    taken = {card for cards in wanted.values() for card in cards}
    if widow is not None:
        taken.add(Card.parse(widow))
    rest = [card for card in ENGINE.full_deck() if card not in taken]
    deck: list[Card] = []
    for packet in range(8):
        seat = (dealer + 1 + packet) % 4
        for _ in range(3):
            deck.append(wanted[seat].pop(0) if seat in wanted else rest.pop())
    deck.append(Card.parse(widow) if widow is not None else rest.pop())
    return deck + rest


def dealt(hands: dict[int, str], options: JSON | None = None, widow: str | None = None,
          dealer: int = 0) -> HasenpfefferState:
    state = ENGINE.start(options or {}, Seating(4, dealer))
    return ENGINE.deal(state, deck_for(dealer, hands, widow)).state


def test_deck_helper_deals_the_hands_asked_for() -> None:
    state = dealt({1: "JK JS JC AS KS 9H", 3: "9S 10S 9C 10C 9D 10D"}, widow="AH")
    assert set(state.hands[1]) == set(parse_cards("JK JS JC AS KS 9H"))
    assert set(state.hands[3]) == set(parse_cards("9S 10S 9C 10C 9D 10D"))
    assert str(state.widow) == "AH"


# --- the greedy baseline -------------------------------------------------------------------

def test_greedy_bids_its_trump_count_and_names_that_suit() -> None:
    """Spades as trump: JK, JS, JC (left bower), AS = 4."""
    state = dealt({1: "JK JS JC AS 9H 10D"}, widow="KH")
    greedy = HasenpfefferGreedyBot()
    assert ask(greedy, state, 1) == {"kind": "bid", "value": 4}
    for seat, call in ((1, 4), (2, "pass"), (3, "pass"), (0, "pass")):
        state = act(state, seat, {"kind": "pass"} if call == "pass" else {"kind": "bid", "value": call})
    assert ask(greedy, state, 1) == {"kind": "trump", "suit": "S"}
    state = act(state, 1, {"kind": "trump", "suit": "S"})
    assert ask(greedy, state, 1) == {"kind": "discard", "card": "9H"}


def test_greedy_passes_when_its_count_does_not_beat_the_bid() -> None:
    state = dealt({2: "JK AS KS 9H 10D QC"})
    state = act(state, 1, {"kind": "bid", "value": 3})
    assert ask(HasenpfefferGreedyBot(), state, 2) == {"kind": "pass"}


def test_greedy_plays_its_highest_legal_card() -> None:
    state = dealt({1: "JK JS JC AS 9H 10D", 2: "AH KH 9S 10S QD KD"}, widow="9C")
    for seat, call in ((1, 4), (2, "pass"), (3, "pass"), (0, "pass")):
        state = act(state, seat, {"kind": "pass"} if call == "pass" else {"kind": "bid", "value": call})
    state = act(state, 1, {"kind": "trump", "suit": "S"})
    state = act(state, 1, {"kind": "discard", "card": "9C"})
    assert ask(HasenpfefferGreedyBot(), state, 1) == {"kind": "play", "card": "JK"}
    state = act(state, 1, {"kind": "play", "card": "9H"})
    assert ask(HasenpfefferGreedyBot(), state, 2) == {"kind": "play", "card": "AH"}


# --- the strong bot: bidding ---------------------------------------------------------------

FIVE_TRUMPS = "JK JS JC AS KS 9H"


@pytest.mark.parametrize("before", [[], [3], [4], [2, "pass", 3]])
def test_strong_never_passes_joker_both_bowers_and_two_trumps(before: list[Any]) -> None:
    """Seat 1 speaks first (dealer 0); ``before`` are the calls made before the bot's turn."""
    seat = 1 + len(before)
    state = dealt({seat % 4: FIVE_TRUMPS})
    for offset, call in enumerate(before):
        action = {"kind": "pass"} if call == "pass" else {"kind": "bid", "value": call}
        state = act(state, 1 + offset, action)
    for seed in range(2):
        assert ask(HasenpfefferStrongBot(), state, seat % 4, seed)["kind"] == "bid"


def test_strong_passes_a_hopeless_hand() -> None:
    state = dealt({1: "9S 10S 9H 10H 9D QC"})
    assert ask(HasenpfefferStrongBot(), state, 1) == {"kind": "pass"}


def test_strong_with_the_joker_bids_one_rather_than_be_forced_to_three() -> None:
    """HP-6: if all pass, the Joker holder plays 3; the dealer, last to speak, bids 1 instead."""
    state = dealt({0: "JK 9S 10H 9D 10C QC"})
    for seat in (1, 2, 3):
        state = act(state, seat, {"kind": "pass"})
    assert ask(HasenpfefferStrongBot(), state, 0) == {"kind": "bid", "value": 1}


def test_strong_bids_big_pepper_with_the_six_best_trumps() -> None:
    state = dealt({1: "JK JS JC AS KS QS"}, {"bidding": "pepper"})
    assert ask(HasenpfefferStrongBot(), state, 1) == {"kind": "bid", "value": "big_pepper"}


def test_strong_does_not_bid_pepper_on_a_fair_hand() -> None:
    state = dealt({2: "JK AS KS 9H AD 9C"}, {"bidding": "pepper"})
    state = act(state, 1, {"kind": "bid", "value": 5})
    assert ask(HasenpfefferStrongBot(), state, 2) == {"kind": "pass"}


# --- the strong bot: trump, discard, play --------------------------------------------------

def won_auction(hands: dict[int, str], widow: str, options: JSON | None = None) -> HasenpfefferState:
    """Seat 1 bids 3 and the others pass: seat 1 holds the widow, to name trump."""
    state = dealt(hands, options, widow)
    state = act(state, 1, {"kind": "bid", "value": 3})
    for seat in (2, 3, 0):
        state = act(state, seat, {"kind": "pass"})
    return state


def test_strong_names_its_long_suit_and_keeps_its_trumps() -> None:
    state = won_auction({1: "JK JH JD AH 9S 10C"}, widow="KH")
    strong = HasenpfefferStrongBot()
    assert ask(strong, state, 1) == {"kind": "trump", "suit": "H"}
    state = act(state, 1, {"kind": "trump", "suit": "H"})
    assert ask(strong, state, 1)["card"] in ("9S", "10C")


def test_strong_does_not_waste_its_right_bower_under_its_partners_joker() -> None:
    """Trump H. Seat 1 (dealer's left) leads the Joker; seat 3, its partner, must follow trumps
    with JH or 9H: the Joker wins anyway, so 9H."""
    state = won_auction({1: "JK AS KS QS AC KC", 3: "JH 9H AD KD QD 10S"}, widow="9D")
    state = act(state, 1, {"kind": "trump", "suit": "H"})
    state = act(state, 1, {"kind": "discard", "card": "9D"})
    state = act(state, 1, {"kind": "play", "card": "JK"})
    state = act(state, 2, {"kind": "play", "card": ENGINE.legal_actions(state, 2)[0]["card"]})
    assert ask(HasenpfefferStrongBot(), state, 3) == {"kind": "play", "card": "9H"}


def test_strong_trumps_the_opponents_ace_when_last() -> None:
    """Trump D (seat 1 bids, holds the widow JH, the left bower). Seat 1 leads AH, seat 2 follows
    9H, seat 3 throws QC; seat 0 (defending, last) has no heart: a trump takes the trick."""
    state = won_auction({1: "AH KH QH 9D 10D QD", 2: "JK JS JC AS 10H 9H",
                         3: "9C 10C QC KC AC JD", 0: "9S KD AD KS QS 10S"}, widow="JH")
    state = act(state, 1, {"kind": "trump", "suit": "D"})
    state = act(state, 1, {"kind": "discard", "card": "9D"})
    for seat, card in ((1, "AH"), (2, "9H"), (3, "QC")):
        state = act(state, seat, {"kind": "play", "card": card})
    for seed in range(2):
        assert ask(HasenpfefferStrongBot(), state, 0, seed)["card"] in ("KD", "AD")


def test_equivalent_cards_are_tried_once() -> None:
    """Spades trump, 10S played: KS, QS and 9S of one hand win and lose the same tricks."""
    tr = TRUMPS[0]
    hand = cards_of(["KS", "QS", "9S", "AH"])
    kept = distinct_cards(cards_of(["KS", "QS", "9S"]), mask(hand) | mask(cards_of(["10S"])), tr)
    assert kept == cards_of(["9S"])
    assert distinct_cards(cards_of(["KS", "9S"]), mask(hand), tr) == cards_of(["KS", "9S"])


def test_strong_decides_from_the_view_alone() -> None:
    first = dealt({1: FIVE_TRUMPS, 2: "AH KH QH AD KD QD", 3: "AC KC QC 10H 9D 10D"})
    second = dealt({1: FIVE_TRUMPS, 3: "AH KH QH AD KD QD", 2: "AC KC QC 10H 9D 10D"})
    assert wire(ENGINE.view(first, 1)) == wire(ENGINE.view(second, 1))
    strong = HasenpfefferStrongBot()
    for seed in range(2):
        assert ask(strong, first, 1, seed) == ask(strong, second, 1, seed)


def test_registry_gives_the_hasenpfeffer_bots() -> None:
    assert isinstance(make_bot("hasenpfeffer", "strong"), HasenpfefferStrongBot)
    assert isinstance(make_bot("hasenpfeffer", "greedy"), HasenpfefferGreedyBot)
