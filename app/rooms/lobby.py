"""The lobby's list of public rooms: filtered, newest first, a page at a time.

Rooms sort by ``(created_at, id)`` descending and a cursor is the sort key of the last room of a page,
so a room made while someone pages through the list shows on a fresh first page only, and later pages
neither repeat nor skip a room that stays open.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.db.history import SortKey, decode_cursor, encode_cursor
from app.games.base import JSON

CURSOR_TAG = "room"


@dataclass(frozen=True)
class RoomFilter:
    """``status`` is ``open`` (not started) or ``playing``; ``free_seats``: at least that many empty."""

    game: str | None = None
    status: str | None = None
    free_seats: int | None = None

    def admits(self, room: JSON) -> bool:
        """Whether the room, as its public JSON shows it, passes the filter."""
        if self.game is not None and room["game"] != self.game:
            return False
        if self.status is not None and room["status"] != self.status:
            return False
        empty = sum(seat["player_id"] is None and not seat["bot"] for seat in room["seats"])
        return self.free_seats is None or empty >= self.free_seats


def encode_room_cursor(key: SortKey) -> str:
    return encode_cursor(key, CURSOR_TAG)


def decode_room_cursor(cursor: str) -> SortKey:
    return decode_cursor(cursor, CURSOR_TAG)


def page_of_rooms(rooms: Iterable[tuple[SortKey, JSON]], wanted: RoomFilter, limit: int,
                  after: SortKey | None) -> tuple[list[JSON], str | None]:
    """Up to ``limit`` rooms that ``wanted`` admits, newest first, after the cursor's room; and the
    cursor of the next page (None on the last)."""
    keyed = sorted(((key, room) for key, room in rooms
                    if (after is None or key < after) and wanted.admits(room)),
                   key=lambda pair: pair[0], reverse=True)
    page = keyed[:limit]
    cursor = encode_room_cursor(page[-1][0]) if len(keyed) > limit else None
    return [room for _, room in page], cursor
