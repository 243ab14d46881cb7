"""The money rules a game declares through the engine contract (``Engine.chips``): the room and the
room manager read a table's ante, buy-in and close from there and name no game."""

from __future__ import annotations

import pytest

from app.games.azi import ENGINE as AZI
from app.games.base import IllegalAction, Seating, SessionEnd
from app.games.cards import azi_deck
from app.games.registry import ENGINES
from app.rooms.chip_table import ChipRules
from app.rooms.manager import MAX_BUY_IN, MIN_BUY_IN, room_option_specs


def test_only_azi_is_played_for_chips() -> None:
    assert {name for name, engine in ENGINES.items() if engine.chips is not None} == {"azi"}


def test_azi_antes_the_stake_brings_a_buy_in_and_plays_until_closed() -> None:
    rules = AZI.chips
    assert rules.ante(AZI.make_options({"stake": 25})) == 25
    assert rules.buy_in and rules.session_end is SessionEnd.CLOSE


def test_azi_closes_between_games_and_an_operator_also_during_one() -> None:
    state = AZI.deal(AZI.start(AZI.make_options({}), Seating(3, 0, (1000,) * 3)), list(azi_deck())).state
    with pytest.raises(IllegalAction):
        AZI.chips.close(state, False)
    closed = AZI.chips.close(state, True)
    assert AZI.outcome(closed.state) is not None
    assert closed == AZI.close(state, during_game=True)


def test_a_table_reads_its_chip_rules_from_the_game() -> None:
    options = AZI.make_options({"stake": 10})
    assert ChipRules.of(AZI.chips, options, (20, 100)) == ChipRules(True, 10, 200, 1000)
    for name, engine in ENGINES.items():
        has_buy_in = engine.chips is not None and engine.chips.buy_in
        assert (MIN_BUY_IN in room_option_specs(name)) is has_buy_in
        assert (MAX_BUY_IN in room_option_specs(name)) is has_buy_in
        if engine.chips is None:
            assert ChipRules.of(engine.chips, engine.make_options({}), (20, 100)) == ChipRules()
