"""Bots only ever send legal actions, and they see exactly their seat's view.

Seeded deals of every game at every level (and mixed tables): each action a bot chooses must be
one that ``legal`` allows, must parse, and ``apply`` must accept it. The bot gets the view and
the legal list after a JSON round trip, so it can hold nothing but plain data.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from support.bots import every_engine

from app.bots.random_bot import resolve
from app.bots.registry import ALL_LEVELS, make_bot
from app.games.base import JSON, Engine, Seating
from app.games.cards import Card
from app.games.driver import DealNeeded, Match, MatchOver, SeatsToAct, choices_from_views, shuffled_decks
from app.games.hazari.arrangements import is_valid

ENGINES = every_engine()
DEALS = {"hazari": 60, "azi": 300, "hasenpfeffer": 150}
# Bots that search by sampling take a good part of a second per deal: fewer deals for them.
SLOW = {("azi", "strong"): 16, ("hasenpfeffer", "strong"): 8}
SEATS = {"azi": (2, 3, 4, 6)}


def allowed(action: JSON, legal: list[JSON], view: JSON) -> bool:
    """Whether ``action`` is one of the actions that ``legal`` lists (ranges by their bounds)."""
    for entry in legal:
        if entry["kind"] != action["kind"]:
            continue
        if "min" in entry:
            amount = action.get("to", action.get("amount"))
            if type(amount) is int and entry["min"] <= amount <= entry["max"] and len(action) == 2:
                return True
        elif entry["kind"] == "up":
            groups = [tuple(Card.parse(card) for card in group) for group in action["groups"]]
            return is_valid([Card.parse(card) for card in view["hand"]], groups)
        elif entry["kind"] == "call" or action == entry:
            return True
    return False


def play(engine: Engine[Any, Any], levels: list[str], deals: int, seed: int) -> int:
    """Play ``deals`` deals with bots of ``levels``; returns how many decisions were checked."""
    rng = random.Random(seed)
    bots = [make_bot(engine.name, level) for level in levels]
    players = len(levels)

    def decide(seat: int, view: JSON, legal: list[JSON]) -> JSON:
        view, legal = json.loads(json.dumps(view)), json.loads(json.dumps(legal))
        action: JSON = bots[seat].choose(view, legal, rng)
        assert allowed(action, legal, view), f"{levels[seat]} sent {action}, legal: {legal}"
        return action

    decks, choose = shuffled_decks(engine, rng), choices_from_views(engine, decide)
    match = Match.start(engine, {}, Seating(players, 0, (300,) * players))
    decisions = dealt = 0
    while dealt < deals:
        due = match.next()
        if isinstance(due, MatchOver):
            match = Match.start(engine, {}, Seating(players, rng.randrange(players), (300,) * players))
            continue
        dealt += isinstance(due, DealNeeded)
        decisions += isinstance(due, SeatsToAct)
        match.perform(due, decks, choose)
    return decisions


@pytest.mark.parametrize("level", ALL_LEVELS)
@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_level_sends_only_legal_actions(game: str, level: str) -> None:
    engine = ENGINES[game]
    deals = SLOW.get((game, level), DEALS[game] // 2)
    for seed, players in enumerate(SEATS.get(game, (engine.min_seats,))):
        assert play(engine, [level] * players, deals, seed) > 0


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_mixed_tables_send_only_legal_actions(game: str) -> None:
    engine = ENGINES[game]
    players = max(engine.min_seats, 4)
    levels = [ALL_LEVELS[seat % len(ALL_LEVELS)] for seat in range(players)]
    assert play(engine, levels, SLOW.get((game, "strong"), DEALS[game]) * 2, seed=99) > 0


def test_a_range_is_resolved_into_the_action_field() -> None:
    rng = random.Random(5)
    raises = {resolve({"kind": "raise", "min": 50, "max": 53}, {}, rng)["to"] for _ in range(200)}
    assert raises == {50, 51, 52, 53}
    assert resolve({"kind": "bet", "min": 10, "max": 10}, {}, rng) == {"kind": "bet", "amount": 10}
    assert resolve({"kind": "call", "amount": 40, "all_in": True}, {}, rng) == {"kind": "call"}
    assert resolve({"kind": "play", "card": "AS"}, {}, rng) == {"kind": "play", "card": "AS"}
    with pytest.raises(ValueError, match="no action form"):
        resolve({"kind": "stake", "min": 1, "max": 2}, {}, rng)


def test_random_bot_picks_the_entry_uniformly_then_the_amount() -> None:
    """Two entries, one a range of 100 amounts: each entry is chosen about half the time."""
    bot = make_bot("azi", "random")
    rng = random.Random(8)
    legal: list[JSON] = [{"kind": "fold"}, {"kind": "raise", "min": 1, "max": 100}]
    folds = sum(bot.choose({}, legal, rng)["kind"] == "fold" for _ in range(4000))
    assert 1800 < folds < 2200


def test_a_bot_without_a_legal_action_refuses() -> None:
    with pytest.raises(ValueError):
        make_bot("hazari", "random").choose({"hand": []}, [], random.Random(1))
    with pytest.raises(ValueError):
        make_bot("hazari", "strong").choose({"hand": []}, [], random.Random(1))
