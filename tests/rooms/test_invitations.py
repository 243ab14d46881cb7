"""Who comes and goes at a table, through the real app: the notices ``room/joined``, ``room/back`` and
``room/left`` reach everyone but the person they are about (never about a bot), and a seat whose
player dropped carries ``grace_until`` while it waits for him. The room's clock is moved by hand."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from support import Client, ManualClock, Message, make_settings

from app.main import create_app

GRACE = 30.0
# A bound on a wait for the server's tasks to reach the clock (real seconds), never reached.
SETTLE_SECONDS = 30.0


@pytest.fixture
def clocked(fresh_sqlite_url: str) -> Iterator[tuple[TestClient, ManualClock]]:
    settings = make_settings(fresh_sqlite_url, grace_period=GRACE)
    with TestClient(create_app(settings, run_migrations=False)) as http:
        clock = ManualClock()
        http.app.state.rooms.timing.clock = clock  # type: ignore[attr-defined]
        yield http, clock


def notice(message: Message) -> bool:
    return message["type"] == "notice" and str(message["code"]).startswith("room/")


def seat_entry(state: Message, seat: int) -> Message:
    entry: Message = state["room"]["seats"][seat]
    return entry


def no_notice_before_sync(listener: Client, speaker: Client, text: str) -> None:
    """``speaker`` (seated: he may chat) says ``text`` in the chat; ``listener`` gets it with no room
    notice before it (the frames of one connection keep their order)."""
    speaker.send({"type": "chat", "text": text})
    before = len(listener.received)
    listener.until(lambda m: m["type"] == "chat" and m["text"] == text)
    assert not [m for m in listener.received[before:] if notice(m)], listener.received[before:]


def frame(code: str, seat: int, player: Client) -> Message:
    """The notice about ``player`` in ``seat``."""
    return {"type": "notice", "code": code, "seat": seat, "name": player.name, "player_id": player.id}


def seated(player: Client, seat: int) -> Message:
    return player.state_where(lambda m: seat_entry(m, seat)["player_id"] == player.id)


def test_a_guest_who_sits_down_is_announced_to_the_others_and_not_to_himself(client: TestClient) -> None:
    host, guest, watcher = Client(client, "Host"), Client(client, "Ana"), Client(client, None)
    room_id = host.create_room("hazari", private=True)
    with host.connected(room_id), watcher.connected(room_id), guest.connected(room_id):
        host.send({"type": "sit", "seat": 0})
        seated(host, 0)
        guest.send({"type": "sit", "seat": 1})
        seated(guest, 1)
        assert watcher.until(notice)["name"] == "Host"
        for listener in (host, watcher):
            assert listener.until(notice) == frame("room/joined", 1, guest)
        no_notice_before_sync(guest, host, "welcome")

        guest.send({"type": "sit", "seat": 2})
        seated(guest, 2)
        no_notice_before_sync(host, guest, "moved")  # a move to another seat is no new arrival

        guest.send({"type": "stand"})
        host.state_where(lambda m: seat_entry(m, 2)["player_id"] is None)
        assert host.until(notice) == frame("room/left", 2, guest)
        assert watcher.until(notice)["code"] == "room/left"
        no_notice_before_sync(guest, host, "bye")


def test_a_bot_comes_unannounced(client: TestClient) -> None:
    host, guest = Client(client, "Host"), Client(client, "Ben")
    room_id = host.create_room("hazari", private=True)
    with host.connected(room_id), guest.connected(room_id):
        host.send({"type": "sit", "seat": 0})
        seated(host, 0)
        host.send({"type": "add_bot", "seat": 3, "level": "random"})
        guest.state_where(lambda m: seat_entry(m, 3)["bot"])
        no_notice_before_sync(guest, host, "a bot sat down")


def test_a_dropped_player_leaves_comes_back_and_his_seat_waits_meanwhile(
        clocked: tuple[TestClient, ManualClock]) -> None:
    http, clock = clocked
    host, guest = Client(http, "Host"), Client(http, "Ana")
    room_id = host.create_room("hazari", private=True)
    with host.connected(room_id):
        host.send({"type": "sit", "seat": 0})
        seated(host, 0)
        with guest.connected(room_id):
            guest.send({"type": "sit", "seat": 1})
            assert seat_entry(seated(guest, 1), 1)["grace_until"] is None
            assert host.until(notice)["code"] == "room/joined"
        dropped_at = clock.now()
        assert host.until(notice) == frame("room/left", 1, guest)
        waiting = host.state_where(lambda m: not seat_entry(m, 1)["connected"])
        assert seat_entry(waiting, 1)["grace_until"] == dropped_at + GRACE
        assert seat_entry(waiting, 0)["grace_until"] is None

        with guest.connected(room_id):
            assert host.until(notice) == frame("room/back", 1, guest)
            assert seat_entry(host.last_state or {}, 1)["grace_until"] is None
            assert seat_entry(guest.last_state or {}, 1)["connected"]
            no_notice_before_sync(guest, host, "welcome back")

        host.until(lambda m: notice(m) and m["code"] == "room/left")
        assert http.portal is not None
        http.portal.call(asyncio.wait_for, clock.sleeping_until(clock.now() + GRACE), SETTLE_SECONDS)
        http.portal.call(clock.advance, GRACE)
        over = host.until(lambda m: m["type"] == "state" and seat_entry(m, 1)["grace_until"] is None)
        assert seat_entry(over, 1)["player_id"] == guest.id and not seat_entry(over, 1)["connected"]


def test_a_second_connection_of_a_seated_player_is_no_return(client: TestClient) -> None:
    host, guest = Client(client, "Host"), Client(client, "Ana")
    room_id = host.create_room("hazari", private=True)
    other_tab = Client(client, None)
    other_tab.id, other_tab.token, other_tab.name = guest.id, guest.token, "Ana"
    with host.connected(room_id), guest.connected(room_id):
        guest.send({"type": "sit", "seat": 1})
        assert host.until(notice)["code"] == "room/joined"
        with other_tab.connected(room_id):
            no_notice_before_sync(host, guest, "second tab open")
        no_notice_before_sync(host, guest, "second tab closed")


def test_a_join_to_a_taken_seat_is_refused_and_changes_nothing(client: TestClient) -> None:
    host, guest = Client(client, "Host"), Client(client, "Ana")
    room_id = host.create_room("hazari", private=True)
    with host.connected(room_id), guest.connected(room_id):
        host.send({"type": "sit", "seat": 0})
        before = seated(host, 0)
        guest.state_where(lambda m: m["version"] == before["version"])
        guest.send({"type": "sit", "seat": 0})
        error = guest.error()
        assert error["code"] == "room/seat_taken" and "Host" in error["message"]
        no_notice_before_sync(host, host, "taken")
        guest.send({"type": "sit", "seat": 7})
        assert guest.error()["code"] == "room/bad_seat"
        no_notice_before_sync(host, host, "no such seat")
        assert host.last_state is not None and host.last_state["version"] == before["version"]
        seats = host.last_state["room"]["seats"]
        assert [entry["player_id"] for entry in seats] == [host.id, None, None, None]
