"""Play again: once a match is over, its players answer an offer of another with the same seats,
options and bots. It starts when every person still at the table has answered and one accepted, or
when the owner starts it after the others had ``Timing.rematch_wait`` to answer. A person who
declined, or is gone by then, gives his seat to the strong bot."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.games.base import JSON
from app.rooms.errors import RoomError
from app.rooms.occupant import Occupant

REMATCH_LEVEL = "strong"


@dataclass
class RematchOffer:
    """The answers so far (by seat) and when the owner may start without the rest (``None``
    before anyone has answered)."""

    deadline: float | None
    accepted: set[int] = field(default_factory=set)
    declined: set[int] = field(default_factory=set)

    def answer(self, seat: int, accept: bool) -> None:
        (self.accepted if accept else self.declined).add(seat)
        (self.declined if accept else self.accepted).discard(seat)

    def settled(self, present: list[int]) -> bool:
        """Every person at the table has answered and one of them accepted."""
        return bool(self.accepted) and all(seat in self.accepted | self.declined for seat in present)

    def check_owner_start(self, owner_seat: int | None, present: list[int], now: float) -> None:
        """Whether the owner may start now; raises :class:`RoomError` saying why not."""
        if owner_seat is None or owner_seat in self.declined:
            raise RoomError("you are not in the next match; only a player who plays again can start it",
                            code="rematch/not_playing")
        if not self.settled(present) and self.deadline is not None and now < self.deadline:
            raise RoomError(f"the other players have {self.deadline - now:.0f} s left to answer",
                            code="rematch/waiting")

    def occupants(self, seats: list[Occupant | None], present: list[int], removed: set[str],
                  bot_buy_in: int | None) -> list[Occupant]:
        """Who holds each seat in the next match: bots and the people who stay keep theirs; a bot
        that takes a person's seat brings ``bot_buy_in``."""
        return [_next_occupant(seat, occupant, bot_buy_in, seat in present and seat not in self.declined
                               and occupant is not None and occupant.player_id not in removed)
                for seat, occupant in enumerate(seats)]

    def to_json(self) -> JSON:
        return {"accepted": sorted(self.accepted), "declined": sorted(self.declined),
                "deadline": self.deadline}


def _next_occupant(seat: int, occupant: Occupant | None, bot_buy_in: int | None, stays: bool) -> Occupant:
    if occupant is not None and occupant.bot is not None:
        return Occupant(None, occupant.name, bot=occupant.bot, buy_in=occupant.buy_in)
    if occupant is not None and stays:
        return Occupant(occupant.player_id, occupant.name, buy_in=occupant.buy_in)
    return Occupant.for_bot(seat, REMATCH_LEVEL, bot_buy_in)
