"""The bots' play-outs on the engine's rules agree with the old copy of the rules in
``app.bots.hasenpfeffer_sim`` on the same random deals: legal cards, trick winners, points and
whole play-outs (kept while that copy exists)."""

from __future__ import annotations

import random

import pytest

from app.bots import hasenpfeffer_rollout as rollout
from app.bots import hasenpfeffer_sim as sim
from app.games.base import Seating
from app.games.driver import Match, random_choices, shuffled_decks
from app.games.hasenpfeffer import ENGINE, Phase
from app.games.hasenpfeffer.actions import bid_level
from app.games.hasenpfeffer.state import PLAY
from app.games.hasenpfeffer.trumps import INDEX


@pytest.mark.parametrize("seed", range(4))
def test_random_deals_agree_on_both_paths(seed: int) -> None:
    rng = random.Random(seed)
    decks, choose = shuffled_decks(ENGINE, rng), random_choices(ENGINE, rng)
    for bidding in ("standard", "pepper") * 50:
        match = Match.start(ENGINE, {"bidding": bidding}, Seating(4, rng.randrange(4)))
        match.deal(decks())
        while match.state.phase in (Phase.BIDDING, Phase.TRUMP, Phase.DISCARD):
            match.step(decks, choose)
        if match.state.phase is not PLAY:
            continue
        state = match.state
        assert state.trump is not None and state.bidder is not None
        old, new = sim.TRUMPS["SHDC".index(state.trump)], rollout.TRUMPS["SHDC".index(state.trump)]
        hands = [[INDEX[card] for card in hand] for hand in state.hands]
        bidders = state.bidder % 2
        assert (sim.play_out([h[:] for h in hands], [], state.leader, [0, 0], 0, old, bidders)
                == rollout.play_out([h[:] for h in hands], [], state.leader, [0, 0], 0, new,
                                    bidders))
        while state.phase is PLAY:
            seat = ENGINE.to_act(state)[0]
            trick = [INDEX[card] for card in state.trick]
            legal = {entry["card"] for entry in ENGINE.legal_actions(state, seat)}
            ints = sim.legal_cards([INDEX[card] for card in state.hands[seat]], trick, old)
            assert {str(sim.DECK[card]) for card in ints} == legal
            transition = ENGINE.apply(state, seat, ENGINE.random_action(state, seat, rng))
            for event in transition.events:
                if event["type"] == "trick":
                    cards = [INDEX[card] for card in transition.state.completed[-1].cards]
                    row = old.strength[old.eff[cards[0]]]
                    best = max(range(4), key=lambda i: row[cards[i]])
                    assert (event["leader"] + best) % 4 == event["winner"]
                if event["type"] == "deal_end":
                    assert state.contract is not None
                    # as the bots read a contract before: its tricks, Big Pepper doubled
                    copied = sim.Contract(bidders, min(bid_level(state.contract), 6),
                                          2 if state.contract == "big_pepper" else 1)
                    tricks = event["detail"]["tricks"]
                    assert list(copied.points(tricks)) == event["points"]
                    assert (rollout.Contract(state.contract, bidders).points(tricks)
                            == copied.points(tricks))
            state = transition.state

