"""Pacing: a finished deal's result stays until every player present asks for the next deal (or the
pause runs out); bots and spectators never hold it up. A completed trick stays on the table for the
reveal pause before a bot or the autopilot plays to the next one; people play on at once. The tests
of the tricks move the room's clock by hand, so that no pause is waited out."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient
from support import (
    Client,
    ManualClock,
    Message,
    advance,
    clocked_app,
    make_settings,
    seat_all,
    seat_owner_with_bots,
)
from support.azi import BET10, CALL, FOLD, AziTable, azi_deck_for, options_with
from support.azi import play as azi_play
from support.hasenpfeffer import STANDARD_SIX, HpTable, hp_deck, play
from support.hazari import GROUPS, deck_giving, hand_text

from app.main import create_app

DECKS = [deck_giving(1, dealer=0)] * 4
LONG = 600.0


def app_with_pause(database_url: str, seconds: float) -> TestClient:
    return TestClient(create_app(make_settings(database_url, deal_pause_seconds=seconds),
                                 run_migrations=False))


@pytest.fixture
def long_pause(database_url: str) -> Iterator[TestClient]:
    with app_with_pause(database_url, LONG) as http:
        yield http


@pytest.fixture
def short_pause(database_url: str) -> Iterator[TestClient]:
    with app_with_pause(database_url, 0.2) as http:
        yield http


def arranging(player: Client, deal: int) -> Message:
    return player.state_where(lambda m: m["view"].get("deal_number") == deal
                                        and m["view"]["phase"] == "arranging")


def play_deal(players: list[Client], deal: int) -> None:
    for player in players:
        player.act({"kind": "up", "groups": GROUPS[hand_text(arranging(player, deal))]})


def deal_ended(player: Client) -> Message:
    return player.state_where(lambda m: m["view"].get("next_deal") is not None)


def start_four(players: list[Client], stack: ExitStack) -> str:
    room_id = players[0].create_room("hazari", {"decks": DECKS, "first_dealer": 0, "target": 1000}, True)
    seat_all(players, room_id, stack)
    players[0].send({"type": "start"})
    return room_id


def finish_first_deal(players: list[Client], stack: ExitStack) -> Message:
    """Four people play deal 1; the state as seat 0 sees it once the deal has ended."""
    start_four(players, stack)
    play_deal(players, 1)
    return deal_ended(players[0])


def test_the_next_deal_waits_until_every_player_asks_for_it(long_pause: TestClient) -> None:
    players = [Client(long_pause, f"W{seat}") for seat in range(4)]
    with ExitStack() as stack:
        ended = finish_first_deal(players, stack)
        for seat in (0, 1, 2):
            players[seat].send({"type": "next_deal"})
            players[3].state_where(lambda m, s=seat: s in (m["view"]["next_deal"] or {}).get("ready", []))
        waiting = players[3].last_state
        players[3].send({"type": "next_deal"})
        second = arranging(players[0], 2)
    assert ended["view"]["phase"] == "dealing" and ended["view"]["deal_number"] == 1
    assert ended["view"]["next_deal"]["ready"] == [] and ended["view"]["next_deal"]["waiting"] == [0, 1, 2, 3]
    assert ended["view"]["last_deal_points"] is not None
    assert waiting is not None and waiting["view"]["deal_number"] == 1
    assert waiting["view"]["next_deal"]["waiting"] == [3]
    assert waiting["version"] == ended["version"], "asking for the next deal changes no stored step"
    assert second["view"]["next_deal"] is None


def test_the_next_deal_comes_when_the_pause_runs_out(short_pause: TestClient) -> None:
    players = [Client(short_pause, f"S{seat}") for seat in range(4)]
    with ExitStack() as stack:
        ended = finish_first_deal(players, stack)
        second = arranging(players[0], 2)
    assert ended["view"]["next_deal"]["ready"] == []
    assert second["view"]["deal_number"] == 2


def test_bots_and_spectators_never_hold_up_the_next_deal(long_pause: TestClient) -> None:
    owner = Client(long_pause, "Owner")
    spectator = Client(long_pause, None)
    room_id = owner.create_room("hazari", {"decks": DECKS, "first_dealer": 0}, private=True)
    with ExitStack() as stack:
        stack.enter_context(owner.connected(room_id))
        stack.enter_context(spectator.connected(room_id))
        seat_owner_with_bots(owner)
        owner.send({"type": "start"})
        play_deal([owner], 1)
        ended = deal_ended(owner)
        owner.send({"type": "next_deal"})
        second = arranging(owner, 2)
        watched = spectator.state_where(lambda m: m["view"].get("deal_number") == 2)
    assert ended["view"]["next_deal"]["waiting"] == [0]
    assert second["view"]["deal_number"] == 2 and watched["view"]["deal_number"] == 2


def test_asking_for_a_next_deal_while_none_is_waited_for_is_refused(long_pause: TestClient) -> None:
    players = [Client(long_pause, f"R{seat}") for seat in range(4)]
    spectator = Client(long_pause, None)
    with ExitStack() as stack:
        room_id = start_four(players, stack)
        before = arranging(players[0], 1)
        players[0].send({"type": "next_deal"})
        error = players[0].error()
        stack.enter_context(spectator.connected(room_id))
        spectator.send({"type": "next_deal"})
        refused = spectator.error()
        players[0].send({"type": "hint"})
        players[0].until(lambda m: m["type"] == "hint")
    assert error["code"] == "room/no_deal_pause" and "no deal has just ended" in error["message"]
    assert refused["code"] == "auth/spectator"
    assert players[0].last_state is not None and players[0].last_state["version"] == before["version"]


# Sums of these are exact in binary, so the clock lands on each wake-up time exactly.
PAUSE = 2.5
DEAL_PAUSE = 20.0
STEP = 0.25
# A bound on a wait for the server's tasks to reach the clock (real seconds), never reached.
SETTLE_SECONDS = 30.0

# Dealer 3: seat 0, on the dealer's left, leads the first trick with 9H; seat 1 holds four hearts
# above it and must follow suit, so a bot takes the trick whatever trump the bots choose.
BOT_TABLE_DECK = hp_deck({0: "9H 10H 9D 10D 9C 10C", 1: "AH KH QH JH AS KS",
                          2: "JK QS 10S 9S AD KD", 3: "QD JD AC KC QC JC"}, "JS", 3)


@pytest.fixture
def clocked(fresh_sqlite_url: str) -> Iterator[tuple[TestClient, ManualClock]]:
    """The app with the server's own pauses, its rooms on a clock that moves only when the test
    moves it."""
    with clocked_app(fresh_sqlite_url, reveal_pause=PAUSE, deal_pause_seconds=DEAL_PAUSE) as app:
        yield app


def sleeping_until(http: TestClient, clock: ManualClock, moment: float) -> None:
    """Returns once one of the room's tasks waits on the clock until ``moment``."""
    assert http.portal is not None
    http.portal.call(asyncio.wait_for, clock.sleeping_until(moment), SETTLE_SECONDS)


def room_version(http: TestClient, room_id: str) -> int:
    version: int = http.app.state.rooms.rooms[room_id].version  # type: ignore[attr-defined]
    return version


def ready(state: Message) -> list[int]:
    seats: list[int] = (state["view"]["next_deal"] or {}).get("ready", [])
    return seats


def first_trick_taken(owner: Client) -> Message:
    """Seat 0 passes in the auction and leads 9H; the state once the first trick is complete."""
    acted = -1
    while True:
        state = owner.until(lambda m: m["type"] == "state")
        view = state["view"]
        if view["phase"] == "play" and len(view["last_trick"]) == 4 and not view["trick"]:
            return state
        if state["legal"] and state["version"] > acted:
            acted = state["version"]
            kinds = {entry["kind"] for entry in state["legal"]}
            owner.act({"kind": "pass"} if "pass" in kinds else play("9H"))


def test_a_bot_plays_to_the_next_trick_once_the_finished_trick_was_shown(
        clocked: tuple[TestClient, ManualClock]) -> None:
    http, clock = clocked
    start = clock.now()
    owner = Client(http, "Lead")
    room_id = owner.create_room("hasenpfeffer", {"decks": [BOT_TABLE_DECK], "first_dealer": 3},
                                private=True)
    with owner.connected(room_id):
        seat_owner_with_bots(owner)
        owner.send({"type": "start"})
        taken = first_trick_taken(owner)
        winner = taken["view"]["last_trick_winner"]
        sleeping_until(http, clock, start + PAUSE)
        advance(http, clock, PAUSE - STEP)
        held = room_version(http, room_id)
        advance(http, clock, STEP)
        led = owner.state_where(lambda m: m["version"] > taken["version"])
    assert winner != 0 and taken["view"]["to_act"] == [winner]
    assert held == taken["version"], "the bot played before the finished trick was shown its time"
    assert led["version"] == taken["version"] + 1
    assert [entry["seat"] for entry in led["view"]["trick"]] == [winner]


def test_people_play_on_at_once_and_a_hasenpfeffer_deal_waits_for_next_deal(
        clocked: tuple[TestClient, ManualClock]) -> None:
    """Seat 2 takes all six tricks and leads each next one at once, the clock standing still; the
    scored deal then stays until all four ask for the next one."""
    http, clock = clocked
    start = clock.now()
    with ExitStack() as stack:
        table = HpTable(http, stack, {"target": 10}, [STANDARD_SIX.deck()], STANDARD_SIX.dealer)
        table.start()
        ended = table.play_deal(STANDARD_SIX)
        for seat in (0, 1, 2):
            table.players[seat].send({"type": "next_deal"})
            table.players[3].state_where(lambda m, s=seat: s in ready(m))
        sleeping_until(http, clock, start + PAUSE)
        advance(http, clock, PAUSE)
        waiting = room_version(http, table.room_id)
        table.players[3].send({"type": "next_deal"})
        second = table.wait_deal(2)
    assert ended["view"]["phase"] == "needs_deal" and ended["view"]["scores"] == [6, 0]
    assert ended["view"]["last_trick_winner"] == 2 and len(ended["view"]["last_trick"]) == 4
    assert ended["view"]["next_deal"] == {"ready": [], "waiting": [0, 1, 2, 3],
                                          "ends_at": start + DEAL_PAUSE}
    assert waiting == ended["version"], "the next deal came before everyone asked for it"
    assert second["view"]["next_deal"] is None


def test_an_azi_timeout_after_a_trick_waits_then_the_game_result_stays(
        clocked: tuple[TestClient, ManualClock]) -> None:
    """Seat 0 takes the first trick and leads the next, but his time (1 s) runs out: the autopilot
    plays for him only once the trick has been shown for the pause. After the game its result stays
    for the deal pause, seat 0 never asking for the next game."""
    http, clock = clocked
    start = clock.now()
    deck = azi_deck_for({2: "6H 7H 8H", 0: "AH KH QH", 1: "6D 7D 8S"}, 1, 3)
    with ExitStack() as stack:
        table = AziTable(http, stack, 3, options_with([deck], 1, turn_seconds=1))
        table.start()
        table.run([(2, BET10), (0, CALL), (1, FOLD)])
        taken = table.run(azi_play("2:6H", "0:AH"))
        advance(http, clock, 1.0)
        sleeping_until(http, clock, start + PAUSE)
        advance(http, clock, PAUSE - 1.0 - STEP)
        held = room_version(http, table.room_id)
        advance(http, clock, STEP)
        led = table.wait(2, lambda m: len(m["view"]["trick"]) == 1)
        over = table.act(2, azi_play("2:7H")[0][1], until=lambda m: m["view"]["phase"] == "game_over")

        sleeping_until(http, clock, start + 2 * PAUSE)
        advance(http, clock, PAUSE)
        paused = table.wait(1, lambda m: m["view"]["next_deal"] is not None)
        for seat in (1, 2):
            table.players[seat].send({"type": "next_deal"})
            table.players[0].state_where(lambda m, s=seat: s in ready(m))
        sleeping_until(http, clock, start + 3 * PAUSE)
        advance(http, clock, PAUSE)
        ends_at = start + 2 * PAUSE + DEAL_PAUSE
        sleeping_until(http, clock, ends_at)
        advance(http, clock, ends_at - clock.now() - STEP)
        still = room_version(http, table.room_id)
        advance(http, clock, STEP)
        second = table.wait(0, lambda m: m["view"]["game_number"] == 2 and m["view"]["phase"] != "needs_deal")
    assert taken["view"]["to_act"] == [0] and taken["view"]["last_trick_winner"] == 0
    assert held == taken["version"], "the autopilot played before the finished trick was shown its time"
    assert led["view"]["trick"][0]["seat"] == 0 and led["version"] == taken["version"] + 1
    assert over["view"]["last_game"]["winner"] == 0 and over["view"]["next_deal"] is None
    assert paused["view"]["phase"] == "needs_deal" and paused["view"]["last_game"]["winner"] == 0
    assert paused["view"]["next_deal"] == {"ready": [], "waiting": [0, 1, 2], "ends_at": ends_at}
    assert still == paused["version"] and second["view"]["next_deal"] is None


def test_a_seat_that_decides_twice_in_a_row_has_its_whole_time_for_the_second_decision(
        clocked: tuple[TestClient, ManualClock]) -> None:
    """The auction's winner takes trump and then discards: each decision gets ``turn_seconds``
    from the moment it is asked for, not from the first of them."""
    http, clock = clocked
    with ExitStack() as stack:
        table = HpTable(http, stack, {"turn_seconds": 30}, [STANDARD_SIX.deck()], STANDARD_SIX.dealer)
        table.start()
        table.run(STANDARD_SIX.call_actions())
        bidder = STANDARD_SIX.bidder
        assert bidder is not None
        asked = table.fresh(bidder)["view"]["deadline"]
        assert asked == clock.now() + 30
        advance(http, clock, 20)
        named = table.act(bidder, {"kind": "trump", "suit": STANDARD_SIX.trump})
    assert named["view"]["to_act"] == [bidder]
    assert named["view"]["deadline"] == clock.now() + 30, "the discard kept the trump decision's deadline"
