"""While the bots' copy of the Azi trick rules (``app.bots.azi_sim``) remains: the same random deals
played through the engine and through the copy agree card by card (legal cards, trick winners,
the end of the deal), with every player choosing by the rollout policy."""

from __future__ import annotations

import random

import pytest

from app.bots import azi_sim
from app.games.azi import ENGINE, AziAction, AziState, Phase
from app.games.azi import tricks as engine_tricks
from app.games.base import Seating
from app.games.driver import Match


def _to_play(seats: int, rng: random.Random, hand_size: int) -> Match[AziState, AziAction]:
    """A deal in its play phase: the opener bets the minimum and everyone calls."""
    match = Match.start(ENGINE, {"hand_size": hand_size},
                        Seating(seats, rng.randrange(seats), (1000,) * seats))
    deck = list(ENGINE.full_deck())
    rng.shuffle(deck)
    match.deal(deck)
    while match.state.phase is Phase.DISCARD:
        seat = ENGINE.to_act(match.state)[0]
        match.act(seat, ENGINE.parse_action({"kind": "discard", "card": str(match.state.hands[seat][0])}))
    while match.state.phase is Phase.BETTING:
        seat = ENGINE.to_act(match.state)[0]
        legal = ENGINE.legal_actions(match.state, seat)
        kind = "bet" if legal[0]["kind"] == "bet" else "call"
        raw = {"kind": "bet", "amount": legal[0]["min"]} if kind == "bet" else {"kind": "call"}
        match.act(seat, ENGINE.parse_action(raw))
    return match


@pytest.mark.parametrize("hand_size", [3, 4])
def test_the_engine_and_the_copy_play_the_same_deals_alike(hand_size: int) -> None:
    rng = random.Random(hand_size)
    for _ in range(400):
        seats = rng.randrange(2, 7)
        match = _to_play(seats, rng, hand_size)
        state = match.state
        assert state.exposed is not None and state.leader is not None
        trump = azi_sim.SUIT_INDEX[state.exposed.suit]
        table = azi_sim.TABLES[(trump, state.six_on_scene)]
        assert table == engine_tricks.STRENGTHS[(trump, state.six_on_scene)]
        order = list(state.clockwise_after((state.leader - 1) % seats, state.in_deal))
        hands = [[azi_sim.INDEX[card] for card in state.hands[seat]] for seat in order]
        won = [0] * len(order)
        copy_result = azi_sim.play_out([h[:] for h in hands], [], 0, won, table, trump)
        tricks_seen = 0
        while match.state.phase is Phase.PLAY:
            state = match.state
            seat = ENGINE.to_act(state)[0]
            hand = [azi_sim.INDEX[card] for card in state.hands[seat]]
            trick = [(order.index(s), azi_sim.INDEX[card]) for s, card in state.trick]
            led = azi_sim.SUIT_OF[trick[0][1]] if trick else None
            legal = {entry["card"] for entry in ENGINE.legal_actions(state, seat)}
            assert legal == {str(azi_sim.DECK[card]) for card in azi_sim.playable(hand, led, trump)}
            card = azi_sim.policy(hand, trick, table, trump, len(trick) == len(order) - 1)
            match.act(seat, ENGINE.parse_action({"kind": "play", "card": str(azi_sim.DECK[card])}))
            if len(match.state.tricks) > tricks_seen:
                tricks_seen = len(match.state.tricks)
                winner, cards = match.state.tricks[-1]
                copy_trick = [(order.index(s), azi_sim.INDEX[c]) for s, c in cards]
                row = table[azi_sim.SUIT_OF[copy_trick[0][1]]]
                assert order[max(copy_trick, key=lambda played: row[played[1]])[0]] == winner
        engine_tricks_won = [match.state.tricks_won[seat] for seat in order]
        assert engine_tricks_won == won
        if copy_result == -1:
            assert match.state.last_result is None
            assert match.state.phase in (Phase.AZI_BUY_IN, Phase.NEEDS_DEAL)
        else:
            assert match.state.last_result is not None
            assert match.state.last_result.winner == order[copy_result]
