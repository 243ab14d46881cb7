"""The simulator: deterministic for a seed, independent of ``--jobs``, bots fed their views only,
and the ``cardroom simulate`` command's output."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.bots.registry import make_bot
from app.cli import main
from app.games.base import JSON, InvalidAction
from app.games.cards import Card
from app.sim import play as sim_play
from app.sim.simulate import SimConfig, plan, simulate


def without_speed(data: JSON) -> JSON:
    return {key: value for key, value in data.items() if key != "speed"}


def test_the_same_seed_gives_the_same_result_for_any_number_of_jobs() -> None:
    config = SimConfig("hazari", ("strong", "greedy", "random", "random"), deals=150, seed=7,
                       chunk=60)
    one = simulate(config).to_json()
    again = simulate(config).to_json()
    two = simulate(SimConfig(**{**config.__dict__, "jobs": 2})).to_json()
    assert without_speed(one) == without_speed(again) == without_speed(two)
    assert one["deals"] == config.deals
    assert sum(unit["total"] for unit in one["units"]) == 360 * config.deals  # HZ-8
    other = simulate(SimConfig(**{**config.__dict__, "seed": 8})).to_json()
    assert without_speed(other) != without_speed(one)


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize(("game", "seats"), [("azi", "greedy,random,greedy"),
                                             ("hasenpfeffer", "greedy,random,greedy,random")])
def test_chip_and_team_games(game: str, seats: str) -> None:
    config = SimConfig(game, tuple(seats.split(",")), deals=300, seed=3)
    data = simulate(config).to_json()
    assert without_speed(data) == without_speed(simulate(config).to_json())
    assert data["deals"] == 300
    if game == "azi":
        assert data["unit"] == "chips"
        assert [unit["seats"] for unit in data["units"]] == [[0], [1], [2]]
        assert sum(unit["total"] for unit in data["units"]) == 0  # chips only change hands
        assert all(unit["share"] is None for unit in data["units"])
    else:
        assert data["unit"] == "points"
        assert [unit["seats"] for unit in data["units"]] == [[0, 2], [1, 3]]
        assert data["difference"]["first"] == "greedy+greedy"


class Spy:
    """A bot that records what it is given and answers at random."""

    def __init__(self, inner: Any, calls: list[tuple[JSON, list[JSON]]]) -> None:
        self.inner, self.calls = inner, calls
        self.game, self.level = inner.game, inner.level

    def choose(self, view: JSON, legal: list[JSON], rng: random.Random) -> JSON:
        self.calls.append((view, legal))
        answer: JSON = self.inner.choose(view, legal, rng)
        return answer


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("game", ["hazari", "azi", "hasenpfeffer"])
def test_bots_get_their_seats_view_and_nothing_hidden(game: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[JSON, list[JSON]]] = []
    make = make_bot
    monkeypatch.setattr(sim_play, "make_bot", lambda g, level: Spy(make(g, level), calls))
    levels = ("random", "strong", "greedy", "random") if game == "hazari" else ("random",) * 4
    table = sim_play.Table(plan(SimConfig(game, levels, deals=20, seed=1))[2][0])
    engine = table.engine
    while table.tally.deals < 20:
        state = table.state
        awaited = engine.to_act(state)
        before = len(calls)
        table.record(table.step())
        if len(calls) > before:
            seat = awaited[0]
            view, legal = calls[-1]
            assert view == engine.view(state, seat)
            assert legal == engine.legal_actions(state, seat)
            json.dumps(view)  # plain data only
            hidden = {str(card) for card in engine.hidden_cards(state, seat)}
            assert not hidden & set(card_strings(view))
    assert calls


def card_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if _is_card(value) else []
    if isinstance(value, dict):
        return [text for item in value.values() for text in card_strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in card_strings(item)]
    return []


def _is_card(text: str) -> bool:
    try:
        Card.parse(text)
    except InvalidAction:
        return False
    return True


def test_the_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--game", "hazari", "--seats", "strong,greedy,greedy,greedy",
            "--deals", "120", "--seed", "5"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[1].split()
    assert header[:3] == ["seat", "bots", "points/deal"]
    for column in ("95%", "CI", "low", "high", "share", "won"):
        assert column in header
    rows = [line.split() for line in lines[2:6]]
    assert [row[:2] for row in rows] == [["0", "strong"], ["1", "greedy"], ["2", "greedy"],
                                         ["3", "greedy"]]
    assert all(row[3].startswith("±") and row[6].endswith("%") for row in rows)
    assert lines[-3].startswith("matches: ") and "cut off" in lines[-3]
    assert lines[-2].startswith("difference strong - greedy:")
    assert lines[-1].startswith("speed:") and "deals/s per core" in lines[-1]
    assert main([*args, "--json", "--jobs", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deals"] == 120 and len(data["units"]) == 4
    assert data["matches"] + data["unfinished_matches"] > data["matches"] > 0
    assert {"mean", "ci95", "share", "wins"} <= set(data["units"][0])
    assert data["speed"]["jobs"] == 1  # one chunk of work needs one process


def test_the_command_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "hazari", "--seats", "strong,genius,random,random"]) == 2
    assert "genius" in capsys.readouterr().err
    assert main(["simulate", "--game", "hazari", "--seats", "strong,random"]) == 2
    assert main(["simulate", "--game", "chess", "--seats", "random,random"]) == 2
    assert main(["simulate", "--game", "hazari", "--seats", "random,random,random,random",
                 "--option", "target=7"]) == 2
    assert main(["simulate", "--game", "azi", "--seats", "random,random", "--stack", "5"]) == 2
    assert "over before it starts" in capsys.readouterr().err
