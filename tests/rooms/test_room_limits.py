"""What free guests can cost the server: guests per address, rooms nobody uses, the lobby's paging."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient
from support import Client, make_settings, query

from app.db import models
from app.db.ids import now
from app.db.session import close_engine, make_engine, make_sessionmaker
from app.db.store import Store
from app.main import create_app
from app.rooms.manager import RoomManager
from app.rooms.timing import Timing

IDLE = timedelta(minutes=30)


class FakeClock:
    def __init__(self, start: float) -> None:
        self.moment = start

    def __call__(self) -> float:
        return self.moment


@pytest.fixture
def http(database_url: str) -> Iterator[TestClient]:
    settings = make_settings(database_url, guests_per_hour=3, room_idle_minutes=IDLE.total_seconds() / 60)
    with TestClient(create_app(settings, run_migrations=False)) as test_client:
        yield test_client


def new_guest(http: TestClient) -> Any:
    return http.post("/api/players", json={"name": "Guest"})


def test_guests_per_address_are_limited_for_an_hour(http: TestClient) -> None:
    clock = FakeClock(1000.0)
    http.app.state.guest_limit.clock = clock  # type: ignore[attr-defined]
    assert [new_guest(http).status_code for _ in range(3)] == [201, 201, 201]
    clock.moment += 600
    refused = new_guest(http)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "3000"
    assert refused.json()["error"]["code"] == "player/too_many_guests"
    assert "3 guest accounts in the last hour" in refused.json()["error"]["message"]
    assert asyncio.run(http.app.state.guest_limit.take("198.51.100.7")) is None  # type: ignore[attr-defined]
    clock.moment += 3000
    assert new_guest(http).status_code == 201


def lobby_page(http: TestClient, path: str = "/api/rooms", **params: Any) -> tuple[list[Any], str | None]:
    response = http.get(path, params=params) if params else http.get(path)
    assert response.status_code == 200, response.text
    link = response.headers.get("Link")
    return response.json(), None if link is None else link.split(">")[0].lstrip("<")


def mine(rooms: list[Any], owners: set[str]) -> list[str]:
    return [room["id"] for room in rooms if room["owner"] in owners]


def make_rooms(http: TestClient) -> tuple[set[str], list[str]]:
    """Seven public rooms of two owners, in the order they were made, and one private one."""
    owners = [Client(http, "Owner A"), Client(http, "Owner B")]
    made = [owners[number % 2].create_room(game) for number, game in
            enumerate(["hazari", "azi", "hasenpfeffer", "hazari", "azi", "hazari", "hasenpfeffer"])]
    owners[0].create_room("hazari", private=True)
    return {owner.id for owner in owners if owner.id}, made


def test_the_lobby_pages_newest_first_with_a_cursor(http: TestClient) -> None:
    owners, made = make_rooms(http)
    seen: list[str] = []
    rooms, following = lobby_page(http, limit=2)
    assert len(rooms) == 2
    while following is not None:
        seen += mine(rooms, owners)
        assert "cursor=" in following and "limit=2" in following
        rooms, following = lobby_page(http, following)
    seen += mine(rooms, owners)
    assert seen == made[::-1]
    everything, last = lobby_page(http)
    assert mine(everything, owners) == made[::-1] and last is None


def test_the_lobby_filters_by_game_status_and_free_seats(http: TestClient) -> None:
    owners, made = make_rooms(http)
    rooms, _ = lobby_page(http, game="hazari", limit=100)
    assert mine(rooms, owners) == [made[5], made[3], made[0]]
    owner = Client(http, "Owner C")
    room_id = owner.create_room("hasenpfeffer")
    with owner.connected(room_id):
        owner.send({"type": "sit", "seat": 0})
        for seat in (1, 2):
            owner.send({"type": "add_bot", "seat": seat, "level": "random"})
        owner.state_where(lambda m: m["room"]["seats"][2]["bot"])
        ids = [room["id"] for room in lobby_page(http, free_seats=2, game="hasenpfeffer", limit=100)[0]]
        assert room_id not in ids and made[6] in ids
        assert room_id in [room["id"] for room in lobby_page(http, free_seats=1, limit=100)[0]]
        owner.send({"type": "add_bot", "seat": 3, "level": "random"})
        owner.send({"type": "start"})
        owner.state_where(lambda m: m["room"]["status"] == "playing")
        playing = lobby_page(http, status="playing", limit=100)[0]
        assert room_id in [room["id"] for room in playing]
        assert all(room["status"] == "playing" for room in playing)
        assert room_id not in [room["id"] for room in lobby_page(http, status="open", limit=100)[0]]


@pytest.mark.parametrize(("params", "code"), [
    ({"status": "finished"}, "request/bad_filter"),
    ({"free_seats": "none"}, "request/bad_filter"),
    ({"game": "poker"}, "request/unknown_game"),
    ({"limit": "0"}, "request/bad_limit"),
    ({"limit": "101"}, "request/bad_limit"),
    ({"cursor": "not-a-cursor"}, "request/bad_cursor"),
    ({"page": "2"}, "request/unknown_filter"),
])
def test_bad_lobby_queries_are_named(client: TestClient, params: dict[str, str], code: str) -> None:
    response = client.get("/api/rooms", params=params)
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == code


def stored_status(url: str, room_id: str) -> str:
    return str(query(url, select(models.Room.status).where(models.Room.id == room_id))[0][0])


def sweep_at(http: TestClient, moment: datetime) -> None:
    rooms: RoomManager = http.app.state.rooms  # type: ignore[attr-defined]
    rooms.clock = lambda: moment
    http.portal.call(rooms.sweep)  # type: ignore[union-attr]


def test_a_room_not_started_in_the_idle_time_is_closed(http: TestClient, database_url: str) -> None:
    owner = Client(http, "Waiting")
    room_id = owner.create_room("hazari")
    made = now()
    with owner.connected(room_id):
        owner.send({"type": "sit", "seat": 0})
        owner.state_where(lambda m: m["room"]["seats"][0]["player_id"] == owner.id)
        sweep_at(http, made + IDLE - timedelta(minutes=1))
        assert http.get(f"/api/rooms/{room_id}").json()["status"] == "open"
        sweep_at(http, made + IDLE + timedelta(seconds=1))
        assert owner.state_where(lambda m: m["room"]["status"] == "finished")
    assert stored_status(database_url, room_id) == "finished"
    sweep_at(http, made + IDLE + timedelta(minutes=1))
    assert http.get(f"/api/rooms/{room_id}").status_code == 404


def start_with_bots(owner: Client) -> None:
    """The connected owner sits in seat 0, puts random bots in the others and starts."""
    owner.send({"type": "sit", "seat": 0})
    for seat in (1, 2, 3):
        owner.send({"type": "add_bot", "seat": seat, "level": "random"})
    owner.state_where(lambda m: all(s["bot"] for s in m["room"]["seats"][1:]))
    owner.send({"type": "start"})
    owner.state_where(lambda m: m["room"]["status"] == "playing")


def test_a_match_nobody_watches_is_played_out_then_forgotten(http: TestClient) -> None:
    owner, spectator = Client(http, "Gone"), Client(http, None)
    room_id = owner.create_room("hasenpfeffer", {"target": 1}, private=True)
    with owner.connected(room_id):
        start_with_bots(owner)
        left = now()
    with spectator.connected(room_id):
        sweep_at(http, left + IDLE - timedelta(minutes=1))
        assert not http.get(f"/api/rooms/{room_id}").json()["seats"][0]["autopilot"]
        sweep_at(http, left + IDLE + timedelta(minutes=1))
        final = spectator.state_where(lambda m: m["room"]["status"] == "finished")
        assert final["room"]["seats"][0]["autopilot"]
        sweep_at(http, left + IDLE + timedelta(minutes=2))
        assert http.get(f"/api/rooms/{room_id}").status_code == 200
    sweep_at(http, left + IDLE + timedelta(minutes=3))
    assert http.get(f"/api/rooms/{room_id}").status_code == 404


def test_a_player_connected_keeps_a_match_going(http: TestClient) -> None:
    owner = Client(http, "Here")
    room_id = owner.create_room("hasenpfeffer", {"target": 1}, private=True)
    with owner.connected(room_id):
        start_with_bots(owner)
        for minutes in (0, 40, 80):
            sweep_at(http, now() + timedelta(minutes=minutes))
        room = http.get(f"/api/rooms/{room_id}").json()
        assert room["status"] == "playing" and not room["seats"][0]["autopilot"]


def test_rooms_left_unstarted_are_not_restored(database_url: str) -> None:
    with TestClient(create_app(make_settings(database_url), run_migrations=False)) as http:
        owner = Client(http, "Restart")
        stale, fresh = owner.create_room("azi"), owner.create_room("hazari")
        made = now()

    async def restore(moment: datetime) -> set[str]:
        engine = make_engine(database_url)
        manager = RoomManager(Store(make_sessionmaker(engine)), Timing(), test_mode=True,
                              clock=lambda: moment)
        try:
            await manager.restore()
            return set(manager.rooms)
        finally:
            await manager.close()
            await close_engine(engine)

    assert {stale, fresh} <= asyncio.run(restore(made + IDLE - timedelta(minutes=1)))
    assert not {stale, fresh} & asyncio.run(restore(made + IDLE + timedelta(seconds=1)))
    assert stored_status(database_url, stale) == stored_status(database_url, fresh) == "finished"


def test_the_server_sweeps_by_itself(database_url: str) -> None:
    settings = make_settings(database_url, room_sweep_seconds=0.01)
    with TestClient(create_app(settings, run_migrations=False)) as http:
        owner = Client(http, "Swept")
        room_id = owner.create_room("hazari")
        with owner.connected(room_id):
            later = now() + IDLE * 2
            http.app.state.rooms.clock = lambda: later  # type: ignore[attr-defined]
            assert owner.state_where(lambda m: m["room"]["status"] == "finished")
