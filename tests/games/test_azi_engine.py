"""Azi scenarios through the engine: the deal (example 5), betting (examples 23, 25, caps,
all-ins), play, folds, Azi re-deals, settlement, the session, and every rejection."""

from __future__ import annotations

from typing import Any

import pytest
from support.engines import plays, stacked_deck

from app.games.azi import ENGINE, AziState, Phase
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
from app.games.cards import Card, azi_deck, card_texts, parse_cards
from app.games.driver import Match


def new(stacks: list[int], button: int = 0, **options: Any) -> AziState:
    return ENGINE.start(options, Seating(len(stacks), button, tuple(stacks)))


def deal(state: AziState, hands: dict[int, str]) -> Transition[AziState]:
    return ENGINE.deal(state, stacked_deck(state, hands))


def act(state: AziState, seat: int, raw: JSON) -> AziState:
    return ENGINE.apply(state, seat, ENGINE.parse_action(raw)).state


def act_events(state: AziState, seat: int, raw: JSON) -> Transition[AziState]:
    return ENGINE.apply(state, seat, ENGINE.parse_action(raw))


def run(state: AziState, moves: list[tuple[int, JSON]]) -> tuple[AziState, list[JSON]]:
    events: list[JSON] = []
    for seat, raw in moves:
        step = act_events(state, seat, raw)
        state = step.state
        events.extend(step.events)
    return state, events


def refused(kind: type[Rejection], code: str, state: AziState, seat: int, raw: JSON) -> str:
    """Asserts that ``raw`` by ``seat`` is refused with exactly ``kind`` and ``code``; returns the
    message."""
    with pytest.raises(kind) as caught:
        act(state, seat, raw)
    assert type(caught.value) is kind
    assert caught.value.code == code
    return caught.value.message


BET = {"kind": "bet", "amount": 10}
CALL = {"kind": "call"}
FOLD = {"kind": "fold"}


def raise_to(amount: int) -> JSON:
    return {"kind": "raise", "to": amount}


def chips(events: list[JSON] | tuple[JSON, ...]) -> list[tuple[int, int, str]]:
    return [(e["seat"], e["delta"], e["reason"]) for e in events if e["type"] == "chips"]


def of_type(events: list[JSON] | tuple[JSON, ...], kind: str) -> list[JSON]:
    return [event for event in events if event["type"] == kind]


# --- the deal -----------------------------------------------------------------------------

def test_example_5_deal_order_and_exposed_card() -> None:
    """Example 5 (AZ-6): 4 players, button 0: cards go 1,2,3,0,1,2,3,0,1,2,3,0; the 12th card
    (seat 0's third) is exposed and fixes trump."""
    deck = list(azi_deck())
    state = ENGINE.deal(new([1000] * 4), deck).state
    for seat in range(4):
        expected = [deck[(seat - 1) % 4 + 4 * k] for k in range(3)]
        assert list(state.hands[seat]) == expected
    assert state.exposed == deck[11] and state.exposed_owner == 0
    assert state.trump == deck[11].suit
    assert state.undealt == tuple(deck[12:])


def test_az5_antes_and_first_opener() -> None:
    """AZ-5: every seated player who can pay antes T; the button deals; AZ-7.1 opener at his
    left."""
    step = ENGINE.deal(new([1000] * 4, button=2), list(azi_deck()))
    state = step.state
    assert chips(step.events) == [(seat, -10, "ante") for seat in range(4)]
    assert state.pot == 40 and state.contributions == (10, 10, 10, 10)
    assert state.exposed_owner == 2 and ENGINE.to_act(state) == (3,)


def test_deal_refuses_a_wrong_deck_and_an_unexpected_deal() -> None:
    state = new([100, 100])
    with pytest.raises(InvalidAction):
        ENGINE.deal(state, list(azi_deck())[:-1])
    with pytest.raises(InvalidAction):
        ENGINE.deal(state, list(azi_deck())[:-1] + [Card.parse("2C")])
    dealt = ENGINE.deal(state, list(azi_deck())).state
    with pytest.raises(IllegalAction):
        ENGINE.deal(dealt, list(azi_deck()))


@pytest.mark.parametrize(("players", "dealer", "stacks"), [
    (1, 0, (100,)), (7, 0, (100,) * 7), (3, 3, (100,) * 3), (3, 0, None), (3, 0, (100, 100)),
    (3, 0, (100, -1, 100)), (3, 0, (100, True, 100)),
])
def test_bad_seating_is_refused(players: int, dealer: int, stacks: tuple[int, ...] | None) -> None:
    """AZ-1: 2..6 players; Azi needs one stack per seat."""
    with pytest.raises(InvalidOptions):
        ENGINE.start({}, Seating(players, dealer, stacks))


def test_a_table_where_fewer_than_two_can_pay_is_over_at_once() -> None:
    """AZ-5/AZ-15: at least two participants are needed; otherwise no game starts."""
    state = new([100, 9, 9])
    assert state.phase is Phase.MATCH_OVER and not ENGINE.needs_deck(state)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.totals == (0, 0, 0) and outcome.winners == ()
    assert ENGINE.hidden_cards(state, None) == frozenset(azi_deck())


# --- betting ------------------------------------------------------------------------------

def test_example_23_opener_must_bet_at_least_min_bet() -> None:
    """Example 23 (AZ-7.1): 4 players, button 0, stacks 1000, pot 40; seat 1 opens; no fold or
    check; 5 is illegal, 10 is legal."""
    state = ENGINE.deal(new([1000] * 4), list(azi_deck())).state
    assert state.pot == 40 and state.phase is Phase.BETTING
    assert ENGINE.to_act(state) == (1,)
    assert ENGINE.legal_actions(state, 1) == [{"kind": "bet", "min": 10, "max": 990}]
    assert ENGINE.legal_actions(state, 2) == []
    refused(IllegalAction, "action/opener_cannot_fold", state, 1, FOLD)
    refused(IllegalAction, "action/must_open", state, 1, CALL)
    refused(IllegalAction, "action/must_open", state, 1, raise_to(20))
    message = refused(IllegalAction, "action/bet_below_minimum", state, 1,
                      {"kind": "bet", "amount": 5})
    assert "5" in message and "10" in message
    refused(IllegalAction, "action/bet_above_stack", state, 1, {"kind": "bet", "amount": 991})
    refused(NotYourTurn, "action/not_your_turn", state, 2, BET)
    refused(IllegalAction, "action/wrong_phase", state, 1, {"kind": "play", "card": "AS"})
    opened = act(state, 1, BET)
    assert (opened.high, opened.high_bidder, opened.bids[1], opened.pot) == (10, 1, 1, 50)
    assert ENGINE.to_act(opened) == (2,)
    refused(IllegalAction, "action/already_open", opened, 2, BET)


def test_example_25_minimum_raise() -> None:
    """Example 25 (AZ-7.3): facing high = 40, a raise to 45 is illegal (min_raise 10), 50 legal."""
    state = ENGINE.deal(new([1000] * 4), list(azi_deck())).state
    state = act(state, 1, {"kind": "bet", "amount": 40})
    assert ENGINE.legal_actions(state, 2) == [
        {"kind": "fold"}, {"kind": "call", "amount": 40, "all_in": False},
        {"kind": "raise", "min": 50, "max": 990}]
    refused(IllegalAction, "action/raise_too_small", state, 2, raise_to(45))
    refused(IllegalAction, "action/raise_above_stack", state, 2, raise_to(991))
    state = act(state, 2, raise_to(50))
    assert (state.high, state.high_bidder, state.bets[2]) == (50, 2, 50)
    assert ENGINE.to_act(state) == (3,)


def test_per_player_cap_counts_the_opening_bet() -> None:
    """AZ-7.3 / ambiguity 9 (raise_cap per_player): the opener's bet is his first bid; a fourth
    bid is refused; the last raiser leads (AZ-7.5)."""
    state = ENGINE.deal(new([1000, 1000]), list(azi_deck())).state
    state, _ = run(state, [(1, BET), (0, raise_to(20)), (1, raise_to(30)), (0, raise_to(40)),
                           (1, raise_to(50)), (0, raise_to(60))])
    assert state.bids == (3, 3)
    assert [entry["kind"] for entry in ENGINE.legal_actions(state, 1)] == ["fold", "call"]
    message = refused(IllegalAction, "action/bid_cap", state, 1, raise_to(70))
    assert "3 bids" in message
    state = act(state, 1, CALL)
    assert state.phase is Phase.PLAY and state.leader == 0 and ENGINE.to_act(state) == (0,)
    assert state.contributions == (70, 70)


def test_total_cap_counts_raises_over_all_players() -> None:
    """Ambiguity 9 (raise_cap total): at most max_bids raises in one betting phase."""
    state = ENGINE.deal(new([1000] * 3, raise_cap="total"), list(azi_deck())).state
    state, _ = run(state, [(1, BET), (2, raise_to(20)), (0, raise_to(30)), (1, raise_to(40))])
    assert state.raises == 3
    assert "raise" not in [entry["kind"] for entry in ENGINE.legal_actions(state, 2)]
    refused(IllegalAction, "action/raise_cap", state, 2, raise_to(50))
    state, _ = run(state, [(2, CALL), (0, CALL)])
    assert state.phase is Phase.PLAY and state.leader == 1


def test_all_in_for_less_loses_the_lead_right() -> None:
    """AZ-7.3: a player short of the call may go all-in for less but never becomes the high
    bidder; he cannot raise."""
    state = ENGINE.deal(new([1000, 1000, 110]), list(azi_deck())).state
    state = act(state, 1, {"kind": "bet", "amount": 300})
    assert ENGINE.legal_actions(state, 2) == [{"kind": "fold"},
                                              {"kind": "call", "amount": 100, "all_in": True}]
    refused(IllegalAction, "action/cannot_raise", state, 2, raise_to(310))
    step = act_events(state, 2, CALL)
    state = step.state
    assert chips(step.events) == [(2, -100, "call")]
    assert state.is_all_in(2) and state.high_bidder == 1 and state.high == 300
    state = act(state, 0, CALL)
    assert state.phase is Phase.PLAY and state.leader == 1
    assert state.contributions == (310, 310, 110)


def test_covering_the_call_but_not_a_full_raise_only_calls() -> None:
    """AZ-7.3: no partial raises; a player whose stack covers the call but not a full raise may
    only call or fold."""
    state = ENGINE.deal(new([1000, 1000, 315]), list(azi_deck())).state
    state = act(state, 1, {"kind": "bet", "amount": 300})
    assert [entry["kind"] for entry in ENGINE.legal_actions(state, 2)] == ["fold", "call"]
    refused(IllegalAction, "action/cannot_raise", state, 2, raise_to(305))
    state = act(state, 2, CALL)
    assert state.stacks[2] == 5 and not state.is_all_in(2)


def test_a_raise_with_the_whole_stack_is_a_normal_raise() -> None:
    """AZ-7.3: a raise that uses the whole stack holds the lead right."""
    state = ENGINE.deal(new([1000, 1000, 510]), list(azi_deck())).state
    state, _ = run(state, [(1, {"kind": "bet", "amount": 300}), (2, raise_to(500))])
    assert state.is_all_in(2) and state.high_bidder == 2
    assert ENGINE.to_act(state) == (0,)
    state, _ = run(state, [(0, CALL), (1, CALL)])
    assert state.phase is Phase.PLAY and state.leader == 2


def test_player_skipped_at_the_opening_acts_later() -> None:
    """AZ-7.1/7.2: the opener is the first who can afford min_bet; a skipped short stack acts
    when the action reaches him (here: all-in for less)."""
    state = ENGINE.deal(new([1000, 15, 1000]), list(azi_deck())).state
    assert state.opener == 2 and ENGINE.to_act(state) == (2,)
    refused(NotYourTurn, "action/not_your_turn", state, 1, CALL)
    state, _ = run(state, [(2, BET), (0, CALL)])
    assert ENGINE.legal_actions(state, 1) == [{"kind": "fold"},
                                              {"kind": "call", "amount": 5, "all_in": True}]
    state = act(state, 1, CALL)
    assert state.phase is Phase.PLAY and state.leader == 2 and state.is_all_in(1)


def test_nobody_can_open_so_play_starts_left_of_the_button() -> None:
    """AZ-7.1: if no participant can afford min_bet there is no betting; the first participant
    after the button leads."""
    step = ENGINE.deal(new([10, 15, 10]), list(azi_deck()))
    state = step.state
    assert of_type(step.events, "no_betting") == [{"type": "no_betting", "leader": 1}]
    assert state.phase is Phase.PLAY and state.leader == 1 and ENGINE.to_act(state) == (1,)
    assert state.pot == 30 and state.stacks == (0, 5, 0)


# --- play ---------------------------------------------------------------------------------

def test_play_rejections_name_the_rule() -> None:
    """Examples 6 and 7 in a deal (AZ-8): must follow spades; void in spades, must trump."""
    state = new([1000] * 3)
    state = deal(state, {1: "9S KD 6D", 2: "7S KH 8D", 0: "AD 7D 9H"}).state
    assert state.trump == "H" and state.exposed == Card.parse("9H")
    state, _ = run(state, [(1, BET), (2, CALL), (0, CALL)])
    state = act(state, 1, {"kind": "play", "card": "9S"})
    assert ENGINE.legal_actions(state, 2) == [{"kind": "play", "card": "7S"}]
    message = refused(IllegalAction, "action/must_follow", state, 2, {"kind": "play", "card": "KH"})
    assert "must follow spades" in message and "KH" in message
    refused(NotYourTurn, "action/not_your_turn", state, 0, {"kind": "play", "card": "9H"})
    state = act(state, 2, {"kind": "play", "card": "7S"})
    assert ENGINE.legal_actions(state, 0) == [{"kind": "play", "card": "9H"}]
    message = refused(IllegalAction, "action/must_trump", state, 0, {"kind": "play", "card": "AD"})
    assert "must play a trump" in message
    refused(IllegalAction, "action/not_in_hand", state, 0, {"kind": "play", "card": "8S"})
    refused(IllegalAction, "action/wrong_phase", state, 0, CALL)
    step = act_events(state, 0, {"kind": "play", "card": "9H"})
    assert of_type(step.events, "trick") == [{
        "type": "trick", "number": 1, "winner": 0,
        "cards": [{"seat": 1, "card": "9S"}, {"seat": 2, "card": "7S"}, {"seat": 0, "card": "9H"}]}]
    assert step.state.turn == 0 and step.state.tricks_won == (1, 0, 0)


def test_six_on_the_scene_beats_the_ace_of_trumps() -> None:
    """Example 3 in a deal (AZ-6): exposed AH, the 6H wins over the AH; two tricks win (AZ-9)
    and the third is not played."""
    state = deal(new([1000, 1000]), {1: "6H 7D 8D", 0: "KS QS AH"}).state
    assert state.exposed == Card.parse("AH") and state.six_on_scene
    assert ENGINE.view(state, None)["six_on_scene"] is True
    state, _ = run(state, [(1, BET), (0, CALL)])
    state, events = run(state, plays("1:6H", "0:AH", "1:7D", "0:KS"))
    assert [event["winner"] for event in of_type(events, "trick")] == [1, 1]
    assert state.phase is Phase.GAME_OVER and state.last_result is not None
    assert state.last_result.winner == 1 and state.hands[1] == parse_cards("8D")


# --- 4-card variant -------------------------------------------------------------------------

def test_four_card_variant_discards_simultaneously() -> None:
    """AZ-6 variant: 4 cards each, every participant discards one face down at once, before
    betting; trump stays fixed even when the exposed card is discarded."""
    state = new([1000] * 3, hand_size=4)
    state = deal(state, {1: "9S KD 6D 7S", 2: "7H KH 8D 10S", 0: "AD 7D JS 9H"}).state
    assert state.phase is Phase.DISCARD and ENGINE.to_act(state) == (0, 1, 2)
    assert ENGINE.legal_actions(state, 0) == [
        {"kind": "discard", "card": card} for card in ["AD", "7D", "JS", "9H"]]
    refused(IllegalAction, "action/wrong_phase", state, 1, BET)
    refused(IllegalAction, "action/not_in_hand", state, 1, {"kind": "discard", "card": "AS"})
    state = act(state, 0, {"kind": "discard", "card": "9H"})
    assert state.trump == "H" and card_texts(state.hands[0]) == ["AD", "7D", "JS"]
    message = refused(IllegalAction, "action/already_discarded", state, 0,
                      {"kind": "discard", "card": "AD"})
    assert "already discarded" in message
    assert ENGINE.to_act(state) == (1, 2)
    seen_by_1 = ENGINE.view(state, 1)
    assert "9H" in str(seen_by_1)  # the exposed card is public
    assert seen_by_1["discarded"] == [0] and seen_by_1["my_discard"] is None
    assert ENGINE.view(state, 0)["my_discard"] == "9H"
    state = act(state, 2, {"kind": "discard", "card": "10S"})
    state = act(state, 1, {"kind": "discard", "card": "7S"})
    assert state.phase is Phase.BETTING and ENGINE.to_act(state) == (1,)
    assert Card.parse("10S") in ENGINE.hidden_cards(state, 1)
    assert Card.parse("10S") not in ENGINE.hidden_cards(state, 2)
    assert Card.parse("9H") not in ENGINE.hidden_cards(state, 1)
    assert all(len(state.hands[seat]) == 3 for seat in range(3))
    assert "10S" not in str(ENGINE.view(state, None)) and "7S" not in str(ENGINE.view(state, 0))


# --- the end of a deal ------------------------------------------------------------------------

def test_game_won_by_folds_shows_no_cards() -> None:
    """AZ-7.4(a)/AZ-12: the lone survivor takes the pot at once; a folded player cannot act."""
    state = ENGINE.deal(new([1000] * 4), list(azi_deck())).state
    state, _ = run(state, [(1, BET), (2, FOLD)])
    refused(NotYourTurn, "action/folded", state, 2, CALL)
    assert ENGINE.legal_actions(state, 2) == []
    state, events = run(state, [(3, FOLD), (0, FOLD)])
    assert chips(events) == [(1, 50, "payout")]
    assert of_type(events, "play") == []
    [deal_end] = of_type(events, "deal_end")
    assert deal_end["number"] == 1 and deal_end["points"] == [-10, 30, -10, -10]
    assert deal_end["detail"]["reason"] == "folds" and deal_end["detail"]["winner"] == 1
    assert state.phase is Phase.GAME_OVER and state.pot == 0
    assert state.stacks == (990, 1030, 990, 990)
    assert state.last_result is not None and state.last_result.net == (-10, 30, -10, -10)
    unseen = card_texts(state.hands[1])
    for seat in (0, 2, 3, None):
        assert not set(unseen) & set(str(ENGINE.view(state, seat)).split("'"))


def _azi_first_deal(stacks: list[int], **options: Any) -> tuple[AziState, list[JSON]]:
    """Six seats, seat 5 too short to play; seats 4 and 0 fold; seats 1, 2, 3 take one trick
    each: an Azi (AZ-9). Pot 50 antes + 30 bets = 80."""
    state = new(stacks, **options)
    hands = {1: "AS 9H KS", 2: "7S AH 10H", 3: "8S 7H JH", 4: "6D 8D 9D", 0: "10D JD 7D"}
    state = deal(state, hands).state
    assert state.participants == (0, 1, 2, 3, 4) and state.trump == "D"
    return run(state, [(1, BET), (2, CALL), (3, CALL), (4, FOLD), (0, FOLD),
                       *plays("1:AS", "2:7S", "3:8S", "1:9H", "2:AH", "3:7H",
                              "2:10H", "3:JH", "1:KS")])


def test_azi_with_buy_ins_then_a_redeal_won_with_dead_money() -> None:
    """AZ-9/AZ-13: one trick each for three players is an Azi; the pot (80) is carried; the
    one-trick players are in free; the others are offered ceil(80/2) = 40 clockwise from the
    button; a player who cannot pay is not offered; the re-deal's winner takes the dead money
    (AZ-10/AZ-11)."""
    state, events = _azi_first_deal([1000] * 5 + [5])
    [deal_end] = of_type(events, "deal_end")
    assert deal_end["points"] == [-10, -20, -20, -20, -10, 0]
    assert deal_end["detail"]["reason"] == "azi" and deal_end["detail"]["winner"] is None
    assert of_type(events, "azi") == [{"type": "azi", "pot": 80, "players": [1, 2, 3],
                                       "price": 40, "offered": [4, 0]}]
    assert state.phase is Phase.AZI_BUY_IN and ENGINE.to_act(state) == (4,)
    shown = ENGINE.view(state, None)
    assert [trick["winner"] for trick in shown["tricks"]] == [1, 2, 3]
    assert shown["last_trick"] == [{"seat": 2, "card": "10H"}, {"seat": 3, "card": "JH"},
                                   {"seat": 1, "card": "KS"}]
    assert shown["buy_in"]["free"] == [1, 2, 3] and shown["buy_in"]["waiting"] == [4, 0]
    assert (state.pot, state.dead_money, state.contributions) == (80, 80, (0,) * 6)
    assert ENGINE.legal_actions(state, 4) == [{"kind": "buy_in"}, {"kind": "decline"}]
    assert ENGINE.view(state, 4)["buy_in"]["price"] == 40
    refused(NotYourTurn, "action/not_your_turn", state, 0, {"kind": "buy_in"})
    refused(IllegalAction, "action/already_in", state, 1, {"kind": "buy_in"})
    refused(IllegalAction, "action/cannot_afford", state, 5, {"kind": "buy_in"})
    refused(IllegalAction, "action/wrong_phase", state, 4, CALL)
    refused(IllegalAction, "action/not_between_games", state, 4, {"kind": "leave"})
    state = act(state, 4, {"kind": "decline"})
    refused(IllegalAction, "action/already_decided", state, 4, {"kind": "buy_in"})
    step = act_events(state, 0, {"kind": "buy_in"})
    state = step.state
    assert chips(step.events) == [(0, -40, "buy_in")]
    assert state.phase is Phase.NEEDS_DEAL and state.redeal and ENGINE.needs_deck(state)
    assert state.participants == (0, 1, 2, 3) and state.dead_money == 120 and state.button == 0
    assert ENGINE.view(state, 0)["buy_in"]["decisions"] == [{"seat": 4, "bought": False},
                                                           {"seat": 0, "bought": True}]
    refused(IllegalAction, "action/not_between_games", state, 4, {"kind": "leave"})

    redeal = deal(state, {1: "7D 8D 9D", 2: "7H 8H 9H", 3: "JD QD KD", 0: "AS KS 10S"})
    assert chips(redeal.events) == []  # AZ-13: no ante for a re-deal
    state = redeal.state
    assert state.trump == "S" and ENGINE.to_act(state) == (1,)
    state, events = run(state, [(1, BET), (2, CALL), (3, CALL), (0, CALL),
                                *plays("1:7D", "2:7H", "3:JD", "0:AS", "0:KS", "1:8D", "2:8H",
                                       "3:QD")])
    assert chips(events)[-1] == (0, 160, "payout")
    [deal_end] = of_type(events, "deal_end")
    assert deal_end["number"] == 2 and deal_end["points"] == [110, -10, -10, -10, 0, 0]
    assert deal_end["detail"]["dead_money"] == 120
    assert state.phase is Phase.GAME_OVER and state.last_result is not None
    assert state.last_result.net == (100, -30, -30, -30, -10, 0)
    assert state.last_result.deals == 2
    assert state.stacks == (1100, 970, 970, 970, 990, 5)
    assert ENGINE.view(state, 3)["last_game"] == {
        "number": 1, "winner": 0, "reason": "tricks", "pot": 160,
        "payouts": [160, 0, 0, 0, 0, 0], "net": [100, -30, -30, -30, -10, 0], "deals": 2}
    assert ENGINE.view(state, 3)["scores"] == [100, -30, -30, -30, -10, 0]


def test_azi_without_buy_in_replays_the_three() -> None:
    """Option azi_buy_in none (AZ-13): only the one-trick players replay, no offers."""
    state, events = _azi_first_deal([1000] * 5 + [5], azi_buy_in="none")
    assert of_type(events, "azi")[0]["offered"] == []
    assert state.phase is Phase.NEEDS_DEAL and state.participants == (1, 2, 3)


def test_all_in_player_with_one_trick_replays_free_and_wins_the_dead_money() -> None:
    """Ambiguity 18: an all-in player with one trick continues for free; winning the re-deal he
    gets the dead money plus the matched part of the new contributions (AZ-11)."""
    state, _ = _azi_first_deal([1000, 1000, 1000, 20, 1000, 5], azi_buy_in="none")
    assert state.stacks[3] == 0 and state.participants == (1, 2, 3)
    state = deal(state, {1: "7D 8D 9D", 2: "7H 8H 9H", 3: "AS KS 10S"}).state
    assert state.exposed_owner == 3 and state.is_all_in(3)
    state, _ = run(state, [(1, BET), (2, CALL)])
    assert state.phase is Phase.PLAY and state.leader == 1
    state, events = run(state, plays("1:7D", "2:7H", "3:AS", "3:KS", "1:8D", "2:8H"))
    assert chips(events) == [(1, 10, "refund"), (2, 10, "refund"), (3, 80, "payout")]
    assert state.stacks[3] == 80


def _all_in_deal(**options: Any) -> AziState:
    """The AZ-11 worked example: seat 0 = C (button), seat 1 = B, seat 2 = A with 110 chips."""
    state = new([1000, 1000, 110], **options)
    return deal(state, {1: "7S 8S 9S", 2: "AS KS 6D", 0: "10S JS 7H"}).state


def test_az11_worked_example_through_the_engine() -> None:
    """AZ-11 / example 33: A all-in for 110, B and C 310 each; A wins two tricks: A 330, B and C
    get 200 back; net A +220, B -110, C -110."""
    state = _all_in_deal()
    state, _ = run(state, [(1, {"kind": "bet", "amount": 300}), (2, CALL), (0, CALL)])
    assert state.contributions == (310, 310, 110) and state.pot == 730 and state.leader == 1
    state, events = run(state, plays("1:7S", "2:AS", "0:10S", "2:KS", "0:JS", "1:8S"))
    assert sorted(chips(events)) == [(0, 200, "refund"), (1, 200, "refund"), (2, 330, "payout")]
    assert of_type(events, "deal_end")[0]["points"] == [-110, -110, 220]
    assert state.stacks == (890, 890, 330)


@pytest.mark.parametrize(("mode", "payouts"), [
    ("returned", [(0, 400, "refund"), (1, 200, "refund"), (2, 330, "payout")]),
    ("to_pot", [(0, 400, "refund"), (2, 530, "payout")]),
])
def test_folded_excess_option_in_play(mode: str, payouts: list[tuple[int, int, str]]) -> None:
    """Ambiguity 13 / option folded_excess: B folds with 310 after A's all-in for 110 and C's
    raise to 500; A wins."""
    state = _all_in_deal(folded_excess=mode)
    state, _ = run(state, [(1, {"kind": "bet", "amount": 300}), (2, CALL), (0, raise_to(500)),
                           (1, FOLD)])
    assert state.phase is Phase.PLAY and state.leader == 0 and state.in_deal == (0, 2)
    state, events = run(state, plays("0:10S", "2:AS", "2:KS", "0:JS"))
    assert sorted(chips(events)) == payouts
    assert sum(state.stacks) == 2110


# --- the session -----------------------------------------------------------------------------

def _fold_game(state: AziState) -> AziState:
    """A game in which the opener wins by folds."""
    state = ENGINE.deal(state, list(azi_deck())).state
    opener = ENGINE.to_act(state)[0]
    return everyone_folds(act(state, opener, BET))


def everyone_folds(state: AziState) -> AziState:
    """Each seat to act folds, until the game is won by folds."""
    assert state.phase is Phase.BETTING
    match = Match(ENGINE, state)
    match.play_deal(no_deck, lambda now, seat: ENGINE.parse_action(FOLD))
    return match.state


def no_deck() -> list[Card]:
    raise AssertionError("no deal is due within a game")


def test_button_moves_to_the_winner() -> None:
    """AZ-14: the pot's winner takes the button; betting opens at his left."""
    state = _fold_game(new([1000] * 4, button=0))
    assert state.phase is Phase.GAME_OVER and ENGINE.has_auto_step(state)
    assert ENGINE.to_act(state) == () and not ENGINE.needs_deck(state)
    assert state.last_result is not None and state.last_result.winner == 1
    step = ENGINE.auto_step(state)
    assert step.events == ({"type": "button", "seat": 1},)
    state = step.state
    assert state.button == 1 and ENGINE.needs_deck(state) and not ENGINE.has_auto_step(state)
    deck = list(azi_deck())
    state = ENGINE.deal(state, deck).state
    assert state.hands[2][0] == deck[0] and state.exposed_owner == 1
    assert ENGINE.to_act(state) == (2,) and state.game_number == 2 and state.deal_number == 2


def test_short_stacks_sit_out() -> None:
    """AZ-5: a seated player whose stack is below the ante sits out of the game."""
    step = ENGINE.deal(new([1000, 5, 1000]), list(azi_deck()))
    state = step.state
    assert state.participants == (0, 2) and state.hands[1] == ()
    assert chips(step.events) == [(0, -10, "ante"), (2, -10, "ante")]
    assert of_type(step.events, "game_start")[0]["sitting_out"] == [1]
    assert ENGINE.view(state, 1)["sitting_out"] == [1]
    assert ENGINE.to_act(state) == (2,)
    refused(NotYourTurn, "action/not_participant", state, 1, BET)
    assert ENGINE.legal_actions(state, 1) == []


def test_leaving_between_games() -> None:
    """AZ-15: a player may leave between games only; he keeps his stack and sits out; if the
    winner left, the button goes to the next seated player clockwise (AZ-5)."""
    state = new([1000] * 4)
    assert ENGINE.legal_actions(state, 3) == [{"kind": "leave"}]
    state = ENGINE.deal(state, list(azi_deck())).state
    refused(IllegalAction, "action/not_between_games", state, 3, {"kind": "leave"})
    state = everyone_folds(act(state, 1, BET))
    step = act_events(state, 1, {"kind": "leave"})
    assert step.events == ({"type": "leave", "seat": 1, "stack": 1030},)
    state = step.state
    refused(NotYourTurn, "action/left_table", state, 1, {"kind": "leave"})
    assert ENGINE.legal_actions(state, 1) == []
    state = ENGINE.auto_step(state).state
    assert state.button == 2
    state = act(state, 2, {"kind": "leave"})
    assert state.button == 3 and state.phase is Phase.NEEDS_DEAL
    state = ENGINE.deal(state, list(azi_deck())).state
    assert state.participants == (0, 3) and state.stacks[1] == 1030 and state.stacks[2] == 990
    assert ENGINE.view(state, None)["left"] == [1, 2]
    assert ENGINE.outcome(state) is None


def test_leaving_can_end_the_session() -> None:
    """AZ-15: when fewer than two seated players can pay the ante, the session ends."""
    state = act(new([1000, 1000, 5]), 0, {"kind": "leave"})
    assert state.phase is Phase.MATCH_OVER and state.end_reason == "players"
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.totals == (0, 0, 0) and outcome.winners == ()


def test_session_ends_when_a_player_is_broke() -> None:
    """AZ-15: after a game with fewer than two seated players able to pay, the table stops;
    every further step is refused with GameOver."""
    state = deal(new([1000, 20]), {1: "7S 8S 9S", 0: "AS KS 10H"}).state
    assert ENGINE.legal_actions(state, 1) == [{"kind": "bet", "min": 10, "max": 10}]
    state, events = run(state, [(1, BET), (0, CALL), *plays("1:7S", "0:AS", "0:KS", "1:8S")])
    assert state.phase is Phase.MATCH_OVER and state.stacks == (1020, 0)
    assert of_type(events, "match_end") == [{"type": "match_end", "reason": "players",
                                             "winners": [0], "totals": [20, -20]}]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.totals == (20, -20)
    assert not ENGINE.needs_deck(state) and not ENGINE.has_auto_step(state)
    assert ENGINE.to_act(state) == () and ENGINE.legal_actions(state, 0) == []
    refused(GameOver, "action/game_over", state, 0, {"kind": "leave"})
    with pytest.raises(GameOver):
        ENGINE.deal(state, list(azi_deck()))
    with pytest.raises(GameOver):
        ENGINE.close(state)
    with pytest.raises(IllegalAction):
        ENGINE.auto_step(state)


def test_close_only_between_games() -> None:
    """The room owner may close the table between games only."""
    state = ENGINE.deal(new([1000] * 3), list(azi_deck())).state
    with pytest.raises(IllegalAction):
        ENGINE.close(state)
    state = act(state, 1, BET)
    state, _ = run(state, [(2, FOLD), (0, FOLD)])
    step = ENGINE.close(state)
    assert step.state.phase is Phase.MATCH_OVER and step.state.end_reason == "closed"
    assert step.events == ({"type": "match_end", "reason": "closed", "winners": [1],
                            "totals": [-10, 20, -10]},)
    assert ENGINE.close(ENGINE.auto_step(state).state).state.end_reason == "closed"


def test_no_move_awaited_while_waiting_for_a_deal() -> None:
    state = new([1000] * 3)
    refused(NotYourTurn, "action/nothing_awaited", state, 0, BET)
    refused(NotYourTurn, "action/no_such_seat", state, 3, {"kind": "leave"})


# --- the view ------------------------------------------------------------------------------

def test_view_shows_own_hand_and_public_facts_only() -> None:
    """Each seat sees its hand, the exposed trump card and the public table; a spectator sees
    no hidden card; hidden_cards lists what a seat may not know."""
    state = deal(new([1000, 1000, 1000]), {1: "9S KD 6D", 2: "7S KH 8D", 0: "AD 7D 9H"}).state
    state = act(state, 1, {"kind": "bet", "amount": 20})
    mine = ENGINE.view(state, 2)
    for key in ("phase", "to_act", "hand", "scores", "button", "participants", "folded",
                "all_in", "exposed_card", "trump", "six_on_scene", "stacks", "pot", "bets",
                "contributions", "high", "high_bidder", "bids", "trick", "tricks", "tricks_won",
                "last_trick", "last_trick_winner", "buy_in", "last_game", "dead_money"):
        assert key in mine
    assert mine["phase"] == "betting" and mine["to_act"] == [2]
    assert mine["hand"] == ["7S", "KH", "8D"]
    assert mine["exposed_card"] == "9H" and mine["exposed_seat"] == 0 and mine["trump"] == "H"
    assert mine["bets"] == [0, 20, 0] and mine["high"] == 20 and mine["high_bidder"] == 1
    assert mine["pot"] == 50 and mine["stacks"] == [990, 970, 990]
    assert mine["hand_sizes"] == [3, 3, 3]
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] == [] and spectator["seat"] is None
    assert ENGINE.hidden_cards(state, None) == frozenset(
        set(azi_deck()) - {Card.parse("9H")})
    assert ENGINE.hidden_cards(state, 0) == frozenset(
        set(azi_deck()) - set(parse_cards("AD 7D 9H")))
    for seat in (None, 0, 1, 2):
        text = str(ENGINE.view(state, seat))
        for card in ENGINE.hidden_cards(state, seat):
            assert f"'{card}'" not in text
