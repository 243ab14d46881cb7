"""Azi pure rules: the deck and card order (examples 1-4), legal plays (examples 6-12), the
action forms and the table options."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.azi import ENGINE, Bet, BuyIn, Call, Decline, Discard, Fold, Leave, Play, Raise
from app.games.azi.ranking import play_error, playable, power, trick_winner, trump_order
from app.games.base import InvalidAction, InvalidOptions
from app.games.cards import Card, parse_cards


def test_example_1_deck_has_27_cards_without_clubs() -> None:
    """Example 1 (AZ-2): 27 distinct cards, no clubs, 9 ranks 6..A in each of H, D, S."""
    deck = ENGINE.full_deck()
    assert len(deck) == 27 and len(set(deck)) == 27
    assert all(card.suit != "C" for card in deck)
    for suit in "HDS":
        assert sorted(card.rank for card in deck if card.suit == suit) == list(range(6, 15))


def test_example_2_plain_trump_order() -> None:
    """Example 2 (AZ-2, AZ-6): exposed 9H, no six on the scene."""
    exposed = Card.parse("9H")
    order = trump_order(exposed.suit, exposed.rank == 14)
    assert order == parse_cards("AH KH QH JH 10H 9H 8H 7H 6H")


def test_example_3_six_on_the_scene() -> None:
    """Example 3 (AZ-6): exposed AH -> 6H > AH > KH > ... > 7H, and 6H beats every card."""
    assert trump_order("H", True) == parse_cards("6H AH KH QH JH 10H 9H 8H 7H")
    six = Card.parse("6H")
    for led in "HDS":
        for card in ENGINE.full_deck():
            if card != six:
                assert power(six, led, "H", True) > power(card, led, "H", True)


def test_example_4_exposed_six_is_the_lowest_trump() -> None:
    """Example 4 (AZ-6): exposed 6D -> trump D, 6D is the lowest trump."""
    order = trump_order("D", False)
    assert order[-1] == Card.parse("6D") and order[0] == Card.parse("AD")


@pytest.mark.parametrize(("number", "led", "hand", "legal"), [
    (6, "9S", "7S KH", "7S"),
    (7, "9S", "KH AD", "KH"),
    (8, "9S", "AD 7D", "AD 7D"),
    (9, "9S", "7S 10S", "7S 10S"),
    (10, "8H", "6H AS", "6H"),
])
def test_examples_6_to_10_follow_then_trump(number: int, led: str, hand: str, legal: str) -> None:
    """Examples 6-10 (AZ-8), trump hearts: follow even low and despite trumps, else trump."""
    led_suit = Card.parse(led).suit
    assert set(playable(parse_cards(hand), led_suit, "H")) == set(parse_cards(legal)), number


def test_example_11_must_trump_but_need_not_overtrump() -> None:
    """Example 11 (AZ-8): 9S led, QH trumped in; [7H AD] without spades -> only 7H."""
    assert playable(parse_cards("7H AD"), "S", "H") == parse_cards("7H")
    trick = ((0, Card.parse("9S")), (1, Card.parse("QH")), (2, Card.parse("7H")))
    assert trick_winner(trick, "H", False) == 1


def test_example_12_leader_may_lead_anything() -> None:
    """Example 12 (AZ-8): the leader may lead any card, trumps included."""
    hand = parse_cards("KH 7S AD")
    assert set(playable(hand, None, "H")) == set(hand)


def test_play_error_names_the_rule() -> None:
    """AZ-8: the refusal says which suit must be followed, or that a trump is due."""
    follow = play_error(parse_cards("7S KH"), Card.parse("KH"), "S", "H")
    assert follow is not None and follow[1] == "action/must_follow"
    assert "must follow spades" in follow[0]
    trump = play_error(parse_cards("KH AD"), Card.parse("AD"), "S", "H")
    assert trump is not None and trump[1] == "action/must_trump"
    assert "must play a trump" in trump[0]
    assert play_error(parse_cards("AD 7D"), Card.parse("7D"), "S", "H") is None


def test_trick_winner_off_suit_never_wins() -> None:
    """AZ-8: without trumps the highest card of the led suit wins; other suits never win."""
    trick = ((2, Card.parse("7S")), (0, Card.parse("AD")), (1, Card.parse("10S")))
    assert trick_winner(trick, "H", False) == 1


# --- actions -------------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "action"), [
    ({"kind": "discard", "card": "10H"}, Discard(Card.parse("10H"))),
    ({"kind": "bet", "amount": 10}, Bet(10)),
    ({"kind": "call"}, Call()),
    ({"kind": "raise", "to": 50}, Raise(50)),
    ({"kind": "fold"}, Fold()),
    ({"kind": "play", "card": "AS"}, Play(Card.parse("AS"))),
    ({"kind": "buy_in"}, BuyIn()),
    ({"kind": "decline"}, Decline()),
    ({"kind": "leave"}, Leave()),
])
def test_actions_round_trip(raw: dict[str, Any], action: object) -> None:
    parsed = ENGINE.parse_action(raw)
    assert parsed == action
    assert ENGINE.action_to_json(parsed) == raw


@pytest.mark.parametrize(("raw", "code"), [
    ("fold", "action/not_an_object"),
    (["fold"], "action/not_an_object"),
    ({}, "action/unknown_kind"),
    ({"kind": "check"}, "action/unknown_kind"),
    ({"kind": 3}, "action/unknown_kind"),
    ({"kind": "bet"}, "action/bad_fields"),
    ({"kind": "call", "amount": 10}, "action/bad_fields"),
    ({"kind": "raise", "amount": 10}, "action/bad_fields"),
    ({"kind": "bet", "amount": True}, "action/bad_amount"),
    ({"kind": "bet", "amount": "10"}, "action/bad_amount"),
    ({"kind": "bet", "amount": 10.0}, "action/bad_amount"),
    ({"kind": "bet", "amount": None}, "action/bad_amount"),
    ({"kind": "raise", "to": -20}, "action/bad_amount"),
    ({"kind": "raise", "to": False}, "action/bad_amount"),
    ({"kind": "bet", "amount": 1_000_000_001}, "action/bad_amount"),
    ({"kind": "raise", "to": 2**64}, "action/bad_amount"),
    ({"kind": "play", "card": "1X"}, "action/bad_card"),
    ({"kind": "play", "card": "2C"}, "action/bad_card"),
    ({"kind": "play", "card": "AC"}, "action/bad_card"),
    ({"kind": "play", "card": "5H"}, "action/bad_card"),
    ({"kind": "discard", "card": "JK"}, "action/bad_card"),
    ({"kind": "discard", "card": ["AS"]}, "action/bad_card"),
    ({"kind": "play", "card": "as"}, "action/bad_card"),
])
def test_malformed_actions_are_invalid(raw: object, code: str) -> None:
    with pytest.raises(InvalidAction) as caught:
        ENGINE.parse_action(raw)
    assert caught.value.code == code
    assert repr(raw)[:10] in caught.value.message or code == "action/bad_card"


# --- options -------------------------------------------------------------------------------

def test_option_specs_are_the_rules_file_options() -> None:
    """Section 2.5: every table option by its exact name (``players`` comes from the seating)."""
    names = [spec.name for spec in ENGINE.option_specs]
    assert names == ["stake", "min_bet", "min_raise", "max_bids", "raise_cap", "hand_size",
                     "azi_buy_in", "folded_excess", "bet_limit"]
    specs = {spec.name: spec for spec in ENGINE.option_specs}
    assert specs["raise_cap"].choices == ("per_player", "total")
    assert specs["hand_size"].choices == (3, 4)
    assert specs["azi_buy_in"].choices == ("half_pot", "none")
    assert specs["folded_excess"].choices == ("returned", "to_pot")
    assert specs["bet_limit"].choices == ("none", "pot") and specs["bet_limit"].default == "none"
    assert specs["min_bet"].default is None and specs["min_raise"].default is None


def test_default_options_derive_from_the_stake() -> None:
    """AZ-3 / ambiguity 10: min_bet and min_raise default to the stake."""
    assert ENGINE.make_options({}) == {
        "stake": 10, "min_bet": 10, "min_raise": 10, "max_bids": 3, "raise_cap": "per_player",
        "hand_size": 3, "azi_buy_in": "half_pot", "folded_excess": "returned", "bet_limit": "none"}
    derived = ENGINE.make_options({"stake": 25, "min_raise": 5, "min_bet": None})
    assert (derived["min_bet"], derived["min_raise"]) == (25, 5)
    assert ENGINE.make_options(derived) == derived


@pytest.mark.parametrize("raw", [
    {"stake": 0}, {"stake": -10}, {"stake": "10"}, {"stake": True}, {"min_bet": 0},
    {"min_raise": 2.5}, {"max_bids": 0}, {"raise_cap": "perPlayer"}, {"hand_size": 5},
    {"hand_size": "3"}, {"azi_buy_in": "full_pot"}, {"folded_excess": "burned"},
    {"players": 4}, {"stake": None}, {"stake": 1_000_001}, {"stake": 2**64},
    {"min_bet": 1_000_001}, {"min_raise": 2**64}, {"max_bids": 21},
])
def test_bad_options_are_refused(raw: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        ENGINE.make_options(raw)
