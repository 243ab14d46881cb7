"""The queries the server makes. Each public method is one transaction, but ``record_step`` may share
its transaction with other rooms' steps (:class:`~app.db.step_writer.StepWriter`). The writes of a
room's rows carry the room's fence and are refused when a newer owner holds it
(:mod:`app.db.fencing`)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, NamedTuple

from sqlalchemy import exists, func, insert, literal, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models
from app.db.chat_log import ChatWriter
from app.db.fencing import update_fenced_room
from app.db.ids import new_id, now
from app.db.ledger import balance, grant, hold_chip_seats, top_up_refusal
from app.db.stats import player_stats
from app.db.step_rows import StepRecord, StepRows
from app.db.step_writer import StepWriter
from app.db.tokens import hash_token

AUDIT_LOG = models.Base.metadata.tables["audit_log"]


class SeatRow(NamedTuple):
    """Who holds a seat of a room before its match (``room_seats``), and the table stack the seat
    brings at a chip table."""

    player_id: str | None = None
    bot: str | None = None
    buy_in: int | None = None


@dataclass
class SavedRoom:
    room: models.Room
    seats: list[tuple[models.RoomSeat, str | None]]
    match: models.Match | None = None
    match_seats: list[models.MatchSeat] = field(default_factory=list)
    deals: list[models.Deal] = field(default_factory=list)
    actions: list[models.Action] = field(default_factory=list)
    chat: list[models.ChatLine] = field(default_factory=list)


class Store:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions
        self.steps = StepWriter(sessions)
        self.chat = ChatWriter(sessions)

    async def close(self) -> None:
        await self.steps.close()
        await self.chat.close()

    async def create_player(self, name: str, starting_chips: int) -> tuple[models.Player, str]:
        token = secrets.token_urlsafe(32)
        player = models.Player(id=new_id(), name=name, token_hash=hash_token(token), created_at=now())
        async with self.sessions.begin() as session:
            session.add(player)
            await session.flush()
            session.add(models.Token(player_id=player.id, token_hash=player.token_hash,
                                     created_at=player.created_at))
            if starting_chips > 0:
                await grant(session, player.id, starting_chips, "grant")
        return player, token

    async def player_by_token(self, token: str) -> models.Player | None:
        """The player a token belongs to, unless it was revoked."""
        async with self.sessions() as session:
            found = await session.scalars(
                select(models.Player).join(models.Token, models.Token.player_id == models.Player.id)
                .where(models.Token.token_hash == hash_token(token), models.Token.revoked_at.is_(None)))
            return found.first()

    async def is_suspended(self, player_id: str) -> bool:
        async with self.sessions() as session:
            return await suspension_of(session, player_id) is not None

    async def get_player(self, player_id: str) -> models.Player | None:
        async with self.sessions() as session:
            return await session.get(models.Player, player_id)

    async def balance(self, account: str) -> int:
        async with self.sessions() as session:
            return await balance(session, account)

    async def chips(self, player_id: str) -> int:
        """The player's balance (``players.chips``, which the ledger moves)."""
        async with self.sessions() as session:
            return int(await session.scalar(
                select(models.Player.chips).where(models.Player.id == player_id)) or 0)

    async def top_up(self, player_id: str, to: int, below: int, period: timedelta) -> int:
        """Grant a player below ``below`` chips enough to hold ``to`` again, at most once per
        ``period`` and never while he holds a chip seat; returns the new balance. Raises
        :class:`TopUpRefused` otherwise. One conditional update decides and locks the player's row,
        so that of concurrent requests one only is granted."""
        at = now()
        async with self.sessions.begin() as session:
            player = models.Player
            granted = await session.execute(
                update(player)
                .where(player.id == player_id, player.chips < below,
                       or_(player.topped_up_at.is_(None), player.topped_up_at <= at - period),
                       ~exists().where(models.ChipSeat.player_id == player_id))
                .values(topped_up_at=at).returning(player.chips)
                .execution_options(synchronize_session=False))
            chips = granted.scalar_one_or_none()
            if chips is None:
                raise await top_up_refusal(session, player_id, below, period)
            await grant(session, player_id, to - chips, "top_up")
        return to

    async def player_stats(self, player_id: str) -> dict[str, Any]:
        """Per game: matches played, finished and won, with points per deal and the best total."""
        async with self.sessions() as session:
            return await player_stats(session, player_id)

    async def create_room(self, room: models.Room, seats: int) -> None:
        async with self.sessions.begin() as session:
            session.add(room)
            await session.flush()
            session.add_all(models.RoomSeat(room_id=room.id, seat=seat) for seat in range(seats))

    async def save_room_seats(self, room_id: str, seats: list[SeatRow], version: int, *, fence: int,
                              ante: int | None = None, smallest: int = 0,
                              audit: dict[str, Any] | None = None) -> None:
        """Store who holds each seat, with its buy-in. At a chip table (``ante`` given) every
        player seated holds its chip seat, each newcomer with at least ``ante`` chips and at least
        ``smallest`` (the table's smallest buy-in): :class:`ChipSeatRefused` otherwise, and nothing
        changes. ``audit``: the audit row of the operator's action that made the change. Refused
        (:class:`~app.db.fencing.RoomFenced`) unless the room's fence is still ``fence``."""
        async with self.sessions.begin() as session:
            await update_fenced_room(session, room_id, fence, version=version)
            await _audit(session, audit)
            for seat, row in enumerate(seats):
                await session.execute(
                    update(models.RoomSeat)
                    .where(models.RoomSeat.room_id == room_id, models.RoomSeat.seat == seat)
                    .values(player_id=row.player_id, bot=row.bot, buy_in=row.buy_in))
            if ante is not None:
                await hold_chip_seats(session, room_id, [row.player_id for row in seats if row.player_id],
                                       ante, smallest)

    async def unfinished_rooms(self) -> list[SavedRoom]:
        """Every room not finished, with what it takes to rebuild it and its match."""
        async with self.sessions() as session:
            rooms = list(await session.scalars(
                select(models.Room).where(models.Room.status != "finished").order_by(models.Room.created_at)))
            return [await _saved_room(session, room) for room in rooms]

    async def unfinished_room_ids(self) -> list[str]:
        async with self.sessions() as session:
            return list(await session.scalars(select(models.Room.id).where(models.Room.status != "finished")))

    async def is_room_live(self, room_id: str) -> bool:
        """Whether the room exists and is not finished."""
        async with self.sessions() as session:
            status = await session.scalar(select(models.Room.status).where(models.Room.id == room_id))
            return status is not None and status != "finished"

    async def rooms_owned(self, player_id: str) -> int:
        """How many rooms the player owns that are not finished."""
        async with self.sessions() as session:
            return await session.scalar(select(func.count()).select_from(models.Room).where(
                models.Room.owner_id == player_id, models.Room.status != "finished")) or 0

    async def saved_room(self, room_id: str) -> SavedRoom | None:
        """One unfinished room with what it takes to rebuild it, as :meth:`unfinished_rooms` gives
        each; None when there is no such room or it is finished."""
        async with self.sessions() as session:
            room = await session.scalar(select(models.Room).where(models.Room.id == room_id,
                                                                  models.Room.status != "finished"))
            return None if room is None else await _saved_room(session, room)

    async def take_room(self, room_id: str) -> int | None:
        """Become the owner of an unfinished room: raise its fence by one and return the new fence.
        From its commit on, every write with an older fence is refused, and a step of the owner
        before that had already passed its check commits first. None when there is no such room or
        it is finished."""
        room = models.Room
        async with self.sessions.begin() as session:
            taken = await session.execute(
                update(room).where(room.id == room_id, room.status != "finished")
                .values(fence=room.fence + 1).returning(room.fence)
                .execution_options(synchronize_session=False))
            return taken.scalar_one_or_none()

    async def set_room_status(self, room_id: str, status: str, *, fence: int,
                              audit: dict[str, Any] | None = None, stopped_match: str | None = None) -> None:
        """``audit``: the audit row of the operator's action that made the change; ``stopped_match``:
        a match an operator stopped before its end, which becomes ``closed`` (no result, not rated).
        Refused (:class:`~app.db.fencing.RoomFenced`) unless the room's fence is still ``fence``."""
        async with self.sessions.begin() as session:
            await update_fenced_room(session, room_id, fence, status=status)
            await _audit(session, audit)
            if stopped_match is not None:
                await session.execute(update(models.Match).where(models.Match.id == stopped_match)
                                      .values(status="closed", finished_at=now()))

    async def start_match(self, match: models.Match, seats: list[models.MatchSeat], step: StepRecord,
                          version: int, held: list[SeatRow], *, fence: int, ante: int | None = None) -> None:
        """Start ``match`` in its room, whose seats become ``held`` (a rematch may give a person's
        seat to a bot); at a chip table (``ante`` given) its people hold their chip seats again, as
        :meth:`save_room_seats` checks them. Refused (:class:`~app.db.fencing.RoomFenced`) unless the
        room's fence is still ``fence``."""
        async with self.sessions.begin() as session:
            await update_fenced_room(session, match.room_id, fence, status="playing", match_id=match.id,
                                     version=version)
            session.add(match)
            await session.flush()
            for seat in seats:
                seat.game = match.game
            session.add_all(seats)
            for number, row in enumerate(held):
                await session.execute(
                    update(models.RoomSeat)
                    .where(models.RoomSeat.room_id == match.room_id, models.RoomSeat.seat == number)
                    .values(player_id=row.player_id, bot=row.bot, buy_in=row.buy_in))
            if ante is not None:
                people = [row.player_id for row in held if row.player_id]
                await hold_chip_seats(session, match.room_id, people, ante)
            await session.flush()
            await StepRows.of([step]).write(session)

    async def record_audit(self, row: dict[str, Any]) -> None:
        """An operator's action whose only write is its audit row."""
        async with self.sessions.begin() as session:
            await _audit(session, row)

    async def record_step(self, step: StepRecord) -> None:
        await self.steps.write(step)

    async def ping(self) -> None:
        """A ``select 1``: raises when the database does not answer."""
        async with self.sessions() as session:
            await session.execute(select(literal(1)))


async def suspension_of(session: AsyncSession, player_id: str) -> models.Suspension | None:
    """The player's suspension in force (not lifted), if any."""
    found = await session.scalars(select(models.Suspension).where(
        models.Suspension.player_id == player_id, models.Suspension.lifted_at.is_(None)))
    return found.first()


async def _audit(session: AsyncSession, row: dict[str, Any] | None) -> None:
    if row is not None:
        await session.execute(insert(AUDIT_LOG), [row])


async def _saved_room(session: AsyncSession, room: models.Room) -> SavedRoom:
    seats = await session.execute(
        select(models.RoomSeat, models.Player.name)
        .outerjoin(models.Player, models.Player.id == models.RoomSeat.player_id)
        .where(models.RoomSeat.room_id == room.id).order_by(models.RoomSeat.seat))
    saved = SavedRoom(room=room, seats=[(seat, name) for seat, name in seats],
                      chat=await recent_chat(session, room.id))
    if room.match_id is None:
        return saved
    saved.match = await session.get(models.Match, room.match_id)
    saved.match_seats = list(await session.scalars(
        select(models.MatchSeat).where(models.MatchSeat.match_id == room.match_id)
        .order_by(models.MatchSeat.seat)))
    saved.deals = list(await session.scalars(
        select(models.Deal).where(models.Deal.match_id == room.match_id).order_by(models.Deal.number)))
    saved.actions = list(await session.scalars(
        select(models.Action).where(models.Action.match_id == room.match_id).order_by(models.Action.seq)))
    return saved


async def recent_chat(session: AsyncSession, room_id: str, limit: int = 50) -> list[models.ChatLine]:
    """The room's last ``limit`` chat lines, oldest first."""
    newest = await session.scalars(select(models.ChatLine).where(models.ChatLine.room_id == room_id)
                                   .order_by(models.ChatLine.id.desc()).limit(limit))
    return list(reversed(list(newest)))
