"""Where a room is in its life, as the room list and the database spell it."""

from __future__ import annotations

from enum import StrEnum


class RoomStatus(StrEnum):
    OPEN = "open"
    """Seats are taken and left; no match has started."""
    PLAYING = "playing"
    FINISHED = "finished"
    """Its match is over (it may be played again), or the room was closed."""
