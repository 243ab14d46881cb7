"""Play again, through the real app: a finished match's players accept or decline, the next match
starts with the same seats, options and bots (a new match id, the old one finished in the history),
the owner may start it once the others had their time, and what is refused changes nothing."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import ExitStack

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient
from support import Client, ManualClock, Message, advance, clocked_app, make_settings, query, seat_all
from support.azi import AziTable, azi_deck_for, bet, options_with
from support.hazari import GROUPS, SEAT_ONE_WINS, hand_text

from app.db import models
from app.main import create_app

REMATCH_WAIT = 30.0
ONE_DEAL = {"target": 300, "decks": [SEAT_ONE_WINS], "first_dealer": 0}


@pytest.fixture
def clocked(fresh_sqlite_url: str) -> Iterator[tuple[TestClient, ManualClock]]:
    """The app whose rooms read a clock that moves only when the test moves it."""
    with clocked_app(fresh_sqlite_url, rematch_seconds=REMATCH_WAIT) as app:
        yield app


def play_one_deal(players: Sequence[Client], after: int = 0) -> Message:
    """Every seat sets up its groups of a deal from SEAT_ONE_WINS: the match, to 300, is then over."""
    for player in players:
        state = player.state_where(lambda m: m["version"] > after and m["view"]["phase"] == "arranging")
        player.act({"kind": "up", "groups": GROUPS[hand_text(state)]})
    return players[0].state_where(lambda m: m["version"] > after and m["room"]["status"] == "finished")


def finished_table(http: TestClient, stack: ExitStack, humans: int = 4,
                   prefix: str = "Again") -> tuple[list[Client], str, Message]:
    """``humans`` people in seats 0.. (the rest strong bots) who have played a one-deal match."""
    players = [Client(http, f"{prefix} {seat}") for seat in range(humans)]
    room_id = players[0].create_room("hazari", ONE_DEAL, private=True)
    seat_all(players, room_id, stack)
    for seat in range(humans, 4):
        players[0].send({"type": "add_bot", "seat": seat, "level": "strong"})
        players[0].state_where(lambda m, s=seat: m["room"]["seats"][s]["bot"])
    players[0].send({"type": "start"})
    return players, room_id, play_one_deal(players)


def offered(state: Message) -> bool:
    """Someone has answered the offer to play again (its deadline runs)."""
    return state["room"]["rematch"] is not None and state["room"]["rematch"]["deadline"] is not None


def refusal(player: Client, code: str) -> Message:
    error = player.error()
    assert error["code"] == code, error
    return error


def match(http: TestClient, match_id: str) -> Message:
    body: Message = http.get(f"/api/matches/{match_id}").json()
    return body


def room(http: TestClient, room_id: str) -> object:
    return http.app.state.rooms.rooms[room_id]  # type: ignore[attr-defined]


def test_when_every_player_accepts_the_next_match_starts_for_everyone(client: TestClient) -> None:
    with ExitStack() as stack:
        players, room_id, over = finished_table(client, stack)
        first = over["room"]["match_id"]
        for number, player in enumerate(players[:3]):
            player.send({"type": "rematch"})
            offer = players[3].state_where(lambda m, n=number: offered(m)
                                           and n in m["room"]["rematch"]["accepted"])
            assert offer["room"]["match_id"] == first and offer["room"]["status"] == "finished"
        players[3].send({"type": "rematch"})
        for player in players:
            started = player.state_where(lambda m: m["room"]["match_id"] != first)
            assert started["room"]["status"] == "playing" and started["room"]["rematch"] is None
            assert [seat["player_id"] for seat in started["room"]["seats"]] == [p.id for p in players]
        second = started["room"]["match_id"]
        again = play_one_deal(players, after=started["version"])
        assert again["room"]["match_id"] == second
    assert match(client, first)["status"] == "finished" and match(client, second)["status"] == "finished"
    assert match(client, second)["options"] == match(client, first)["options"]
    assert match(client, second)["deals"][0]["number"] == 1
    listed = client.get("/api/matches", params={"player": players[0].id}).json()["matches"]
    assert [entry["id"] for entry in listed] == [second, first]


def test_a_player_who_declines_gives_his_seat_to_a_bot_and_watches(client: TestClient) -> None:
    with ExitStack() as stack:
        players, room_id, over = finished_table(client, stack, humans=2, prefix="Decline")
        first = over["room"]["match_id"]
        players[1].send({"type": "rematch", "accept": False})
        players[0].state_where(lambda m: m["room"]["rematch"] and m["room"]["rematch"]["declined"] == [1])
        players[0].send({"type": "rematch"})
        started = players[1].state_where(lambda m: m["room"]["match_id"] != first)
        seats = started["room"]["seats"]
        assert seats[0]["player_id"] == players[0].id
        assert seats[1]["player_id"] is None and seats[1]["bot"] and seats[1]["bot_level"] == "strong"
        assert [seat["bot_level"] for seat in seats[2:]] == ["strong", "strong"]
        assert started["legal"] == [] and started["view"]["hand"] == []
        players[1].send({"type": "rematch"})
        refusal(players[1], "room/not_seated")


def test_the_owner_starts_once_the_others_had_their_time(clocked: tuple[TestClient, ManualClock]) -> None:
    http, clock = clocked
    with ExitStack() as stack:
        players, room_id, over = finished_table(http, stack, humans=3, prefix="Owner")
        first = over["room"]["match_id"]
        players[0].send({"type": "start"})
        refusal(players[0], "rematch/no_offer")
        players[0].send({"type": "rematch"})
        offer = players[1].state_where(lambda m: offered(m))
        assert offer["room"]["rematch"]["deadline"] == clock.now() + REMATCH_WAIT
        players[1].send({"type": "start"})
        refusal(players[1], "room/not_owner")
        advance(http, clock, REMATCH_WAIT - 1)
        players[0].send({"type": "start"})
        assert "1 s left" in refusal(players[0], "rematch/waiting")["message"]
        assert room(http, room_id).match_id == first  # type: ignore[attr-defined]
        advance(http, clock, 1)
        players[0].send({"type": "start"})
        started = players[2].state_where(lambda m: m["room"]["match_id"] != first)
        assert [seat["player_id"] for seat in started["room"]["seats"][:3]] == [p.id for p in players]


def test_a_player_who_leaves_the_table_lets_the_others_play_again(client: TestClient) -> None:
    players = [Client(client, f"Leave {seat}") for seat in range(2)]
    room_id = players[0].create_room("hazari", ONE_DEAL, private=True)
    with ExitStack() as stack:
        stack.enter_context(players[0].connected(room_id))
        players[0].send({"type": "sit", "seat": 0})
        for seat in (2, 3):
            players[0].send({"type": "add_bot", "seat": seat, "level": "strong"})
        with players[1].connected(room_id):
            players[1].send({"type": "sit", "seat": 1})
            players[0].state_where(lambda m: all(seat["name"] for seat in m["room"]["seats"]))
            players[0].send({"type": "start"})
            over = play_one_deal(players)
            first = over["room"]["match_id"]
            players[0].send({"type": "rematch"})
            players[1].state_where(lambda m: offered(m))
        started = players[0].state_where(lambda m: m["room"]["match_id"] != first)
        assert started["room"]["seats"][0]["player_id"] == players[0].id
        assert started["room"]["seats"][1]["player_id"] is None
        assert started["room"]["seats"][1]["bot_level"] == "strong"


def test_what_is_refused_changes_nothing(client: TestClient) -> None:
    players = [Client(client, f"Early {seat}") for seat in range(4)]
    room_id = players[0].create_room("hazari", ONE_DEAL, private=True)
    watcher, stranger = Client(client, None), Client(client, "Stranger")
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        stack.enter_context(watcher.connected(room_id))
        stack.enter_context(stranger.connected(room_id))
        players[0].send({"type": "rematch"})
        refusal(players[0], "rematch/not_over")
        players[0].send({"type": "start"})
        players[0].state_where(lambda m: m["view"]["phase"] == "arranging")
        players[1].send({"type": "rematch"})
        refusal(players[1], "rematch/not_over")
        assert players[1].last_state is not None and players[1].last_state["room"]["rematch"] is None
        over = play_one_deal(players)
        assert over["room"]["rematch"] == {"accepted": [], "declined": [], "deadline": None}
        version = room(client, room_id).version  # type: ignore[attr-defined]
        watcher.send({"type": "rematch"})
        refusal(watcher, "auth/spectator")
        stranger.send({"type": "rematch"})
        refusal(stranger, "room/not_seated")
        players[2].send({"type": "rematch", "accept": "yes"})
        refusal(players[2], "message/invalid")
        players[2].send({"type": "rematch", "accept": True, "seat": 3})
        refusal(players[2], "message/invalid")
        assert room(client, room_id).version == version  # type: ignore[attr-defined]
        assert room(client, room_id).rematch_offer is None  # type: ignore[attr-defined]
        assert room(client, room_id).match_id == over["room"]["match_id"]  # type: ignore[attr-defined]


def test_an_azi_table_plays_again_with_its_chips_held(db_client: TestClient) -> None:
    """AZ-5: the next session's players hold their chip seats again, and the chips stay exact."""
    game = azi_deck_for({1: "AS KS QS", 0: "9D 10D JD"}, 0, 2)
    with ExitStack() as stack:
        table = AziTable(db_client, stack, 2, options_with([game], 0))
        table.start()
        table.act(1, bet(40))
        table.act(0, {"kind": "fold"}, until=lambda m: m["view"]["phase"] == "game_over")
        table.owner.send({"type": "close"})
        over = table.wait(0, lambda m: m["view"]["phase"] == "match_over")
        chips = table.chips()
        url = db_client.app.state.settings.database_url  # type: ignore[attr-defined]
        this_table = select(models.ChipSeat.player_id).where(models.ChipSeat.room_id == table.room_id)
        assert query(url, this_table) == []
        for player in table.players:
            player.send({"type": "rematch"})
        started = table.wait(1, lambda m: m["room"]["match_id"] != over["room"]["match_id"])
        assert started["room"]["status"] == "playing"
        held = query(url, this_table)
        assert sorted(row[0] for row in held) == sorted(str(p.id) for p in table.players)
        ante = over["room"]["options"]["stake"]
        assert sum(chips) == 2000 and table.chips() == [count - ante for count in chips]


def test_the_next_match_survives_a_restart(fresh_sqlite_url: str) -> None:
    settings = make_settings(fresh_sqlite_url)
    with TestClient(create_app(settings, run_migrations=False)) as http, ExitStack() as stack:
        players, room_id, over = finished_table(http, stack, humans=1, prefix="Restart")
        players[0].send({"type": "rematch"})
        started = players[0].state_where(lambda m: m["room"]["match_id"] != over["room"]["match_id"])
        second = started["room"]["match_id"]
    with TestClient(create_app(settings, run_migrations=False)) as http:
        player = players[0]
        player.http = http
        with player.connected(room_id):
            state = player.state_where(lambda m: m["view"]["phase"] == "arranging")
        assert state["room"]["match_id"] == second and state["room"]["status"] == "playing"
        assert match(http, over["room"]["match_id"])["status"] == "finished"
