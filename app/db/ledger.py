"""The chip ledger: its accounts, its transfer rows, balances, chip seats and the refusals of chip
moves."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import models
from app.db.ids import now
from app.games.base import Rejection

BANK = "bank"
CHIP_TRANSFERS = models.Base.metadata.tables["chip_transfers"]


def player_account(player_id: str) -> str:
    return f"player:{player_id}"


def pot_account(match_id: str) -> str:
    return f"pot:{match_id}"


def bot_account(match_id: str, seat: int) -> str:
    return f"bot:{match_id}:{seat}"


class TopUpRefused(Rejection):
    code = "chips/refused"


class ChipSeatRefused(Rejection):
    code = "room/refused"


class ChipsRefused(Rejection):
    code = "chips/insufficient"


def transfer(source: str, target: str, amount: int, kind: str, match_id: str | None = None,
             deal: int | None = None, action_seq: int | None = None) -> dict[str, Any]:
    """One row of ``chip_transfers``."""
    return {"source": source, "target": target, "amount": amount, "kind": kind, "match_id": match_id,
            "deal": deal, "action_seq": action_seq, "at": now()}


async def grant(session: AsyncSession, player_id: str, amount: int, kind: str) -> None:
    """Chips from the bank to a player's account."""
    await session.execute(insert(CHIP_TRANSFERS), [transfer(BANK, player_account(player_id), amount, kind)])


def overdraw_refusal(error: Exception) -> ChipsRefused | None:
    """The refusal to give when ``error`` is the database's check that keeps a wallet at or above
    zero."""
    if isinstance(error, IntegrityError) and "ck_players_chips" in str(error):
        return ChipsRefused("that would take more chips than the player holds; nothing changed")
    return None


async def balance(session: AsyncSession, account: str) -> int:
    incoming = await session.scalar(
        select(func.coalesce(func.sum(models.ChipTransfer.amount), 0))
        .where(models.ChipTransfer.target == account))
    outgoing = await session.scalar(
        select(func.coalesce(func.sum(models.ChipTransfer.amount), 0))
        .where(models.ChipTransfer.source == account))
    return int(incoming or 0) - int(outgoing or 0)


async def top_up_refusal(session: AsyncSession, player_id: str, below: int,
                         period: timedelta) -> TopUpRefused:
    """Why the player gets no top-up now."""
    if await session.get(models.ChipSeat, player_id) is not None:
        return TopUpRefused("your chips are at a chip table; top up once you leave it or its match "
                            "is over", code="chips/at_table")
    player = await session.get(models.Player, player_id)
    if player is None:
        return TopUpRefused(f"there is no player {player_id!r}", code="player/not_found")
    if player.chips >= below:
        return TopUpRefused(f"a top-up is for players with fewer than {below} chips; you have "
                            f"{player.chips}", code="chips/not_needed")
    last = player.topped_up_at.isoformat() if player.topped_up_at else "just now"
    return TopUpRefused(f"one top-up per {period}; the last was at {last}Z", code="chips/too_soon")


async def hold_chip_seats(session: AsyncSession, room_id: str, players: list[str], ante: int,
                          smallest: int = 0) -> None:
    """The room's chip seats become those of ``players``. The primary key refuses a player a seat
    at a second chip table, even to a concurrent transaction."""
    seat = models.ChipSeat
    await session.execute(delete(seat).where(seat.room_id == room_id, seat.player_id.not_in(players)))
    held = set(await session.scalars(select(seat.player_id).where(seat.room_id == room_id)))
    for player_id in players:
        if player_id in held:
            continue
        try:
            await session.execute(insert(seat).values(player_id=player_id, room_id=room_id))
        except IntegrityError as error:
            raise ChipSeatRefused("you are already seated at another chip table; leave it first",
                                  code="room/busy_elsewhere") from error
        chips = int(await session.scalar(select(models.Player.chips).where(models.Player.id == player_id))
                    or 0)
        if chips < ante:
            raise ChipSeatRefused(f"this table's ante is {ante} chips and you have {chips}",
                                  code="room/no_ante")
        if chips < smallest:
            raise ChipSeatRefused(f"this table's smallest buy-in is {smallest} chips (its ante is {ante}) "
                                  f"and you have {chips}", code="room/no_ante")
