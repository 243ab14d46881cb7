"""A room another server has taken over (its fence raised in the database) changes nothing more on
this one: an action, a seat change or the start is refused with ``room/moved``, the room keeps its
state, version and seats, and the room calls its ``when_fenced``; a step nobody sent (the next deal)
is refused alike and not tried again."""

from __future__ import annotations

import asyncio
from contextlib import ExitStack

from sqlalchemy import select
from starlette.testclient import TestClient
from support import Client, ManualClock, advance, clocked_app, query, seat_owner_with_bots
from support.hazari import start, up

from app.db import models
from app.db.store import Store
from app.rooms.room import Room


def taken_over(http: TestClient, room_id: str) -> tuple[Room, list[int]]:
    """Another server takes the room over; returns the room and the versions it was at each time
    it called ``when_fenced``."""
    room: Room = http.app.state.rooms.rooms[room_id]  # type: ignore[attr-defined]
    store: Store = http.app.state.store  # type: ignore[attr-defined]
    fenced: list[int] = []
    room.when_fenced = lambda: fenced.append(room.version)
    assert http.portal is not None
    assert http.portal.call(store.take_room, room_id) == room.fence + 1
    return room, fenced


def test_an_action_in_a_room_taken_over_is_refused_and_changes_nothing(db_client: TestClient,
                                                                         database_url: str) -> None:
    players = [Client(db_client, f"Moved{seat}") for seat in range(4)]
    with ExitStack() as stack:
        room_id = start(players, stack)
        room, fenced = taken_over(db_client, room_id)
        state, version, seq = room.state, room.version, room.seq
        up(players[0], "moved-1")
        error = players[0].error()
        assert (error["code"], error["ref"]) == ("room/moved", "moved-1")
        assert error["message"] == "this table has moved to another server; reconnecting"
        assert (room.state, room.version, room.seq) == (state, version, seq)
        assert room.applied == {}
        assert fenced == [version]
    refs = query(database_url, select(models.Action.ref).where(models.Action.match_id == room.match_id))
    assert refs and ("moved-1",) not in refs


def test_seats_and_the_start_of_a_room_taken_over_are_refused(db_client: TestClient) -> None:
    owner = Client(db_client, "MovedOwner")
    room_id = owner.create_room("hazari", private=True)
    with owner.connected(room_id):
        seat_owner_with_bots(owner)
        room, fenced = taken_over(db_client, room_id)
        seats, version = list(room.seats), room.version
        owner.send({"type": "stand"})
        assert owner.error()["code"] == "room/moved"
        owner.send({"type": "start"})
        assert owner.error()["code"] == "room/moved"
        assert (room.seats, room.version, room.state, room.match_id) == (seats, version, None, None)
        assert fenced == [version, version]


PAUSE = 5.0
SETTLE_SECONDS = 30.0


def settle(http: TestClient, tasks: list[asyncio.Task[None]]) -> None:
    """Returns once ``tasks`` (the room's own steps) are done."""
    async def wait() -> None:
        await asyncio.wait_for(asyncio.gather(*tasks), SETTLE_SECONDS)
    assert http.portal is not None
    http.portal.call(wait)


def deal_due_after_pause(http: TestClient, clock: ManualClock) -> None:
    """Returns once the room's next deal waits for the pause after a deal."""
    async def wait() -> None:
        await asyncio.wait_for(clock.sleeping_until(clock.now() + PAUSE), SETTLE_SECONDS)
    assert http.portal is not None
    http.portal.call(wait)


def test_a_deal_in_a_room_taken_over_is_refused_and_not_tried_again(database_url: str) -> None:
    with clocked_app(database_url, reveal_pause=PAUSE) as (http, clock):
        players = [Client(http, f"Dealt{seat}") for seat in range(4)]
        with ExitStack() as stack:
            room_id = start(players, stack)
            for seat, player in enumerate(players):
                up(player, f"up-{seat}")
            deal_due_after_pause(http, clock)
            room, fenced = taken_over(http, room_id)
            deals, version, pending = room.deals, room.version, room.turns.pending()
            assert pending, "the next deal is under way"
            advance(http, clock, PAUSE)
            settle(http, pending)
            assert (room.deals, room.version, fenced) == (deals, version, [version])
            assert room.turns.pending() == [], "nothing is tried again"
