"""Fencing: only the server that owns a room writes its rows. The room's row holds the fencing number
(``rooms.fence``) of its owner, which a server taking the room over raises; every write of a room's
steps or of its row carries the fence its writer holds, and the database refuses a stale one: a
trigger on the step rows (``actions``, ``deals``; migration 0012), and a ``WHERE fence = ...`` on
the room's row (:func:`update_fenced_room`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import models
from app.games.base import Rejection

FENCED = "room fenced: a newer owner holds this room"
"""The message of the database's refusal (the trigger of migration 0012)."""


class RoomFenced(Rejection):
    """Another server has taken the room over: this one's write was refused and nothing changed."""

    code = "room/moved"


def room_fenced() -> RoomFenced:
    return RoomFenced("this table has moved to another server; reconnecting")


def fenced_refusal(error: Exception) -> RoomFenced | None:
    """The refusal to give when ``error`` is the database's refusal of a step row written with a
    stale fence (SQLite's or PostgreSQL's, through SQLAlchemy or straight from asyncpg)."""
    if isinstance(error, DBAPIError) and FENCED in str(error.orig):
        return room_fenced()
    return None


async def update_fenced_room(session: AsyncSession, room_id: str, fence: int, **values: Any) -> None:
    """Set ``values`` in the room's row if its fence is still ``fence``; raise :class:`RoomFenced`
    otherwise (the caller's transaction then changes nothing)."""
    room = models.Room
    changed = await session.execute(
        update(room).where(room.id == room_id, room.fence == fence).values(**values)
        .returning(room.id).execution_options(synchronize_session=False))
    if changed.first() is None:
        raise room_fenced()
