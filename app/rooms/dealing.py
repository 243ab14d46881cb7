"""Where each deck comes from: fixed test decks, or a verifiable shuffle of a committed server seed and
the players' client seeds (``app.games.fairness``)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.games.base import JSON, Rejection
from app.games.cards import Card
from app.games.fairness import SEED_BYTES, commitment, deck_order, is_seed


class SeedRefused(Rejection):
    code = "fairness/refused"


@dataclass
class DealSeeds:
    number: int
    server_seed: str
    client_seeds: dict[int, str] = field(default_factory=dict)
    expected: frozenset[int] = frozenset()
    revealed: bool = False
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    def in_seat_order(self, players: int) -> list[str]:
        """A seat that gave no seed (a bot's, or a player who did not answer in time) counts as ''."""
        return [self.client_seeds.get(seat, "") for seat in range(players)]

    def to_json(self) -> JSON:
        return {"deal": self.number, "commitment": self.commitment,
                "client_seeds": {str(seat): seed for seat, seed in sorted(self.client_seeds.items())},
                "awaiting": sorted(self.expected - set(self.client_seeds)),
                "server_seed": self.server_seed if self.revealed else None}


class Dealer:
    """The decks of one room's match."""

    def __init__(self, pack: Sequence[Card], test_decks: Sequence[tuple[Card, ...]] = ()) -> None:
        self.pack = tuple(pack)
        self.test_decks = tuple(test_decks)
        self.seeds: dict[int, DealSeeds] = {}
        self.dealt: set[int] = set()

    def is_test_deal(self, number: int) -> bool:
        return number <= len(self.test_decks)

    def prepare(self, number: int, expected: Iterable[int]) -> DealSeeds | None:
        """Commit to the server seed of deal ``number`` before any client seed is taken."""
        if self.is_test_deal(number):
            return None
        if number not in self.seeds:
            pending = DealSeeds(number, secrets.token_hex(SEED_BYTES), expected=frozenset(expected))
            self.seeds[number] = pending
            if not pending.expected:
                pending.ready.set()
        return self.seeds[number]

    def add_seed(self, number: int, seat: int, seed: Any) -> None:
        pending = self.seeds.get(number)
        if pending is None or number in self.dealt:
            raise SeedRefused(f"deal {number} is not waiting for seeds", code="fairness/not_waiting")
        if not is_seed(seed):
            raise SeedRefused("a client seed is 16 to 128 lower-case hexadecimal characters",
                              code="fairness/bad_seed")
        if seat in pending.client_seeds:
            raise SeedRefused(f"seat {seat} already gave its seed for deal {number}",
                              code="fairness/already_seeded")
        pending.client_seeds[seat] = seed
        if pending.expected <= set(pending.client_seeds):
            pending.ready.set()

    def deck(self, number: int, players: int) -> tuple[tuple[Card, ...], DealSeeds | None]:
        """The deck of deal ``number`` from the seeds given so far; :meth:`stored` closes them."""
        if self.is_test_deal(number):
            return self.test_decks[number - 1], None
        seeds = self.prepare(number, ())
        assert seeds is not None
        return deck_order(self.pack, seeds.server_seed, seeds.in_seat_order(players), number), seeds

    def stored(self, number: int) -> None:
        """Deal ``number`` is dealt and stored: it takes no more client seeds."""
        self.dealt.add(number)

    def reveal(self, number: int) -> None:
        if number in self.seeds:
            self.seeds[number].revealed = True

    def restore(self, number: int, server_seed: str | None, client_seeds: Sequence[str] | None,
                revealed: bool) -> None:
        if server_seed is None:
            return
        seeds = {seat: seed for seat, seed in enumerate(client_seeds or ()) if seed}
        self.seeds[number] = DealSeeds(number, server_seed, seeds, revealed=revealed)
        self.seeds[number].ready.set()
        self.dealt.add(number)

    def to_json(self, latest: int) -> JSON:
        """The seeds of the deal being prepared or played, and of the one before it."""
        return {"deals": [self.seeds[n].to_json() for n in (latest - 1, latest) if n in self.seeds]}
