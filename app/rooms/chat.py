"""Table chat and reactions: the lines a room keeps for those who join, and how a line is sent.

A line is a player's own text or one of the fixed :data:`REACTIONS`; the server adds who said it
and when, never anything from the game. Who may write, what a text may hold and how often are
checked at the edge (``app.api.ws``) before a line reaches the room. Lines said before a match
starts belong to the room only; from the start on, each belongs to the room's match too (including
the last words after it ends) and records how many of its steps had been played, so that the
replay shows it in time with them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.games.base import JSON
from app.rooms.frames import encode_frame

HISTORY_LINES = 50
MAX_TEXT = 200
REACTIONS = ("good_game", "well_played", "oops", "thinking", "smile", "laugh", "wow", "sad")


def iso_time(moment: datetime) -> str:
    """A stored (naive UTC) moment as ISO 8601 with its ``Z``."""
    return moment.isoformat() + "Z"


@dataclass(frozen=True)
class ChatLine:
    """One line: ``text`` or ``reaction``, never both. ``match_id`` and ``after_seq`` (the steps of
    that match played when it was said) are None before the room's first match starts."""

    room_id: str
    player_id: str
    name: str
    seat: int | None
    at: datetime
    text: str | None = None
    reaction: str | None = None
    match_id: str | None = None
    after_seq: int | None = None

    def sender(self) -> JSON:
        return {"player_id": self.player_id, "name": self.name, "seat": self.seat}

    def said(self) -> JSON:
        return {"text": self.text} if self.reaction is None else {"reaction": self.reaction}

    def to_json(self) -> JSON:
        """The ``chat`` message every connection of the room gets."""
        return {"type": "chat", "from": self.sender(), **self.said(), "at": iso_time(self.at)}

    def to_row(self) -> dict[str, Any]:
        return {"room_id": self.room_id, "match_id": self.match_id, "after_seq": self.after_seq,
                "player_id": self.player_id, "name": self.name, "seat": self.seat, "text": self.text,
                "reaction": self.reaction, "at": self.at}

    @classmethod
    def from_row(cls, row: Any) -> ChatLine:
        return cls(room_id=row.room_id, player_id=row.player_id, name=row.name, seat=row.seat,
                   at=row.at, text=row.text, reaction=row.reaction, match_id=row.match_id,
                   after_seq=row.after_seq)


def _keep(_line: ChatLine) -> None:
    pass


class TableChat:
    """A room's chat: the last :data:`HISTORY_LINES` lines, and ``keep`` to store each new one (it
    must not wait for the database)."""

    def __init__(self, keep: Callable[[ChatLine], None] = _keep) -> None:
        self.keep = keep
        self.lines: deque[ChatLine] = deque(maxlen=HISTORY_LINES)

    def restore(self, lines: Iterable[ChatLine]) -> None:
        """Take back the room's last stored lines, oldest first (after a restart)."""
        self.lines.extend(lines)

    def add(self, line: ChatLine) -> str:
        """Keep ``line``; returns its frame for the room."""
        self.lines.append(line)
        self.keep(line)
        return encode_frame(line.to_json())

    def history_frame(self) -> str:
        """``chat_history``: the last lines, oldest first, as ``chat`` messages without their type
        (sent after a connection's first state once the room has any)."""
        lines = [{key: value for key, value in line.to_json().items() if key != "type"}
                 for line in self.lines]
        return encode_frame({"type": "chat_history", "lines": lines})
