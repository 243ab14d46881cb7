"""The words every game's view shares: whatever the game, a seat's view names the deal, the cards
each seat holds, the scores and, in the trick-taking games, the trick in play and the last one, in
the same way, so that the client and the bots read them alike."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.base import Seating
from app.games.driver import Match, MatchOver, SeatsToAct, random_choices, shuffled_decks
from app.games.registry import ENGINES

TRICK_GAMES = {"azi", "hasenpfeffer"}


def check_shared_words(game: str, view: dict[str, Any], seats: int) -> None:
    assert isinstance(view["deal_number"], int) and view["deal_number"] >= 0, view
    sizes = view["hand_sizes"]
    assert isinstance(sizes, list) and len(sizes) == seats
    assert all(isinstance(n, int) and n >= 0 for n in sizes), sizes
    assert isinstance(view["scores"], list) and all(isinstance(n, int) for n in view["scores"])
    if game in TRICK_GAMES:
        for trick in (view["trick"], view["last_trick"] or []):
            assert all(set(play) == {"seat", "card"} for play in trick), trick
        assert view["last_trick_winner"] is None or 0 <= view["last_trick_winner"] < seats


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_view_uses_the_shared_words(game: str) -> None:
    engine = ENGINES[game]
    rng = random.Random(f"shared-words:{game}")
    seats = 4
    match = Match.start(engine, engine.make_options({}), Seating(seats, 0, (1000,) * seats))
    decks, choose = shuffled_decks(engine, rng), random_choices(engine, rng)
    for _ in range(400):
        for seat in (*range(seats), None):
            check_shared_words(game, engine.view(match.state, seat), seats)
        due = match.next()
        if isinstance(due, MatchOver):
            break
        if isinstance(due, SeatsToAct):
            mine = engine.view(match.state, due.seats[0])
            assert mine["hand_sizes"][due.seats[0]] == len(mine["hand"]), mine
        match.perform(due, decks, choose)
