"""A room played for chips: the ante a player must hold to sit, the range of the buy-in, and the
stacks a match starts with. The game says whether it is played for chips and what its ante is
(:class:`~app.games.base.MoneyRules`); the room's options give the buy-in range, in multiples of the
ante."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.db.ledger import bot_account
from app.db.step_rows import StepRecord
from app.db.store import Store
from app.games.base import Engine, MoneyRules
from app.rooms.errors import RoomError
from app.rooms.occupant import Occupant


@dataclass(frozen=True)
class ChipRules:
    """For chip games: the ante a player must hold to sit down, and the range of the table stack a
    player brings (its buy-in), in chips. A bot brings the largest."""

    enabled: bool = False
    ante: int = 0
    min_buy_in: int = 0
    max_buy_in: int = 0

    @classmethod
    def of(cls, rules: MoneyRules[Any] | None, options: Mapping[str, Any],
           buy_in_range: tuple[int, int]) -> ChipRules:
        """The chip rules of a room of a game with money ``rules`` (None: no chips), with the buy-in
        range in multiples of the ante."""
        if rules is None:
            return cls()
        ante = rules.ante(options)
        low, high = buy_in_range if rules.buy_in else (0, 0)
        return cls(enabled=True, ante=ante, min_buy_in=ante * low, max_buy_in=ante * high)

    @property
    def seat_ante(self) -> int | None:
        """The ante the database checks that every person seated holds; None at a table without chips."""
        return self.ante if self.enabled else None

    @property
    def bot_buy_in(self) -> int | None:
        return self.max_buy_in if self.enabled else None


class ChipTable:
    def __init__(self, rules: ChipRules, engine: Engine[Any, Any], store: Store) -> None:
        self.rules = rules
        self.title = engine.title
        self.store = store

    async def checked_buy_in(self, player_id: str, amount: int) -> int:
        rules = self.rules
        if not rules.enabled:
            raise RoomError(f"{self.title} is not played for chips; sit without a buy_in",
                            code="room/no_buy_in")
        low, high = rules.min_buy_in, rules.max_buy_in
        if not low <= amount <= high:
            raise RoomError(f"a buy-in at this table is from {low} to {high} chips; {amount} is out of "
                            "that range", code="room/bad_buy_in")
        wallet = await self.store.chips(player_id)
        if amount > wallet:
            raise RoomError(f"a buy-in of {amount} chips is more than the {wallet} in your wallet",
                            code="chips/insufficient")
        return amount

    async def stacks(self, occupants: list[Occupant], record: StepRecord) -> tuple[int, ...] | None:
        """Chip games play on each player's balance, up to his buy-in (by default the table's
        largest); a bot brings its buy-in, granted to it."""
        if not self.rules.enabled:
            return None
        stacks = []
        for seat, occupant in enumerate(occupants):
            buy_in = occupant.buy_in or self.rules.max_buy_in
            if occupant.player_id is None:
                record.grants.append((bot_account(record.match_id, seat), buy_in))
                stacks.append(buy_in)
            else:
                stacks.append(min(await self.store.chips(occupant.player_id), buy_in))
        return tuple(stacks)
