"""Hasenpfeffer rules (``hasenpfeffer.md`` in the shared rules directory): every example of section 3.4, the
auction, widow, trump, discard, play and scoring through the engine, the table options, and the
exact rejection of every wrong move."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest

from app.games.base import (
    JSON,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    Rejection,
    Seating,
    Transition,
)
from app.games.cards import Card, hasenpfeffer_deck, parse_cards
from app.games.driver import Match
from app.games.hasenpfeffer import ENGINE, HasenpfefferAction, HasenpfefferState, Phase
from app.games.hasenpfeffer.scoring import deal_points
from app.games.hasenpfeffer.state import Options, Trick
from app.games.hasenpfeffer.trumps import (
    effective_suit,
    left_bower,
    playable,
    suit_order,
    trick_winner,
)

FULL = hasenpfeffer_deck()

# Dealer 0. Seat 1 holds the six best spades; the widow is 10S.
POWER = {1: "JK JS JC AS KS QS", 2: "9S AH KH QH JH 10H", 3: "9H AD KD QD JD 10D",
         0: "9D AC KC QC 10C 9C"}
# The Joker in seat 3's hand (example 31); the widow is 9C.
JOKER_EAST = {1: "AS KS QS AH KH QH", 2: "JS 10S 9S JH 10H 9H", 3: "JK AD KD QD JD 10D",
              0: "9D AC KC QC JC 10C"}
# The same, but the Joker is the widow and 9C is in seat 3's hand.
JOKER_WIDOW = {1: "AS KS QS AH KH QH", 2: "JS 10S 9S JH 10H 9H", 3: "9C AD KD QD JD 10D",
               0: "9D AC KC QC JC 10C"}


def cards(text: str) -> set[Card]:
    return set(parse_cards(text))


def deck_for(hands: Mapping[int, str], widow: str, dealer: int = 0) -> tuple[Card, ...]:
    """The deck that deals ``hands`` (HP-4: packets of 3 from the dealer's left, twice round)."""
    parsed = {seat: parse_cards(text) for seat, text in hands.items()}
    deck: list[Card] = []
    for packet in range(8):
        seat = (dealer + 1 + packet) % 4
        half = packet // 4
        deck.extend(parsed[seat][3 * half:3 * half + 3])
    deck.append(Card.parse(widow))
    assert sorted(deck) == sorted(FULL)
    return tuple(deck)


def started(hands: Mapping[int, str] = POWER, widow: str = "10S", dealer: int = 0,
            **options: Any) -> HasenpfefferState:
    state = ENGINE.start(ENGINE.make_options(options), Seating(players=4, first_dealer=dealer))
    return ENGINE.deal(state, deck_for(hands, widow, dealer)).state


def act(state: HasenpfefferState, seat: int, raw: JSON) -> Transition[HasenpfefferState]:
    return ENGINE.apply(state, seat, ENGINE.parse_action(raw))


def run(state: HasenpfefferState, moves: list[tuple[int, JSON]]) -> tuple[HasenpfefferState, list[JSON]]:
    events: list[JSON] = []
    for seat, raw in moves:
        transition = act(state, seat, raw)
        state = transition.state
        events.extend(transition.events)
    return state, events


def bid(value: int | str) -> JSON:
    return {"kind": "bid", "value": value}


PASS: JSON = {"kind": "pass"}


def play_first_legal(state: HasenpfefferState) -> tuple[HasenpfefferState, list[JSON]]:
    """Play out the tricks of the deal, each seat playing its first legal card."""
    assert state.phase is Phase.PLAY
    match = Match(ENGINE, state)
    events = match.play_deal(no_deck, first_legal)
    return match.state, events


def first_legal(state: HasenpfefferState, seat: int) -> HasenpfefferAction:
    return ENGINE.parse_action(ENGINE.legal_actions(state, seat)[0])


def no_deck() -> list[Card]:
    raise AssertionError("no deal is due within a deal")


def deal_end(events: list[JSON]) -> JSON:
    (end,) = [event for event in events if event["type"] == "deal_end"]
    return end


def card_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if value in {str(card) for card in FULL}:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_strings(item)


# --- Deck and deal (examples 1-3, HP-2, HP-4) ---

def test_example_1_deck_is_25_distinct_cards_hp2() -> None:
    assert len(FULL) == len(set(FULL)) == 25
    assert set(ENGINE.full_deck()) == cards(
        "9S 10S JS QS KS AS 9H 10H JH QH KH AH 9D 10D JD QD KD AD 9C 10C JC QC KC AC JK")


@pytest.mark.parametrize("dealer", [0, 2])
def test_example_2_packets_of_three_from_dealers_left_twice_round_hp4(dealer: int) -> None:
    deck = FULL
    state = ENGINE.start({}, Seating(4, dealer))
    state = ENGINE.deal(state, deck).state
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        expected = set(deck[3 * k:3 * k + 3]) | set(deck[12 + 3 * k:15 + 3 * k])
        assert set(state.hands[seat]) == expected and len(state.hands[seat]) == 6
    assert state.widow == deck[24]
    assert state.phase is Phase.BIDDING and ENGINE.to_act(state) == ((dealer + 1) % 4,)


def test_example_3_deal_passes_left_after_a_played_deal_hp4() -> None:
    state, _ = run(started(), [(1, bid(6)), (1, {"kind": "trump", "suit": "S"}),
                               (1, {"kind": "discard", "card": "10S"})])
    state, _ = play_first_legal(state)
    assert state.phase is Phase.NEEDS_DEAL and state.dealer == 1
    state = ENGINE.deal(state, FULL).state
    assert state.deal_number == 2 and ENGINE.to_act(state) == (2,)
    assert ENGINE.view(state, None)["dealer"] == 1


# --- Card order and effective suit (examples 4-8, HP-3) ---

def test_example_4_trump_diamonds_order_hp3() -> None:
    assert suit_order("D", "D") == parse_cards("JK JD JH AD KD QD 10D 9D")


def test_example_5_trump_diamonds_hearts_lose_their_jack_hp3() -> None:
    assert suit_order("H", "D") == parse_cards("AH KH QH 10H 9H")


def test_example_6_trump_diamonds_spades_keep_all_six_hp3() -> None:
    assert suit_order("S", "D") == parse_cards("AS KS QS JS 10S 9S")


@pytest.mark.parametrize(("trump", "bower"), [("H", "JD"), ("C", "JS"), ("S", "JC"), ("D", "JH")])
def test_example_7_left_bower_is_the_same_colour_jack_hp3(trump: str, bower: str) -> None:
    assert left_bower(trump) == Card.parse(bower)
    assert effective_suit(Card.parse(bower), trump) == trump


@pytest.mark.parametrize("trump", ["S", "H", "D", "C"])
def test_example_8_joker_is_always_a_trump_hp3(trump: str) -> None:
    assert effective_suit(Card.parse("JK"), trump) == trump
    assert suit_order(trump, trump)[0] == Card.parse("JK")


def test_trick_winner_highest_trump_else_highest_of_led_suit_hp8() -> None:
    assert trick_winner(parse_cards("AH KH 9D QH"), "D") == 2
    assert trick_winner(parse_cards("AD JH JD JK"), "D") == 3
    assert trick_winner(parse_cards("AD JH JD 9D"), "D") == 2
    assert trick_winner(parse_cards("9H AS KH AC"), "D") == 2
    assert trick_winner(parse_cards("JC AC KC QC"), "S") == 0


# --- Legal plays (examples 9-16, HP-8) ---

def trick_state(trump: str, lead: str, hand: str) -> HasenpfefferState:
    """Seat 1 has led ``lead``; seat 2, holding ``hand``, is to play."""
    hands = ((), (), parse_cards(hand), ())
    return HasenpfefferState(options=Options(), phase=Phase.PLAY, dealer=0, deal_number=1, hands=hands,
                 bidder=1, contract=3, trump=trump, leader=1, trick=(Card.parse(lead),))


FOLLOW_EXAMPLES = [
    (9, "D", "JH", "QH 9D AS", "9D"),
    (10, "D", "JH", "QH AS", "QH AS"),
    (11, "D", "AH", "JH KH", "KH"),
    (12, "D", "AH", "JH AS", "JH AS"),
    (13, "S", "JK", "JC 9H", "JC"),
    (14, "S", "AC", "JC 9C AH", "9C"),
    (15, "S", "JC", "AS KS 9H", "AS KS"),
    (16, "S", "AH", "9S KD", "9S KD"),
]


@pytest.mark.parametrize(("example", "trump", "lead", "hand", "legal"), FOLLOW_EXAMPLES)
def test_examples_9_to_16_follow_the_effective_suit_hp8(
        example: int, trump: str, lead: str, hand: str, legal: str) -> None:
    assert set(playable(parse_cards(hand), Card.parse(lead), trump)) == cards(legal)
    state = trick_state(trump, lead, hand)
    assert {entry["card"] for entry in ENGINE.legal_actions(state, 2)} == set(legal.split())
    for card in parse_cards(hand):
        action = {"kind": "play", "card": str(card)}
        if card in cards(legal):
            assert act(state, 2, action).state.trick == (Card.parse(lead), card)
        else:
            with pytest.raises(IllegalAction) as refused:
                act(state, 2, action)
            assert refused.value.code == "action/must_follow"


def test_example_9_message_names_trumps_and_the_left_bower_hp8() -> None:
    with pytest.raises(IllegalAction) as refused:
        act(trick_state("D", "JH", "QH 9D AS"), 2, {"kind": "play", "card": "QH"})
    message = refused.value.message
    assert "must follow diamonds" in message and "left bower JH" in message and "9D" in message


def test_example_11_message_says_the_left_bower_is_not_a_heart_hp8() -> None:
    with pytest.raises(IllegalAction) as refused:
        act(trick_state("D", "AH", "JH KH"), 2, {"kind": "play", "card": "JH"})
    message = refused.value.message
    assert "must follow hearts" in message and "JH is the left bower" in message


def test_example_14_message_for_a_plain_suit_lead_hp8() -> None:
    with pytest.raises(IllegalAction) as refused:
        act(trick_state("S", "AC", "JC 9C AH"), 2, {"kind": "play", "card": "AH"})
    assert "must follow clubs" in refused.value.message


# --- Bidding (examples 26, 27, 31; HP-5, HP-6) ---

def test_example_26_open_auction_ends_when_three_have_passed_hp5() -> None:
    state, events = run(started(), [(1, bid(2)), (2, PASS), (3, bid(3)), (0, PASS), (1, bid(4))])
    assert ENGINE.to_act(state) == (3,)
    state, events = run(state, [(3, PASS)])
    assert state.phase is Phase.TRUMP and state.bidder == 1 and state.contract == 4
    assert state.bidding_team == 1
    assert {"type": "auction_end", "bidder": 1, "contract": 4, "forced": False} in events
    view = ENGINE.view(state, 0)
    assert view["passed"] == [0, 2, 3] and view["high_bid"] == 4 and view["bidder"] == 1
    assert [call["call"] for call in view["auction"]] == [2, "pass", 3, "pass", 4, "pass"]


def test_example_27_a_bid_must_beat_the_current_one_hp5() -> None:
    state, _ = run(started(), [(1, bid(3))])
    with pytest.raises(IllegalAction) as refused:
        act(state, 2, bid(3))
    assert refused.value.code == "action/bid_too_low" and "3" in refused.value.message
    assert [entry.get("value") for entry in ENGINE.legal_actions(state, 2)] == [4, 5, 6, None]
    assert act(state, 2, bid(4)).state.high_level == 4


def test_example_31_all_pass_the_joker_holder_is_forced_to_3_hp6() -> None:
    state, events = run(started(JOKER_EAST, "9C"), [(1, PASS), (2, PASS), (3, PASS), (0, PASS)])
    assert {"type": "joker_forced", "seat": 3} in events
    assert state.phase is Phase.TRUMP and state.bidder == 3 and state.contract == 3
    assert state.forced and state.bidding_team == 1
    assert Card.parse("9C") in state.hands[3] and len(state.hands[3]) == 7
    state, _ = run(state, [(3, {"kind": "trump", "suit": "D"}), (3, {"kind": "discard",
                                                                    "card": "9C"})])
    assert state.phase is Phase.PLAY and len(state.hands[3]) == 6
    assert state.discard == Card.parse("9C")
    assert ENGINE.to_act(state) == (1,)


def test_example_31_forced_bid_shows_the_joker_holder_and_nothing_more_hp6() -> None:
    state, _ = run(started(JOKER_EAST, "9C"), [(1, PASS), (2, PASS), (3, PASS), (0, PASS)])
    for seat in (0, 1, 2, None):
        view = ENGINE.view(state, seat)
        assert view["joker_forced"] == 3 and view["forced"] is True
        seen = set(card_strings(view))
        assert seen == set(view["hand"]), f"seat {seat} sees more than its hand: {seen}"
        assert not seen & {str(card) for card in state.hands[3]}
        assert "widow" not in view
    own = ENGINE.view(state, 3)
    assert own["widow"] == "9C" and "JK" in own["hand"] and len(own["hand"]) == 7


def test_joker_in_the_widow_throws_the_deal_in_and_the_deal_passes_left_hp6() -> None:
    state, events = run(started(JOKER_WIDOW, "JK"), [(1, PASS), (2, PASS), (3, PASS), (0, PASS)])
    end = deal_end(events)
    assert end["number"] == 1 and end["points"] == [0, 0]
    assert end["detail"]["thrown_in"] is True and end["detail"]["contract"] is None
    assert not any(event["type"] == "joker_forced" for event in events)
    assert state.phase is Phase.NEEDS_DEAL and state.dealer == 1 and state.scores == (0, 0)
    assert ENGINE.hidden_cards(state, None) == frozenset(FULL)
    state = ENGINE.deal(state, deck_for(JOKER_WIDOW, "JK", dealer=1)).state
    assert state.deal_number == 2 and ENGINE.to_act(state) == (2,)


def test_three_passes_then_a_bid_wins_at_once_hp5() -> None:
    state, _ = run(started(), [(1, PASS), (2, PASS), (3, PASS), (0, bid(1))])
    assert state.phase is Phase.TRUMP and state.bidder == 0 and state.contract == 1


def test_a_bid_of_6_closes_the_auction_at_once_hp5() -> None:
    state, events = run(started(), [(1, bid(2)), (2, bid(6))])
    assert state.phase is Phase.TRUMP and state.bidder == 2 and state.contract == 6
    assert state.passed == frozenset()
    assert {"type": "widow_taken", "seat": 2} in events


def test_a_player_may_overbid_his_partner_and_passed_seats_are_skipped_hp5() -> None:
    state, _ = run(started(), [(1, bid(1)), (2, PASS), (3, bid(2)), (0, bid(3))])
    assert ENGINE.to_act(state) == (1,)
    state, _ = run(state, [(1, PASS)])
    assert ENGINE.to_act(state) == (3,)


def test_widow_is_taken_automatically_and_seen_by_the_bidder_only_hp7() -> None:
    state, _ = run(started(), [(1, bid(6))])
    assert Card.parse("10S") in state.hands[1]
    assert ENGINE.view(state, 1)["widow"] == "10S" and "10S" in ENGINE.view(state, 1)["hand"]
    for seat in (0, 2, 3, None):
        assert "10S" not in set(card_strings(ENGINE.view(state, seat)))
        assert Card.parse("10S") in ENGINE.hidden_cards(state, seat)
    assert ENGINE.view(state, 0)["hand_sizes"] == [6, 7, 6, 6]


# --- A whole deal through the engine (HP-7, HP-8, HP-9) ---

def test_a_whole_deal_six_tricks_and_the_discard_kept_out_of_views_hp7_hp8_hp9() -> None:
    state, _ = run(started(), [(1, bid(6)), (1, {"kind": "trump", "suit": "S"})])
    assert [entry["card"] for entry in ENGINE.legal_actions(state, 1)] == [
        "JK", "AS", "KS", "QS", "JS", "10S", "JC"]
    state, events = run(state, [(1, {"kind": "discard", "card": "10S"})])
    assert {"type": "discarded", "seat": 1} in events
    assert all("10S" not in set(card_strings(ENGINE.view(state, seat)))
               for seat in (0, 1, 2, 3, None))
    assert Card.parse("10S") in ENGINE.hidden_cards(state, 1)
    assert ENGINE.to_act(state) == (1,)
    joker_led = act(state, 1, {"kind": "play", "card": "JK"}).state
    assert ENGINE.legal_actions(joker_led, 2) == [{"kind": "play", "card": "9S"}]
    state, events = play_first_legal(state)
    end = deal_end(events)
    assert end["points"] == [0, 6]
    assert end["detail"] == {"contract": 6, "bidder": 1, "team": 1, "trump": "S",
                             "tricks": [0, 6], "forced": False, "thrown_in": False,
                             "discard": "10S", "made": True}
    tricks = [event for event in events if event["type"] == "trick"]
    assert [trick["winner"] for trick in tricks] == [1] * 6 and tricks[0]["cards"][0] == "JK"
    assert state.scores == (0, 6) and ENGINE.view(state, None)["scores"] == [0, 6]
    assert ENGINE.hidden_cards(state, None) == frozenset({Card.parse("10S")})


def test_view_keys_during_play_hp8() -> None:
    state, _ = run(started(), [(1, bid(6)), (1, {"kind": "trump", "suit": "S"}),
                               (1, {"kind": "discard", "card": "10S"}),
                               (1, {"kind": "play", "card": "JK"}), (2, {"kind": "play",
                                                                        "card": "9S"})])
    view = ENGINE.view(state, 3)
    assert view["phase"] == "play" and view["to_act"] == [3] and view["trump"] == "S"
    assert view["trick"] == [{"seat": 1, "card": "JK"}, {"seat": 2, "card": "9S"}]
    assert view["teams"] == [[0, 2], [1, 3]] and view["team"] == 1
    assert view["contract"] == 6 and view["bidder"] == 1 and view["scores"] == [0, 0]
    assert set(view["hand"]) == set(POWER[3].split())
    state, _ = run(state, [(3, {"kind": "play", "card": "9H"}), (0, {"kind": "play",
                                                                    "card": "9D"})])
    view = ENGINE.view(state, None)
    assert view["hand"] == [] and view["trick"] == [] and view["tricks"] == [0, 1]
    assert view["last_trick_winner"] == 1 and view["leader"] == 1
    assert [play["card"] for play in view["last_trick"]] == ["JK", "9S", "9H", "9D"]
    assert view["completed_tricks"][0]["winner"] == 1


def test_option_first_lead_bidder_hp8() -> None:
    state, _ = run(started(first_lead="bidder"), [(1, bid(1)), (2, bid(2)), (3, PASS),
                                                  (0, PASS), (1, PASS)])
    state, events = run(state, [(2, {"kind": "trump", "suit": "H"}),
                                (2, {"kind": "discard", "card": "9S"})])
    assert ENGINE.to_act(state) == (2,) and {"type": "lead", "seat": 2, "trick": 1} in events


def test_first_lead_is_the_dealers_left_by_default_hp8() -> None:
    state, _ = run(started(dealer=2, hands={3: POWER[1], 0: POWER[2], 1: POWER[3],
                                            2: POWER[0]}),
                   [(3, PASS), (0, PASS), (1, bid(2)), (2, PASS)])
    state, _ = run(state, [(1, {"kind": "trump", "suit": "D"}),
                           (1, {"kind": "discard", "card": "9H"})])
    assert ENGINE.to_act(state) == (3,)


# --- Scoring (examples 35, 37; HP-9, HP-10, HP-11) ---

LAST_WON = ("AS", "9H", "10H", "9D")    # trump S: the leader wins
LAST_LOST = ("9H", "AS", "10H", "9D")   # trump S: the leader's left-hand opponent wins


def last_trick(*, bidder: int, contract: int | str, before: tuple[int, int], win_last: bool,
               scores: tuple[int, int] = (0, 0), **options: Any) -> tuple[HasenpfefferState, list[JSON]]:
    """A deal at its sixth trick, led by the bidder; ``before`` = tricks per team so far."""
    plays = parse_cards(" ".join(LAST_WON if win_last else LAST_LOST))
    hands: list[tuple[Card, ...]] = [()] * 4
    for i, card in enumerate(plays):
        hands[(bidder + i) % 4] = (card,)
    discard = Card.parse("KC")
    rest = [card for card in FULL if card not in plays and card != discard]
    completed = tuple(Trick(0, tuple(rest[4 * k:4 * k + 4]), 0) for k in range(5))
    state = HasenpfefferState(options=Options(**ENGINE.make_options(options)), phase=Phase.PLAY, dealer=3,
                  deal_number=4, scores=scores, hands=tuple(hands), widow=discard,
                  bidder=bidder, contract=contract, trump="S", discard=discard, leader=bidder,
                  completed=completed, tricks=before)
    events: list[JSON] = []
    for i in range(4):
        transition = act(state, (bidder + i) % 4, {"kind": "play", "card": str(plays[i])})
        state = transition.state
        events.extend(transition.events)
    return state, events


def test_example_35_contract_3_bidders_take_4_score_4_and_2_hp9() -> None:
    state, events = last_trick(bidder=0, contract=3, before=(3, 2), win_last=True)
    end = deal_end(events)
    assert end["points"] == [4, 2] and end["number"] == 4 and end["detail"]["made"] is True
    assert state.scores == (4, 2) and state.phase is Phase.NEEDS_DEAL and state.dealer == 0


def test_example_37_contract_4_bidders_take_3_score_minus_4_and_3_hp9() -> None:
    state, events = last_trick(bidder=1, contract=4, before=(2, 3), win_last=False)
    assert deal_end(events)["points"] == [3, -4]
    assert deal_end(events)["detail"]["made"] is False


def test_negative_scores_are_allowed_and_do_not_end_the_match_hp9() -> None:
    state, _ = last_trick(bidder=1, contract=4, before=(2, 3), win_last=False, scores=(2, -3))
    assert state.scores == (5, -7) and ENGINE.outcome(state) is None
    assert ENGINE.view(state, 0)["scores"] == [5, -7]


def test_option_defenders_score_off_hp9() -> None:
    _, events = last_trick(bidder=0, contract=3, before=(3, 2), win_last=True,
                           defenders_score=False)
    assert deal_end(events)["points"] == [4, 0]


def test_overtricks_count_when_made_hp9() -> None:
    _, events = last_trick(bidder=2, contract=1, before=(5, 0), win_last=True)
    assert deal_end(events)["points"] == [6, 0]


@pytest.mark.parametrize(("contract", "win_last", "points"), [
    ("little_pepper", True, [6, 0]), ("little_pepper", False, [-6, 1]),
    ("big_pepper", True, [12, 0]), ("big_pepper", False, [-12, 1]),
    (5, False, [5, 1]), (5, True, [6, 0]),
])
def test_pepper_scoring_hp11(contract: int | str, win_last: bool, points: list[int]) -> None:
    _, events = last_trick(bidder=0, contract=contract, before=(5, 0), win_last=win_last,
                           bidding="pepper")
    assert deal_end(events)["points"] == points


def test_deal_points_function_matches_hp9() -> None:
    state = HasenpfefferState(options=Options(), phase=Phase.PLAY, dealer=0, bidder=3, contract=2,
                  tricks=(5, 1))
    assert deal_points(Options(), state) == (5, -2)


def test_exactly_one_team_reaching_the_target_wins_hp10() -> None:
    state, events = last_trick(bidder=1, contract=4, before=(2, 3), win_last=False,
                               scores=(7, 0))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.totals == (10, -4)
    assert outcome.teams == ((0, 2), (1, 3)) and state.phase is Phase.FINISHED
    assert {"type": "match_end", "winners": [0], "totals": [10, -4]} in events
    assert ENGINE.view(state, None)["winners"] == [0]


@pytest.mark.parametrize(("rule", "scores", "winner"), [
    ("bidders_win", (8, 9), 0), ("higher_total", (8, 9), 1), ("higher_total", (8, 8), 0),
    ("higher_total", (9, 7), 0),
])
def test_both_teams_reach_the_target_in_one_deal_hp10(rule: str, scores: tuple[int, int],
                                                       winner: int) -> None:
    state, _ = last_trick(bidder=0, contract=2, before=(2, 3), win_last=True, scores=scores,
                          both_reach_target=rule)
    assert min(state.scores) >= 10
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (winner,)


def test_option_target_hp10() -> None:
    state, _ = last_trick(bidder=0, contract=3, before=(3, 2), win_last=True, target=4)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.totals == (4, 2)


# --- The pepper form of the auction (HP-11) ---

def test_pepper_bids_low_to_high_and_no_numeric_six_hp11() -> None:
    state = started(bidding="pepper")
    assert [entry.get("value") for entry in ENGINE.legal_actions(state, 1)] == [
        1, 2, 3, 4, 5, "little_pepper", "big_pepper", None]
    state, _ = run(state, [(1, bid(5))])
    assert [entry.get("value") for entry in ENGINE.legal_actions(state, 2)] == [
        "little_pepper", "big_pepper", None]
    with pytest.raises(IllegalAction) as refused:
        act(state, 2, bid(6))
    assert refused.value.code == "action/no_numeric_six"


def test_big_pepper_overcalls_little_pepper_and_closes_the_auction_hp11() -> None:
    state, _ = run(started(bidding="pepper"), [(1, bid("little_pepper"))])
    assert ENGINE.to_act(state) == (2,)
    state, events = run(state, [(2, bid("big_pepper"))])
    assert state.phase is Phase.TRUMP and state.bidder == 2 and state.contract == "big_pepper"
    state, _ = run(state, [(2, {"kind": "trump", "suit": "H"}),
                           (2, {"kind": "discard", "card": "9S"})])
    state, events = play_first_legal(state)
    end = deal_end(events)
    taken = end["detail"]["tricks"][0]
    assert taken < 6 and end["points"] == [-12, 6 - taken]


def test_big_pepper_may_open_the_auction_and_wins_12_hp11() -> None:
    state, events = run(started(bidding="pepper"), [(1, bid("big_pepper"))])
    assert state.phase is Phase.TRUMP and state.contract == "big_pepper"
    state, _ = run(state, [(1, {"kind": "trump", "suit": "S"}),
                           (1, {"kind": "discard", "card": "10S"})])
    state, events = play_first_legal(state)
    assert deal_end(events)["points"] == [0, 12] and state.scores == (0, 12)


def test_little_pepper_wins_6_after_three_passes_hp11() -> None:
    state, _ = run(started(bidding="pepper"), [(1, bid("little_pepper")), (2, PASS), (3, PASS),
                                               (0, PASS)])
    assert state.contract == "little_pepper"
    state, _ = run(state, [(1, {"kind": "trump", "suit": "S"}),
                           (1, {"kind": "discard", "card": "10S"})])
    state, events = play_first_legal(state)
    assert deal_end(events)["points"] == [0, 6]


def test_forced_bid_is_still_3_in_the_pepper_form_hp11() -> None:
    state, _ = run(started(JOKER_EAST, "9C", bidding="pepper"),
                   [(1, PASS), (2, PASS), (3, PASS), (0, PASS)])
    assert state.bidder == 3 and state.contract == 3 and state.forced


# --- Options (section 3.5) ---

def test_option_specs_names_and_defaults() -> None:
    specs = {spec.name: spec for spec in ENGINE.option_specs}
    assert list(specs) == ["bidding", "first_lead", "defenders_score", "target",
                           "both_reach_target"]
    assert ENGINE.make_options({}) == {"bidding": "standard", "first_lead": "dealer_left",
                                       "defenders_score": True, "target": 10,
                                       "both_reach_target": "bidders_win"}
    assert specs["bidding"].choices == ("standard", "pepper")
    assert specs["both_reach_target"].choices == ("bidders_win", "higher_total")


@pytest.mark.parametrize("raw", [
    {"bidding": "euchre"}, {"first_lead": "dealer"}, {"defenders_score": 1},
    {"defenders_score": "true"}, {"target": 0}, {"target": -5}, {"target": True},
    {"target": "10"}, {"target": 10.0}, {"target": 101}, {"target": 2**64},
    {"both_reach_target": "nobody"}, {"lone_hands": True},
])
def test_bad_options_are_refused(raw: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        ENGINE.make_options(raw)


def test_start_needs_exactly_four_seats_hp1() -> None:
    with pytest.raises(InvalidOptions):
        ENGINE.start({}, Seating(3, 0))
    with pytest.raises(InvalidOptions):
        ENGINE.start({}, Seating(4, 4))


# --- Rejections: malformed input (InvalidAction) ---

@pytest.mark.parametrize(("raw", "code"), [
    (None, "action/not_an_object"), ("pass", "action/not_an_object"),
    ([], "action/not_an_object"), ({}, "action/unknown_kind"),
    ({"kind": "fold"}, "action/unknown_kind"), ({"kind": 3}, "action/unknown_kind"),
    ({"kind": "bid"}, "action/missing_field"), ({"kind": "pass", "value": 1}, "action/extra_field"),
    ({"kind": "bid", "value": 0}, "action/bid_out_of_range"),
    ({"kind": "bid", "value": 7}, "action/bid_out_of_range"),
    ({"kind": "bid", "value": -1}, "action/bid_out_of_range"),
    ({"kind": "bid", "value": True}, "action/bad_bid"),
    ({"kind": "bid", "value": "3"}, "action/bad_bid"),
    ({"kind": "bid", "value": 3.0}, "action/bad_bid"),
    ({"kind": "bid", "value": None}, "action/bad_bid"),
    ({"kind": "bid", "value": "pepper"}, "action/bad_bid"),
    ({"kind": "trump"}, "action/missing_field"),
    ({"kind": "trump", "suit": None}, "action/no_suit"),
    ({"kind": "trump", "suit": ""}, "action/no_suit"),
    ({"kind": "trump", "suit": "JK"}, "action/joker_not_a_suit"),
    ({"kind": "trump", "suit": "NT"}, "action/bad_suit"),
    ({"kind": "trump", "suit": "s"}, "action/bad_suit"),
    ({"kind": "trump", "suit": 1}, "action/bad_suit"),
    ({"kind": "discard", "card": "2H"}, "action/card_not_in_deck"),
    ({"kind": "play", "card": "ZZ"}, "action/bad_card"),
    ({"kind": "play", "card": 10}, "action/bad_card"),
    ({"kind": "play", "card": "AS", "seat": 1}, "action/extra_field"),
])
def test_malformed_actions_are_invalid(raw: Any, code: str) -> None:
    with pytest.raises(InvalidAction) as refused:
        ENGINE.parse_action(raw)
    assert refused.value.code == code


def test_trump_messages_name_the_problem_hp7() -> None:
    with pytest.raises(InvalidAction, match="Joker, not a suit"):
        ENGINE.parse_action({"kind": "trump", "suit": "JK"})
    with pytest.raises(InvalidAction, match="needs a suit"):
        ENGINE.parse_action({"kind": "trump", "suit": None})


@pytest.mark.parametrize("raw", [
    {"kind": "bid", "value": 1}, {"kind": "bid", "value": 6}, {"kind": "bid", "value": "big_pepper"},
    {"kind": "pass"}, {"kind": "trump", "suit": "C"}, {"kind": "discard", "card": "JK"},
    {"kind": "play", "card": "10H"},
])
def test_actions_print_and_parse_back(raw: JSON) -> None:
    assert ENGINE.action_to_json(ENGINE.parse_action(raw)) == raw


# --- Rejections: well-formed but refused now ---

def refused(state: HasenpfefferState, seat: int, raw: JSON, kind: type[Rejection], code: str) -> str:
    with pytest.raises(kind) as caught:
        act(state, seat, raw)
    assert type(caught.value) is kind and caught.value.code == code
    return caught.value.message


def test_bidding_rejections_hp5() -> None:
    state, _ = run(started(), [(1, bid(3)), (2, PASS)])
    refused(state, 3, bid(2), IllegalAction, "action/bid_too_low")
    refused(state, 3, bid("little_pepper"), IllegalAction, "action/pepper_not_in_use")
    message = refused(state, 2, bid(5), NotYourTurn, "action/already_passed")
    assert "pass is final" in message
    refused(state, 0, bid(5), NotYourTurn, "action/not_your_turn")
    refused(state, 3, {"kind": "trump", "suit": "S"}, IllegalAction, "action/widow_not_taken")
    refused(state, 3, {"kind": "discard", "card": "9H"}, IllegalAction, "action/widow_not_taken")
    refused(state, 3, {"kind": "play", "card": "9H"}, IllegalAction, "action/not_play_phase")


def test_pepper_form_refuses_a_numeric_six_hp11() -> None:
    message = refused(started(bidding="pepper"), 1, bid(6), IllegalAction,
                      "action/no_numeric_six")
    assert "little_pepper" in message


def test_trump_and_discard_rejections_hp7() -> None:
    state, _ = run(started(), [(1, bid(6))])
    message = refused(state, 2, {"kind": "trump", "suit": "S"}, NotYourTurn, "action/not_bidder")
    assert "only the bidder, seat 1" in message
    refused(state, 1, {"kind": "discard", "card": "10S"}, IllegalAction, "action/trump_first")
    refused(state, 1, bid(6), IllegalAction, "action/auction_over")
    refused(state, 1, PASS, IllegalAction, "action/auction_over")
    refused(state, 1, {"kind": "play", "card": "JK"}, IllegalAction, "action/not_play_phase")
    state, _ = run(state, [(1, {"kind": "trump", "suit": "S"})])
    refused(state, 0, {"kind": "discard", "card": "9D"}, NotYourTurn, "action/not_bidder")
    message = refused(state, 1, {"kind": "discard", "card": "AH"}, IllegalAction,
                      "action/card_not_held")
    assert "AH" in message
    refused(state, 1, {"kind": "trump", "suit": "H"}, IllegalAction,
            "action/trump_already_named")
    state, _ = run(state, [(1, {"kind": "discard", "card": "JK"})])
    assert state.discard == Card.parse("JK") and Card.parse("JK") not in state.hands[1]
    refused(state, 1, {"kind": "discard", "card": "AS"}, IllegalAction,
            "action/already_discarded")


def test_play_rejections_hp8() -> None:
    state, _ = run(started(), [(1, bid(6)), (1, {"kind": "trump", "suit": "S"}),
                               (1, {"kind": "discard", "card": "10S"})])
    refused(state, 2, {"kind": "play", "card": "9S"}, NotYourTurn, "action/not_your_turn")
    refused(state, 1, {"kind": "play", "card": "AH"}, IllegalAction, "action/card_not_held")
    state, _ = run(state, [(1, {"kind": "play", "card": "JK"})])
    message = refused(state, 2, {"kind": "play", "card": "AH"}, IllegalAction,
                      "action/must_follow")
    assert "must follow spades" in message and "9S" in message


def test_nothing_is_accepted_between_deals_or_after_the_match() -> None:
    fresh = ENGINE.start({}, Seating(4, 0))
    refused(fresh, 1, PASS, NotYourTurn, "action/awaiting_deal")
    assert ENGINE.legal_actions(fresh, 1) == [] and ENGINE.to_act(fresh) == ()
    finished, _ = last_trick(bidder=0, contract=3, before=(3, 2), win_last=True, target=4)
    refused(finished, 0, PASS, GameOver, "action/game_over")
    with pytest.raises(GameOver):
        ENGINE.deal(finished, FULL)
    assert all(ENGINE.legal_actions(finished, seat) == [] for seat in range(4))


def test_deal_rejections() -> None:
    state = started()
    with pytest.raises(IllegalAction):
        ENGINE.deal(state, FULL)
    with pytest.raises(InvalidAction):
        ENGINE.deal(ENGINE.start({}, Seating(4, 0)), FULL[:24])
    assert ENGINE.has_auto_step(state) is False
    with pytest.raises(IllegalAction):
        ENGINE.auto_step(state)


def test_a_rejection_changes_nothing() -> None:
    state, _ = run(started(), [(1, bid(3))])
    before = replace(state)
    with pytest.raises(IllegalAction):
        act(state, 2, bid(2))
    assert state == before and ENGINE.to_act(state) == (2,)
