"""One client of a room, as the room sees it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(eq=False)
class Connection:
    """One client of a room: a player's (``player_id``) or a spectator's. The room hands it each message
    with :meth:`push` and never waits for the client; this base class, with no socket, keeps none."""

    player_id: str | None
    name: str | None

    def push(self, message: str) -> None:
        """Send ``message`` after those pushed before it."""

    def close(self, code: str, message: str) -> None:
        """End the connection from the server's side, telling the client why (error ``code``)."""

    def end(self, close_code: int, code: str, message: str) -> None:
        """Stop acting for the client at once, tell it why and close with ``close_code``."""
