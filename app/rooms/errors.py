"""Why a room refused a message."""

from __future__ import annotations

from app.games.base import Rejection


class RoomError(Rejection):
    code = "room/refused"


class StepNotStored(RoomError):
    """The database did not take a step (a lock held too long, a dropped connection): nothing changed."""

    code = "server/not_stored"
