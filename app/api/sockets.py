"""The open room sockets of signed-in players, by the credential each was opened with, so that a
credential revoked ends its sockets at once (close 4401) instead of at their next reconnection."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

CLOSE_REVOKED = 4401
CLOSE_SUSPENDED = 4403
"""An operator suspended the player (``auth/suspended``)."""
CLOSE_REMOVED = 4410
"""An operator removed the player from this room (``room/removed``)."""


class Revocable(Protocol):
    def revoke(self) -> None:
        """Stop acting for the player and close the socket with :data:`CLOSE_REVOKED`."""


class OpenSockets:
    """Sockets by the hash of their token. A socket is added before its token is looked up, so a
    revocation that commits while the look-up runs still finds it."""

    def __init__(self) -> None:
        self.by_token: dict[str, set[Revocable]] = {}

    def add(self, token_hash: str, socket: Revocable) -> None:
        self.by_token.setdefault(token_hash, set()).add(socket)

    def discard(self, token_hash: str, socket: Revocable) -> None:
        sockets = self.by_token.get(token_hash)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self.by_token[token_hash]

    def revoke(self, token_hashes: Iterable[str]) -> int:
        """Close every socket opened with one of these tokens; returns how many."""
        closed = 0
        for token_hash in token_hashes:
            for socket in self.by_token.pop(token_hash, set()):
                socket.revoke()
                closed += 1
        return closed
