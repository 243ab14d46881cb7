"""The Hazari engine through the shared interface: dealing (HZ-3), up (HZ-4), rounds (HZ-6, HZ-7),
scoring (HZ-8), the end of the match (HZ-9), options, rejections, views, seeded whole matches."""

from __future__ import annotations

import random
from collections.abc import Mapping
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
    Seating,
)
from app.games.cards import Card, parse_cards, standard_deck
from app.games.driver import Match, MatchOver
from app.games.hazari import ENGINE, HazariState, Phase, Up
from app.games.hazari.combos import card_points

# S-HZ-4's worked example as a whole deal (dealer 0): AKQ hearts (seat 1, first), 8-7-6 spades,
# AKQ diamonds (seat 3, third), 5-5-J (seat 0, fourth).
TIE_DEAL = {
    0: "5S 5H JC | 4C 4D 9H | 3C 3D 10H | 2C 2D 6H 8C",
    1: "AH KH QH | JS 10S 9S | 4S 3S 2S | 7H 3H 2H QC",
    2: "6S 7S 8S | 10C 9C 7C | AC JH 9D | KC 8H 5D 4H",
    3: "AD KD QD | AS KS QS | 8D 7D 6D | JD 10D 6C 5C",
}
TROYS = "AS AH AD | KS KH KD | QS QH QD | JS JH JD JC"


def groups_of(text: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(parse_cards(part) for part in text.split("|"))


def deck_for(hands: Mapping[int, str], dealer: int) -> list[Card]:
    """A deck that deals ``hands`` (HZ-3); seats not given get the other cards in pack order."""
    fixed = {seat: list(parse_cards(text)) for seat, text in hands.items()}
    used = {card for cards in fixed.values() for card in cards}
    spare = [card for card in standard_deck() if card not in used]
    for seat in range(4):
        if seat not in fixed:
            fixed[seat], spare = spare[:13], spare[13:]
    first = (dealer + 1) % 4
    return [fixed[(first + i) % 4][i // 4] for i in range(52)]


def new_match(dealer: int = 0, **options: Any) -> HazariState:
    return ENGINE.start(options, Seating(players=4, first_dealer=dealer))


def up_json(text: str) -> JSON:
    return {"kind": "up", "groups": [part.split() for part in text.split("|")]}


def arrange_all(state: HazariState, given: Mapping[int, str], rng: random.Random
                ) -> HazariState:
    """Everyone calls up: the given arrangements, and random ones for the other seats."""
    for seat in range(4):
        if seat in given:
            action = ENGINE.parse_action(up_json(given[seat]))
        else:
            action = ENGINE.random_action(state, seat, rng)
        state = ENGINE.apply(state, seat, action).state
    return state


def show_all(state: HazariState) -> tuple[HazariState, list[JSON]]:
    match = Match(ENGINE, state)
    events = match.play_forced()
    return match.state, events


def play_deal(state: HazariState, given: Mapping[int, str], seed: int = 0
              ) -> tuple[HazariState, list[JSON]]:
    state = ENGINE.deal(state, deck_for({s: t.replace("|", " ") for s, t in given.items()},
                                        state.dealer)).state
    return show_all(arrange_all(state, given, random.Random(seed)))


def rounds_of(events: list[JSON]) -> list[JSON]:
    return [event for event in events if event["type"] == "round"]


def deal_end(events: list[JSON]) -> JSON:
    return next(event for event in events if event["type"] == "deal_end")


# -- dealing (HZ-3) ------------------------------------------------------------------------------


def test_example_54_first_card_to_dealer_right_last_to_dealer_hz3() -> None:
    deck = standard_deck()
    state = ENGINE.deal(new_match(dealer=0), deck).state
    assert state.hands[1][0] == deck[0]
    assert state.hands[0][-1] == deck[51]
    assert [len(hand) for hand in state.hands] == [13] * 4
    assert state.hands[2] == tuple(deck[1::4])
    later = ENGINE.deal(new_match(dealer=2), deck).state
    assert later.hands[3][0] == deck[0] and later.hands[2][-1] == deck[51]


def test_example_55_round_one_exposure_order_hz6() -> None:
    _, events = play_deal(new_match(dealer=0), TIE_DEAL)
    first = rounds_of(events)[0]
    assert first["leader"] == 1
    assert [play["seat"] for play in first["plays"]] == [1, 2, 3, 0]


def test_next_dealer_is_dealer_right_and_leads_from_his_right_hz3_hz6() -> None:
    state, _ = play_deal(new_match(dealer=3), {1: TROYS})
    assert state.phase is Phase.DEALING and state.dealer == 0
    state, events = play_deal(state, {1: TROYS})
    assert rounds_of(events)[0]["leader"] == 1
    assert deal_end(events)["number"] == 2 and deal_end(events)["detail"]["dealer"] == 0


# -- rounds and ties (HZ-6, HZ-7) ----------------------------------------------------------------


def test_later_equal_group_wins_the_round_s_hz4_example_hz7() -> None:
    state, events = play_deal(new_match(dealer=0), TIE_DEAL)
    rounds = rounds_of(events)
    first = rounds[0]
    assert [play["combination"] for play in first["plays"]] == ["Colour Run", "Colour Run",
                                                                 "Colour Run", "Pair"]
    assert first["winner"] == 3
    assert [rnd["leader"] for rnd in rounds] == [1, 3, 3, 3]
    assert [rnd["winner"] for rnd in rounds] == [3, 3, 3, 1]
    # Round 4: G4 best triples J-10-6 indi, 2-2-8 pair, 7-3-2 colour, K-8-5 indi: the colour wins.
    assert rounds[3]["plays"][2]["key"] == [3, 7, 3, 2]
    assert rounds[3]["plays"][2]["best"] == ["7H", "3H", "2H"]
    assert "best" not in rounds[0]["plays"][0]
    assert deal_end(events)["points"] == [0, 100, 0, 260]
    assert state.scores == (0, 100, 0, 260)


def test_first_equal_group_wins_with_tie_rule_first_wins_hz7_option() -> None:
    _, events = play_deal(new_match(dealer=0, tie_rule="first_wins"), TIE_DEAL)
    rounds = rounds_of(events)
    assert [rnd["winner"] for rnd in rounds] == [1, 3, 3, 1]
    assert [rnd["leader"] for rnd in rounds] == [1, 1, 3, 3]
    assert deal_end(events)["points"] == [0, 195, 0, 165]


def test_groups_are_shown_in_order_g1_to_g4_hz6() -> None:
    _, events = play_deal(new_match(dealer=0), TIE_DEAL)
    for number, rnd in enumerate(rounds_of(events)):
        for play in rnd["plays"]:
            expected = TIE_DEAL[play["seat"]].split("|")[number].split()
            assert play["cards"] == expected


# -- scoring (HZ-8) ------------------------------------------------------------------------------


def test_round_points_and_deal_points_sum_to_360_hz8() -> None:
    state, events = play_deal(new_match(dealer=0), TIE_DEAL)
    rounds = rounds_of(events)
    assert sum(rnd["points"] for rnd in rounds) == 360
    for rnd in rounds:
        cards = [card for play in rnd["plays"] for card in parse_cards(play["cards"])]
        assert rnd["points"] == sum(map(card_points, cards))
        assert len(cards) == (16 if rnd["number"] == 4 else 12)
    assert sum(deal_end(events)["points"]) == 360
    assert sorted(card for pile in state.piles for card in pile) == sorted(standard_deck())


def test_all_four_rounds_to_one_player_hz8() -> None:
    state, events = play_deal(new_match(dealer=0), {1: TROYS})
    assert [rnd["winner"] for rnd in rounds_of(events)] == [1, 1, 1, 1]
    assert state.scores == (0, 360, 0, 0)


# -- end of the match (HZ-9) ---------------------------------------------------------------------


def test_match_ends_only_after_the_deal_reaching_target_hz9() -> None:
    state = new_match(dealer=0)
    for deal in (1, 2):
        state, events = play_deal(state, {1: TROYS}, seed=deal)
        assert ENGINE.outcome(state) is None and state.phase is Phase.DEALING
    state = ENGINE.deal(state, deck_for({1: TROYS.replace("|", " ")}, state.dealer)).state
    state = arrange_all(state, {1: TROYS}, random.Random(3))
    for _ in range(3):
        state = ENGINE.auto_step(state).state
        assert state.phase is Phase.SHOWING and ENGINE.outcome(state) is None
    step = ENGINE.auto_step(state)
    outcome = ENGINE.outcome(step.state)
    assert outcome is not None and outcome.winners == (1,) and outcome.totals == (0, 1080, 0, 0)
    assert step.events[-1] == {"type": "match_end", "winners": [1], "scores": [0, 1080, 0, 0]}
    assert step.state.phase is Phase.FINISHED and not ENGINE.needs_deck(step.state)


def test_target_reached_exactly_ends_the_match_hz9_option_target() -> None:
    state, _ = play_deal(new_match(dealer=0, target=360), {1: TROYS})
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (1,)


def test_highest_total_wins_when_several_pass_target_hz9() -> None:
    state = replace(new_match(dealer=0), scores=(0, 920, 0, 750))
    state, _ = play_deal(state, TIE_DEAL)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.totals == (0, 1020, 0, 1010) and outcome.winners == (1,)


def test_shared_top_score_gives_joint_winners_hz9_decision() -> None:
    state = replace(new_match(dealer=0), scores=(0, 900, 0, 740))
    state, events = play_deal(state, TIE_DEAL)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners == (1, 3) and outcome.totals == (0, 1000, 0, 1000)
    assert events[-1]["type"] == "match_end" and events[-1]["winners"] == [1, 3]


def test_shared_top_score_plays_on_with_match_tie_play_on_hz9_option() -> None:
    state = replace(new_match(dealer=0, match_tie="play_on"), scores=(0, 900, 0, 740))
    state, events = play_deal(state, TIE_DEAL)
    assert ENGINE.outcome(state) is None and ENGINE.needs_deck(state)
    assert state.scores == (0, 1000, 0, 1000) and state.dealer == 1
    assert all(event["type"] != "match_end" for event in events)
    state, _ = play_deal(state, {1: TROYS})
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.totals == (0, 1360, 0, 1000)


# -- options (section 1.5) -----------------------------------------------------------------------


def test_option_specs_and_defaults() -> None:
    assert [spec.name for spec in ENGINE.option_specs] == ["target", "tie_rule", "match_tie"]
    assert ENGINE.make_options({}) == {"target": 1000, "tie_rule": "later_wins",
                                       "match_tie": "joint_winners"}
    assert ENGINE.make_options({"target": 500, "tie_rule": "first_wins", "match_tie": "play_on"}
                               )["target"] == 500
    specs = {spec.name: spec.to_json() for spec in ENGINE.option_specs}
    assert specs["tie_rule"]["allowed"] == {"choices": ["later_wins", "first_wins"]}
    assert specs["target"]["allowed"] == {"minimum": 5, "maximum": 10_000, "multiple_of": 5}


@pytest.mark.parametrize("raw", [
    {"target": 0}, {"target": -5}, {"target": 1001}, {"target": "1000"}, {"target": True},
    {"target": 1000.0}, {"target": 10_005}, {"target": 2**64}, {"tie_rule": "random"},
    {"match_tie": "coin"}, {"decks": []},
])
def test_bad_options_are_refused(raw: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        ENGINE.make_options(raw)


def test_seating_must_be_four_players_hz1() -> None:
    with pytest.raises(InvalidOptions):
        ENGINE.start({}, Seating(players=3, first_dealer=0))
    with pytest.raises(InvalidOptions):
        ENGINE.start({}, Seating(players=4, first_dealer=4))
    assert (ENGINE.min_seats, ENGINE.max_seats, ENGINE.name) == (4, 4, "hazari")


# -- parsing and rejections ----------------------------------------------------------------------

GOOD = "AS AH AD | KS QS JS | 9H 9D 2C | 3S 5H 7C 10D"


def test_action_json_round_trip_and_text() -> None:
    raw = up_json(GOOD)
    action = ENGINE.parse_action(raw)
    assert ENGINE.action_to_json(action) == raw
    assert str(action) == "up [AS AH AD | KS QS JS | 9H 9D 2C | 3S 5H 7C 10D]"


@pytest.mark.parametrize(("raw", "code"), [
    ("up", "action/not_an_object"),
    (["up"], "action/not_an_object"),
    ({"kind": "play", "groups": []}, "action/unknown_kind"),
    ({"groups": up_json(GOOD)["groups"]}, "action/unknown_kind"),
    ({"kind": "up"}, "action/bad_fields"),
    ({**up_json(GOOD), "seat": 1}, "action/bad_fields"),
    ({"kind": "up", "groups": "AS AH AD"}, "action/bad_groups"),
    ({"kind": "up", "groups": up_json(GOOD)["groups"][:3]}, "action/bad_groups"),
    ({"kind": "up", "groups": ["AS AH AD", ["KS"], ["QS"], ["JS"]]}, "action/bad_groups"),
    ({"kind": "up", "groups": [["AS", "AH", True], ["KS", "QS", "JS"], ["9H", "9D", "2C"],
                               ["3S", "5H", "7C", "10D"]]}, "action/bad_card"),
    ({"kind": "up", "groups": [["AS", "AH", 14], ["KS", "QS", "JS"], ["9H", "9D", "2C"],
                               ["3S", "5H", "7C", "10D"]]}, "action/bad_card"),
    ({"kind": "up", "groups": [["AS", "AH", "1X"], ["KS", "QS", "JS"], ["9H", "9D", "2C"],
                               ["3S", "5H", "7C", "10D"]]}, "action/bad_card"),
    ({"kind": "up", "groups": [["AS", "AH", "JK"], ["KS", "QS", "JS"], ["9H", "9D", "2C"],
                               ["3S", "5H", "7C", "10D"]]}, "action/bad_card"),
    (up_json("3S 5H 7C 10D | AS AH AD | KS QS JS | 9H 9D 2C"), "action/group_sizes"),
    (up_json("AS AH AD | KS QS JS | 9H 9D 2C | 3S 5H 7C AS"), "action/duplicate_card"),
])
def test_malformed_actions_are_invalid_example_49(raw: Any, code: str) -> None:
    with pytest.raises(InvalidAction) as caught:
        ENGINE.parse_action(raw)
    assert caught.value.code == code


def arranging_state() -> HazariState:
    return ENGINE.deal(new_match(dealer=3), deck_for({2: GOOD.replace("|", " ")}, 3)).state


def test_card_not_in_hand_is_illegal_example_49() -> None:
    state = arranging_state()
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, 2, ENGINE.parse_action(up_json(GOOD.replace("10D", "10C"))))
    assert caught.value.code == "action/card_not_in_hand"
    assert ENGINE.to_act(state) == (0, 1, 2, 3)


def test_wrong_order_is_illegal_example_43() -> None:
    state = arranging_state()
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, 2, ENGINE.parse_action(up_json(
            "KS QS JS | AS AH AD | 9H 9D 2C | 3S 5H 7C 10D")))
    assert caught.value.code == "action/bad_order"
    assert "G2 (Troy: AS AH AD) outranks G1 (Colour Run: KS QS JS)" in caught.value.message


def test_unparsed_action_with_wrong_shape_is_still_refused_example_49() -> None:
    state = arranging_state()
    with pytest.raises(InvalidAction):
        ENGINE.apply(state, 2, Up(groups_of("AS AH AD | KS QS")))


def test_second_up_is_illegal_and_other_seats_still_act_hz4() -> None:
    state = ENGINE.apply(arranging_state(), 2, ENGINE.parse_action(up_json(GOOD))).state
    assert ENGINE.to_act(state) == (0, 1, 3)
    assert ENGINE.legal_actions(state, 2) == [] and ENGINE.legal_actions(state, 0) == [{"kind": "up"}]
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, 2, ENGINE.parse_action(up_json(GOOD)))
    assert caught.value.code == "action/already_up"
    with pytest.raises(IllegalAction):
        ENGINE.random_action(state, 2, random.Random(0))


def test_nobody_acts_before_the_deal_or_while_showing() -> None:
    fresh = new_match()
    assert ENGINE.to_act(fresh) == () and ENGINE.needs_deck(fresh)
    with pytest.raises(NotYourTurn):
        ENGINE.apply(fresh, 0, ENGINE.parse_action(up_json(GOOD)))
    showing = arrange_all(arranging_state(), {2: GOOD}, random.Random(1))
    assert showing.phase is Phase.SHOWING and ENGINE.to_act(showing) == ()
    with pytest.raises(NotYourTurn):
        ENGINE.apply(showing, 2, ENGINE.parse_action(up_json(GOOD)))
    with pytest.raises(NotYourTurn):
        ENGINE.apply(arranging_state(), 4, ENGINE.parse_action(up_json(GOOD)))
    with pytest.raises(IllegalAction):
        ENGINE.deal(showing, standard_deck())
    with pytest.raises(IllegalAction):
        ENGINE.auto_step(arranging_state())


def test_bad_deck_is_refused() -> None:
    deck = list(standard_deck())
    with pytest.raises(InvalidAction):
        ENGINE.deal(new_match(), deck[:51])
    with pytest.raises(InvalidAction):
        ENGINE.deal(new_match(), deck[:51] + deck[:1])


def test_finished_match_refuses_everything() -> None:
    state, _ = play_deal(new_match(dealer=0, target=5), {1: TROYS})
    assert state.phase is Phase.FINISHED
    with pytest.raises(GameOver):
        ENGINE.apply(state, 0, ENGINE.parse_action(up_json(GOOD)))
    with pytest.raises(GameOver):
        ENGINE.deal(state, standard_deck())
    with pytest.raises(GameOver):
        ENGINE.auto_step(state)
    with pytest.raises(GameOver):
        ENGINE.random_action(state, 0, random.Random(0))
    assert [ENGINE.legal_actions(state, seat) for seat in range(4)] == [[]] * 4


# -- views ---------------------------------------------------------------------------------------


def card_strings(value: object) -> set[str]:
    found: set[str] = set()
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= card_strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= card_strings(item)
    return found


def assert_no_leak(state: HazariState) -> None:
    for seat in (None, 0, 1, 2, 3):
        hidden = {str(card) for card in ENGINE.hidden_cards(state, seat)}
        leaked = card_strings(ENGINE.view(state, seat)) & hidden
        assert not leaked, (seat, leaked)


def test_views_while_arranging_show_only_own_cards() -> None:
    state = ENGINE.apply(arranging_state(), 2, ENGINE.parse_action(up_json(GOOD))).state
    mine = ENGINE.view(state, 2)
    assert sorted(mine["hand"]) == sorted(GOOD.replace("|", " ").split())
    assert mine["arrangement"] == up_json(GOOD)["groups"]
    assert mine["up"] == [False, False, True, False] and mine["to_act"] == [0, 1, 3]
    other = ENGINE.view(state, 0)
    assert other["arrangement"] is None and not set(other["hand"]) & set(mine["hand"])
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] == [] and "arrangement" not in spectator
    assert len(ENGINE.hidden_cards(state, None)) == 52
    assert len(ENGINE.hidden_cards(state, 2)) == 39
    assert_no_leak(state)


def test_views_while_showing_reveal_rounds_one_by_one() -> None:
    state = arrange_all(ENGINE.deal(new_match(dealer=0), deck_for(
        {s: t.replace("|", " ") for s, t in TIE_DEAL.items()}, 0)).state, TIE_DEAL,
        random.Random(0))
    state = ENGINE.auto_step(state).state
    view = ENGINE.view(state, None)
    assert view["phase"] == "showing" and view["next_leader"] == 3
    assert view["rounds"][0]["plays"][2]["cards"] == ["AD", "KD", "QD"]
    assert view["deal_points"] == [0, 0, 0, 95] and view["hand_sizes"] == [10, 10, 10, 10]
    assert len(ENGINE.hidden_cards(state, None)) == 40
    assert ENGINE.view(state, 1)["hand"] == TIE_DEAL[1].replace("|", " ").split()[3:]
    assert_no_leak(state)
    state, _ = show_all(state)
    view = ENGINE.view(state, 0)
    assert view["phase"] == "dealing" and view["last_deal_points"] == [0, 100, 0, 260]
    assert view["hand"] == [] and ENGINE.hidden_cards(state, None) == frozenset()


# -- whole seeded matches ------------------------------------------------------------------------


def run_match(seed: int, options: Mapping[str, Any]) -> tuple[HazariState, list[Any], list[JSON]]:
    """A random match; returns the final state, the log (decks and actions) and the events."""
    rng = random.Random(seed)
    match = Match.start(ENGINE, options, Seating(players=4, first_dealer=rng.randrange(4)))
    log: list[Any] = []
    events: list[JSON] = []

    def deck() -> list[Card]:
        cards = list(ENGINE.full_deck())
        rng.shuffle(cards)
        log.append(("deck", tuple(cards)))
        return cards

    def choose(state: HazariState, seat: int) -> Up:
        assert ENGINE.legal_actions(state, seat) == [{"kind": "up"}]
        raw = ENGINE.action_to_json(ENGINE.random_action(state, seat, rng))
        log.append(("act", seat, raw))
        return ENGINE.parse_action(raw)

    while not isinstance(due := match.next(), MatchOver):
        events += match.perform(due, deck, choose, pick=rng.choice)
        check_invariants(match.state)
    return match.state, log, events


def check_invariants(state: HazariState) -> None:
    if state.deal_number:
        assert sorted(card for hand in state.hands for card in hand) == sorted(standard_deck())
        exposed = state.exposed()
        assert sorted(card for pile in state.piles for card in pile) == sorted(exposed)
    assert sum(state.scores) == 360 * len(state.history)
    if state.phase is Phase.ARRANGING:
        for seat in range(4):
            assert bool(ENGINE.legal_actions(state, seat)) == (seat in ENGINE.to_act(state))
    assert_no_leak(state)


def replay(seed: int, options: Mapping[str, Any], log: list[Any]) -> HazariState:
    """The match of ``log``, its forced steps performed as they fall due."""
    match = Match.start(ENGINE, options, Seating(players=4, first_dealer=random.Random(seed).randrange(4)))
    for entry in log:
        match.play_forced()
        if entry[0] == "deck":
            match.deal(entry[1])
        else:
            match.act(entry[1], ENGINE.parse_action(entry[2]))
    match.play_forced()
    return match.state


OPTION_MIXES: list[dict[str, Any]] = [
    {}, {"tie_rule": "first_wins"}, {"match_tie": "play_on"},
    {"target": 500, "tie_rule": "first_wins", "match_tie": "play_on"}, {"target": 1500},
]


@pytest.mark.parametrize(("seed", "options"),
                         [(seed, OPTION_MIXES[seed % len(OPTION_MIXES)]) for seed in range(40)])
def test_seeded_random_match_to_target_and_replay(seed: int, options: dict[str, Any]) -> None:
    state, log, events = run_match(seed, options)
    target = ENGINE.make_options(options)["target"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and max(outcome.totals) >= target
    assert set(outcome.winners) == {s for s in range(4) if state.scores[s] == max(state.scores)}
    ends = [event for event in events if event["type"] == "deal_end"]
    assert [event["number"] for event in ends] == list(range(1, len(ends) + 1))
    assert all(sum(event["points"]) == 360 for event in ends)
    assert all(max(event["detail"]["scores"]) < target for event in ends[:-1]) or \
        options.get("match_tie") == "play_on"
    assert sum(1 for event in events if event["type"] == "round") == 4 * len(ends)
    assert replay(seed, options, log) == state
