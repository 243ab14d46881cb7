"""Verifiable deals: the deck order is a fixed function of a server seed, the players' client seeds and
the deal number, and the server commits to its seed before the players give theirs.

The algorithm (``docs/fairness.md`` says the same for anyone writing a verifier):

1. ``commitment = SHA-256(server_seed)``, published before any client seed is taken.
2. ``message = "cardroom-deal|<deal>|" + "|".join(client seeds in seat order)``.
3. A stream of bytes: ``HMAC-SHA256(key=server_seed, msg=message + "|" + str(i))`` for i = 0, 1, 2 ...,
   read four bytes at a time as big-endian unsigned 32-bit integers.
4. ``uniform(n)``: draw integers ``x`` from the stream until ``x < 2**32 - (2**32 % n)``; answer ``x % n``.
5. Fisher-Yates from the game's pack in its fixed order: for ``i`` from ``len - 1`` down to ``1``,
   swap positions ``i`` and ``uniform(i + 1)``. The result is the deck, top card first.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence

from app.games.cards import Card

SEED_BYTES = 32
_LIMIT = 2**32


def commitment(server_seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def _stream(server_seed: str, message: str) -> Iterator[int]:
    key = bytes.fromhex(server_seed)
    block = 0
    while True:
        digest = hmac.new(key, f"{message}|{block}".encode(), hashlib.sha256).digest()
        for offset in range(0, len(digest), 4):
            yield int.from_bytes(digest[offset:offset + 4], "big")
        block += 1


def _uniform(stream: Iterator[int], n: int) -> int:
    bound = _LIMIT - _LIMIT % n
    while (x := next(stream)) >= bound:
        pass
    return x % n


def deck_order(pack: Sequence[Card], server_seed: str, client_seeds: Sequence[str],
               deal: int) -> tuple[Card, ...]:
    """The deck of deal ``deal`` (top first), from the pack in its fixed order."""
    stream = _stream(server_seed, f"cardroom-deal|{deal}|" + "|".join(client_seeds))
    order = list(pack)
    for i in range(len(order) - 1, 0, -1):
        j = _uniform(stream, i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def is_seed(text: object) -> bool:
    """A client seed: 16 to 128 lower-case hexadecimal characters."""
    return (isinstance(text, str) and 16 <= len(text) <= 128
            and all(char in "0123456789abcdef" for char in text))


def verify_deal(pack: Sequence[Card], deck: Sequence[Card], deal: int, server_seed: str,
                committed: str, client_seeds: Sequence[str]) -> list[str]:
    """What is wrong with a revealed deal (empty when it checks out)."""
    problems = []
    if commitment(server_seed) != committed:
        problems.append(f"deal {deal}: SHA-256 of the revealed server seed is not the commitment")
    if tuple(deck) != deck_order(pack, server_seed, client_seeds, deal):
        problems.append(f"deal {deal}: the deck is not the one the seeds give")
    return problems
