"""The Azi bots: every decision legal (2..6 players, 3- and 4-card hands), decisions made from
the view alone, the ``greedy`` baseline's rules and the ``strong`` bot's sense in set positions
(rules ``azi.md``)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.bots.azi import AziGreedyBot, AziStrongBot, should_buy_in
from app.bots.registry import make_bot
from app.games.azi import ENGINE, AziAction, AziState
from app.games.base import JSON, Seating
from app.games.cards import Card, parse_cards
from app.games.driver import DealNeeded, Match, MatchOver, SeatsToAct, shuffled_decks

STACK = 1000


def wire(data: Any) -> Any:
    """What a client receives: plain JSON."""
    return json.loads(json.dumps(data))


def allowed(action: JSON, legal: list[JSON]) -> bool:
    for entry in legal:
        if entry["kind"] != action["kind"]:
            continue
        if "min" in entry:
            amount = action.get("to", action.get("amount"))
            if type(amount) is int and entry["min"] <= amount <= entry["max"] and len(action) == 2:
                return True
        elif action == {key: entry[key] for key in entry if key in ("kind", "card")}:
            return True
    return False


def ask(bot: Any, state: AziState, seat: int, seed: int = 0) -> JSON:
    view, legal = wire(ENGINE.view(state, seat)), wire(ENGINE.legal_actions(state, seat))
    action: JSON = bot.choose(view, legal, random.Random(seed))
    assert allowed(action, legal), f"{action} is not in {legal}"
    return action


def act(state: AziState, seat: int, action: JSON) -> AziState:
    return ENGINE.apply(state, seat, ENGINE.parse_action(action)).state


def run(levels: list[str], deals: int, seed: int, options: JSON) -> int:
    """Seeded deals with bots of ``levels``; every action must be legal and accepted."""
    rng = random.Random(seed)
    bots = [make_bot("azi", level) for level in levels]
    players = len(levels)

    def choose(state: AziState, seat: int) -> AziAction:
        return ENGINE.parse_action(ask(bots[seat], state, seat, rng.randrange(1 << 30)))

    decks = shuffled_decks(ENGINE, rng)
    match = Match.start(ENGINE, options, Seating(players, 0, (STACK,) * players))
    decisions = dealt = 0
    while dealt < deals:
        due = match.next()
        if isinstance(due, MatchOver):
            match = Match.start(ENGINE, options, Seating(players, rng.randrange(players), (STACK,) * players))
            continue
        dealt += isinstance(due, DealNeeded)
        decisions += isinstance(due, SeatsToAct)
        match.perform(due, decks, choose)
    return decisions


@pytest.mark.parametrize(("levels", "options"), [
    (["strong", "greedy"], {}),
    (["strong", "random", "greedy"], {}),
    (["strong", "strong", "greedy", "random"], {"hand_size": 4}),
    (["greedy", "strong", "random", "strong", "greedy", "strong"], {}),
    (["strong", "greedy", "greedy", "random", "strong"], {"hand_size": 4, "raise_cap": "total",
                                                          "azi_buy_in": "none"}),
    (["strong", "strong", "strong"], {"stake": 25, "min_raise": 5}),
])
def test_every_decision_is_legal(levels: list[str], options: JSON) -> None:
    assert run(levels, 40, seed=len(levels), options=options) > 40


def deck_for(players: int, button: int, hands: dict[int, str], hand_size: int = 3) -> list[Card]:
    """A deck that deals ``hands`` (one string of cards per seat) when every seat takes part: one
    card at a time clockwise from the button's left (AZ-6); seats not given get what is left."""
    order = [(button + step) % players for step in range(1, players + 1)] * hand_size
    wanted = {seat: list(parse_cards(text)) for seat, text in hands.items()}
    rest = [card for card in ENGINE.full_deck()
            if all(card not in cards for cards in wanted.values())]
    deck = [wanted[seat].pop(0) if seat in wanted else rest.pop() for seat in order]
    return deck + rest


def dealt(players: int, hands: dict[int, str], options: JSON | None = None, button: int = 0
          ) -> AziState:
    state = ENGINE.start(options or {}, Seating(players, button, (STACK,) * players))
    size = (options or {}).get("hand_size", 3)
    return ENGINE.deal(state, deck_for(players, button, hands, size)).state


def test_deck_helper_deals_the_hands_asked_for() -> None:
    state = dealt(3, {1: "7D 8S 9D", 0: "KS QD 9H"})
    assert state.hands[1] == parse_cards("7D 8S 9D")
    assert state.hands[0] == parse_cards("KS QD 9H")
    assert str(state.exposed) == "9H" and state.trump == "H"


# --- the greedy baseline -------------------------------------------------------------------

def test_greedy_opens_with_the_minimum_and_calls_any_raise() -> None:
    state = dealt(3, {1: "AH KH QH"})
    greedy = AziGreedyBot()
    assert ask(greedy, state, 1) == {"kind": "bet", "amount": 10}
    state = act(state, 1, {"kind": "bet", "amount": 10})
    state = act(state, 2, {"kind": "raise", "to": 900})
    assert ask(greedy, state, 0) == {"kind": "call"}


def test_greedy_plays_its_highest_card_and_knows_the_six_on_the_scene() -> None:
    """AZ-6: with the Ace of trumps exposed, the six of trumps is the highest card."""
    state = dealt(2, {1: "6S 10D 9H", 0: "KD 7S AS"})  # button 0 holds AS: six on the scene
    assert state.six_on_scene
    state = act(state, 1, {"kind": "bet", "amount": 10})
    state = act(state, 0, {"kind": "call"})
    assert ask(AziGreedyBot(), state, 1) == {"kind": "play", "card": "6S"}


def test_greedy_discards_its_weakest_card_in_the_four_card_variant() -> None:
    state = dealt(3, {1: "7D AH 9S KS", 0: "6H 6D 8S QH"}, {"hand_size": 4})
    assert state.trump == "H"
    assert ask(AziGreedyBot(), state, 1) == {"kind": "discard", "card": "7D"}
    assert ask(AziGreedyBot(), state, 0) == {"kind": "discard", "card": "6D"}


# --- the strong bot ------------------------------------------------------------------------

def test_strong_folds_a_hopeless_hand_facing_a_big_raise() -> None:
    """Seat 1 opens; seat 2 raises to 500; seat 0 calls; seat 1 with three low cards and no trump
    is asked to put 490 more into a pot of 1040."""
    state = dealt(3, {1: "7D 8S 6D", 0: "KS QD 9H"})
    state = act(state, 1, {"kind": "bet", "amount": 10})
    state = act(state, 2, {"kind": "raise", "to": 500})
    state = act(state, 0, {"kind": "call"})
    assert ask(AziStrongBot(), state, 1) == {"kind": "fold"}


def test_strong_opens_a_hopeless_hand_with_the_minimum_since_it_may_not_fold() -> None:
    state = dealt(3, {1: "7D 8S 6D", 0: "KS QD 9H"})
    assert ask(AziStrongBot(), state, 1) == {"kind": "bet", "amount": 10}


def test_strong_never_folds_the_two_best_trumps_and_raises_them() -> None:
    """Trump H (QH exposed in seat 0's hand); seat 2 holds AH KH, two sure tricks if it leads."""
    state = dealt(3, {2: "AH KH 10S", 0: "9D 7S QH"})
    state = act(state, 1, {"kind": "bet", "amount": 10})
    action = ask(AziStrongBot(), state, 2)
    assert action["kind"] == "raise" and action["to"] > 100


def test_strong_takes_the_second_trick_when_it_can() -> None:
    """Trump H. Seat 1 wins trick 1 with AH and leads again holding AS and 8S: AS is the best
    spade and both others hold one (they must follow, AZ-8), so AS takes trick 2 and the pot;
    8S would lose to 10S, and seat 2 would then take trick 3 too."""
    state = dealt(3, {1: "AH AS 8S", 2: "10S 9D 6D", 0: "7S 8D 7H"})
    state = act(state, 1, {"kind": "bet", "amount": 10})
    state = act(state, 2, {"kind": "call"})
    state = act(state, 0, {"kind": "call"})
    state = act(state, 1, {"kind": "play", "card": "AH"})
    state = act(state, 2, {"kind": "play", "card": "6D"})
    state = act(state, 0, {"kind": "play", "card": "7H"})
    assert state.tricks_won == (0, 1, 0) and state.turn == 1
    for seed in range(3):
        assert ask(AziStrongBot(), state, 1, seed) == {"kind": "play", "card": "AS"}


def test_strong_declines_a_half_pot_buy_in() -> None:
    """AZ-13: after an Azi three players replay for free; paying half the pot to join them as a
    fourth is worth about 3/8 of the pot. Greedy buys in."""
    state = dealt(4, {1: "AH 7S 7D", 2: "AS 8S 8D", 3: "AD 9S 9D", 0: "6S 6D 6H"})
    state = act(state, 1, {"kind": "bet", "amount": 10})
    state = act(state, 2, {"kind": "call"})
    state = act(state, 3, {"kind": "call"})
    state = act(state, 0, {"kind": "fold"})
    plays = [(1, "7D"), (2, "8D"), (3, "AD"),  # seat 3 wins
             (3, "9S"), (1, "7S"), (2, "AS"),  # seat 2 wins
             (2, "8S"), (3, "9D"), (1, "AH")]  # seat 1 trumps
    for seat, card in plays:
        state = act(state, seat, {"kind": "play", "card": card})
    assert ENGINE.to_act(state) == (0,)
    view = wire(ENGINE.view(state, 0))
    assert view["buy_in"]["free"] == [1, 2, 3] and not should_buy_in(view)
    assert ask(AziStrongBot(), state, 0) == {"kind": "decline"}
    assert ask(AziGreedyBot(), state, 0) == {"kind": "buy_in"}


def test_strong_discards_a_side_card_and_keeps_its_trumps() -> None:
    state = dealt(3, {1: "7D AH KH 9S", 0: "6D 8S 6S QH"}, {"hand_size": 4})
    assert ask(AziStrongBot(), state, 1) in ({"kind": "discard", "card": "7D"},
                                             {"kind": "discard", "card": "9S"})


def test_strong_decides_from_the_view_alone() -> None:
    """Two deals that look the same from seat 1 (the others' hands swapped around) get the same
    decisions with the same seed."""
    first = dealt(3, {1: "KH 8S 6D", 2: "AS 9D 10D", 0: "7S 8D 7H"})
    second = dealt(3, {1: "KH 8S 6D", 2: "7S 8D 10D", 0: "AS 9D 7H"})
    assert wire(ENGINE.view(first, 1)) == wire(ENGINE.view(second, 1))
    strong = AziStrongBot()
    for seed in range(3):
        assert ask(strong, first, 1, seed) == ask(strong, second, 1, seed)


def test_registry_gives_the_azi_bots() -> None:
    assert isinstance(make_bot("azi", "strong"), AziStrongBot)
    assert isinstance(make_bot("azi", "greedy"), AziGreedyBot)
