"""Who is at a room: its connections, and the grace a dropped player has before the bot plays for
him."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from app.rooms.connection import Connection
from app.rooms.occupant import Occupant
from app.rooms.status import RoomStatus

if TYPE_CHECKING:
    from app.rooms.room import Room


class Presence:
    def __init__(self, room: Room) -> None:
        self.room = room
        self.connections: set[Connection] = set()
        self.grace_until: dict[int, float] = {}
        self._grace_tasks: dict[int, asyncio.Task[None]] = {}

    def is_connected(self, occupant: Occupant) -> bool:
        return any(conn.player_id == occupant.player_id for conn in self.connections)

    def people_present(self) -> list[int]:
        """Seats of connected people playing for themselves (no bot, no autopilot)."""
        return [seat for seat, occupant in enumerate(self.room.seats) if occupant is not None
                and occupant.bot_level is None and self.is_connected(occupant)]

    def people_at_table(self) -> list[int]:
        """Seats of people (not bots) with a connection to the room."""
        return [seat for seat, occupant in enumerate(self.room.seats) if occupant is not None
                and occupant.bot is None and self.is_connected(occupant)]

    def connect(self, conn: Connection) -> None:
        room = self.room
        seat = room.seat_of(conn.player_id)
        occupant = room.seats[seat] if seat is not None else None
        # A socket joins as a spectator and connects again once signed in: it is no one else's.
        coming_back = occupant is not None and not any(
            other.player_id == occupant.player_id for other in self.connections if other is not conn)
        self.connections.add(conn)
        welcome = seat is not None and conn.player_id not in room.removed
        if seat is not None and welcome:
            self._end_grace(seat)
            room.turns.autopilot(seat, False)
        room.fanout.resend()
        if room.chat.lines:
            conn.push(room.chat.history_frame())
        if seat is not None and welcome and coming_back:
            room.fanout.tell_others("room/back", seat)

    def disconnect(self, conn: Connection) -> None:
        if conn in self.connections:
            self.forget(conn)
            self.room.fanout.resend()
            if self.room.rematch_offer is not None:
                self.room.turns.spawn(self.room.lifecycle.rematch_if_settled())

    def forget(self, conn: Connection) -> None:
        """Take the connection off the room; a player left with none keeps his seat for the grace
        period."""
        room = self.room
        self.connections.discard(conn)
        seat = room.seat_of(conn.player_id)
        occupant = room.seats[seat] if seat is not None else None
        if (seat is not None and occupant is not None and not self.is_connected(occupant)
                and seat not in self._grace_tasks):
            self.grace_until[seat] = room.clock.now() + room.timing.grace_period
            self._grace_tasks[seat] = room.turns.spawn(self._grace_then_autopilot(seat))
            room.fanout.tell_others("room/left", seat)

    def _end_grace(self, seat: int) -> None:
        grace = self._grace_tasks.pop(seat, None)
        self.grace_until.pop(seat, None)
        if grace is not None:
            grace.cancel()

    async def _grace_then_autopilot(self, seat: int) -> None:
        """A dropped player keeps his seat for the grace period (the seat shows until when); then
        the bot plays for him."""
        room = self.room
        await room.clock.sleep(room.timing.grace_period)
        self._grace_tasks.pop(seat, None)
        self.grace_until.pop(seat, None)
        if room.state is not None and room.status is RoomStatus.PLAYING:
            room.turns.autopilot(seat, True)
            room.schedule()
        room.fanout.resend()

    def tasks(self) -> list[asyncio.Task[None]]:
        return list(self._grace_tasks.values())
