"""The queries the server makes. Each public method is one transaction, but ``record_step`` may share
its transaction with other rooms' steps (:class:`StepWriter`)."""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import logging
import secrets
import string
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import Table, bindparam, delete, exists, func, insert, literal, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db import models, postgres_rows
from app.db.chat_log import ChatWriter
from app.db.finish import record_finish, with_autopilot_decisions
from app.db.stats import player_stats
from app.games.base import Rejection
from app.metrics import StepWrites

BANK = "bank"
DEALS, ACTIONS, CHIP_TRANSFERS, AUDIT_LOG = (models.Base.metadata.tables[name] for name in (
    "deals", "actions", "chip_transfers", "audit_log"))
DEAL_KEYS = ("match_id", "number")
DEAL_RESULTS = (update(DEALS)
                .where(DEALS.c.match_id == bindparam("b_match_id"), DEALS.c.number == bindparam("b_number"))
                .values(points=bindparam("b_points"), detail=bindparam("b_detail")))
log = logging.getLogger(__name__)


def player_account(player_id: str) -> str:
    return f"player:{player_id}"


def pot_account(match_id: str) -> str:
    return f"pot:{match_id}"


def bot_account(match_id: str, seat: int) -> str:
    return f"bot:{match_id}:{seat}"


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


_ID_FIRST = string.ascii_letters + string.digits


def new_id() -> str:
    """Twelve URL-safe characters, never starting with "-": a command line would read that as an option."""
    return secrets.choice(_ID_FIRST) + secrets.token_urlsafe(9)[1:]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class ChipMove:
    """Chips between a player's (or a bot's) account and a match's pot: ``delta`` < 0 puts them in,
    > 0 takes them out."""

    account: str
    delta: int
    kind: str
    deal: int | None
    action_seq: int | None


@dataclass(frozen=True)
class LoggedAction:
    """One entry of a match's action log (``actions``)."""

    seq: int
    deal: int
    seat: int | None
    action: dict[str, Any]
    ref: str | None
    at: datetime
    autopilot: bool = False


@dataclass(frozen=True)
class DealtDeck:
    """A deal's deck and, for a committed deal, its seeds (``deals``)."""

    number: int
    deck: list[str]
    server_seed: str | None
    commitment: str | None
    client_seeds: list[str] | None


@dataclass
class StepRecord:
    """Everything one step of a match changes, written in one transaction before anyone is told."""

    match_id: str
    actions: list[LoggedAction] = field(default_factory=list)
    deals: list[DealtDeck] = field(default_factory=list)
    deal_results: list[tuple[int, list[Any], dict[str, Any]]] = field(default_factory=list)
    chips: list[ChipMove] = field(default_factory=list)
    grants: list[tuple[str, int]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    audit: list[dict[str, Any]] = field(default_factory=list)


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


class TopUpRefused(Rejection):
    code = "chips/refused"


class ChipSeatRefused(Rejection):
    code = "room/refused"


class ChipsRefused(Rejection):
    code = "chips/insufficient"


class StepWriter:
    """Group commit: steps that arrive while transactions are being written go together into the next
    one, so a busy server makes one commit for many rooms' steps instead of one each. Up to ``lanes``
    transactions are in flight at once, so that one waiting for the database does not hold up the
    others. A step's ``write`` returns once its transaction has committed. If a shared transaction
    fails, its steps are written again one by one, so that a step fails only for its own fault."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], lanes: int = 4) -> None:
        self.sessions = sessions
        self.engine: AsyncEngine = sessions.kw["bind"]
        self.postgres = self.engine.dialect.name == "postgresql"
        self.lanes = lanes
        self._queue: list[tuple[StepRecord, asyncio.Future[None]]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def write(self, step: StepRecord) -> None:
        written = asyncio.get_running_loop().create_future()
        self._queue.append((step, written))
        if len(self._tasks) < self.lanes:
            # A lane writes the steps of any rooms: its lines name none of them.
            task = asyncio.create_task(self._drain(), context=contextvars.Context())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        await written

    async def close(self) -> None:
        """Wait until every step handed over is written."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _drain(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            await self._write_batch(batch)

    async def _write_batch(self, batch: list[tuple[StepRecord, asyncio.Future[None]]]) -> None:
        if len(batch) > 1:
            try:
                await self._transaction([step for step, _ in batch])
            except Exception:
                log.warning("a transaction of %d steps failed; writing them one by one", len(batch))
            else:
                for _, written in batch:
                    _resolve(written, None)
                return
        for step, written in batch:
            await self._write_alone(step, written)

    async def _write_alone(self, step: StepRecord, written: asyncio.Future[None]) -> None:
        try:
            await self._transaction([step])
        except Exception as error:
            _resolve(written, _overdraw_refusal(error) or error)
        else:
            _resolve(written, None)

    async def _transaction(self, steps: list[StepRecord]) -> None:
        rows = StepRows.of(steps)
        finished = [(step.match_id, step.result) for step in steps if step.result is not None]
        with StepWrites(len(steps)):
            if self.postgres and not finished:
                await postgres_rows.execute(self.engine, rows.postgres_statements())
                return
            async with self.sessions.begin() as session:
                await rows.write(session)
                for match_id, result in finished:
                    await _finish_match(session, match_id, result)


def _overdraw_refusal(error: Exception) -> ChipsRefused | None:
    """The refusal to give when ``error`` is the database's check that keeps a wallet at or above
    zero."""
    if isinstance(error, IntegrityError) and "ck_players_chips" in str(error):
        return ChipsRefused("that would take more chips than the player holds; nothing changed")
    return None


def _resolve(written: asyncio.Future[None], error: Exception | None) -> None:
    """Tell the step's writer how it went (unless it stopped waiting)."""
    if written.done():
        return
    if error is None:
        written.set_result(None)
    else:
        written.set_exception(error)


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
                await session.execute(insert(CHIP_TRANSFERS),
                                      [_transfer(BANK, player_account(player.id), starting_chips, "grant")])
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
            return await _balance(session, account)

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
                raise await _top_up_refusal(session, player_id, below, period)
            await session.execute(insert(CHIP_TRANSFERS),
                                  [_transfer(BANK, player_account(player_id), to - chips, "top_up")])
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

    async def save_room_seats(self, room_id: str, seats: list[SeatRow], version: int,
                              ante: int | None = None, smallest: int = 0,
                              audit: dict[str, Any] | None = None) -> None:
        """Store who holds each seat, with its buy-in. At a chip table (``ante`` given) every
        player seated holds its chip seat, each newcomer with at least ``ante`` chips and at least
        ``smallest`` (the table's smallest buy-in): :class:`ChipSeatRefused` otherwise, and nothing
        changes. ``audit``: the audit row of the operator's action that made the change."""
        async with self.sessions.begin() as session:
            await _audit(session, audit)
            for seat, row in enumerate(seats):
                await session.execute(
                    update(models.RoomSeat)
                    .where(models.RoomSeat.room_id == room_id, models.RoomSeat.seat == seat)
                    .values(player_id=row.player_id, bot=row.bot, buy_in=row.buy_in))
            await session.execute(
                update(models.Room).where(models.Room.id == room_id).values(version=version))
            if ante is not None:
                await _hold_chip_seats(session, room_id, [row.player_id for row in seats if row.player_id],
                                       ante, smallest)

    async def unfinished_rooms(self) -> list[SavedRoom]:
        """Every room not finished, with what it takes to rebuild it and its match."""
        async with self.sessions() as session:
            rooms = list(await session.scalars(
                select(models.Room).where(models.Room.status != "finished").order_by(models.Room.created_at)))
            return [await _saved_room(session, room) for room in rooms]

    async def set_room_status(self, room_id: str, status: str, audit: dict[str, Any] | None = None,
                              stopped_match: str | None = None) -> None:
        """``audit``: the audit row of the operator's action that made the change; ``stopped_match``:
        a match an operator stopped before its end, which becomes ``closed`` (no result, not rated)."""
        async with self.sessions.begin() as session:
            await _audit(session, audit)
            if stopped_match is not None:
                await session.execute(update(models.Match).where(models.Match.id == stopped_match)
                                      .values(status="closed", finished_at=now()))
            await session.execute(
                update(models.Room).where(models.Room.id == room_id).values(status=status))

    async def start_match(self, match: models.Match, seats: list[models.MatchSeat], step: StepRecord,
                          version: int, held: list[SeatRow], ante: int | None = None) -> None:
        """Start ``match`` in its room, whose seats become ``held`` (a rematch may give a person's
        seat to a bot); at a chip table (``ante`` given) its people hold their chip seats again, as
        :meth:`save_room_seats` checks them."""
        async with self.sessions.begin() as session:
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
            await session.execute(
                update(models.Room).where(models.Room.id == match.room_id)
                .values(status="playing", match_id=match.id, version=version))
            if ante is not None:
                people = [row.player_id for row in held if row.player_id]
                await _hold_chip_seats(session, match.room_id, people, ante)
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


def _transfer(source: str, target: str, amount: int, kind: str, match_id: str | None = None,
              deal: int | None = None, action_seq: int | None = None) -> dict[str, Any]:
    """One row of ``chip_transfers``."""
    return {"source": source, "target": target, "amount": amount, "kind": kind, "match_id": match_id,
            "deal": deal, "action_seq": action_seq, "at": now()}


async def suspension_of(session: AsyncSession, player_id: str) -> models.Suspension | None:
    """The player's suspension in force (not lifted), if any."""
    found = await session.scalars(select(models.Suspension).where(
        models.Suspension.player_id == player_id, models.Suspension.lifted_at.is_(None)))
    return found.first()


async def _audit(session: AsyncSession, row: dict[str, Any] | None) -> None:
    if row is not None:
        await session.execute(insert(AUDIT_LOG), [row])


async def _top_up_refusal(session: AsyncSession, player_id: str, below: int,
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


async def _hold_chip_seats(session: AsyncSession, room_id: str, players: list[str], ante: int,
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


async def _balance(session: AsyncSession, account: str) -> int:
    incoming = await session.scalar(
        select(func.coalesce(func.sum(models.ChipTransfer.amount), 0))
        .where(models.ChipTransfer.target == account))
    outgoing = await session.scalar(
        select(func.coalesce(func.sum(models.ChipTransfer.amount), 0))
        .where(models.ChipTransfer.source == account))
    return int(incoming or 0) - int(outgoing or 0)


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


@dataclass
class StepRows:
    """What steps of any matches write before their matches finish: the new rows of each table, and
    the points of the deals they end (``match_id``, ``number``, ``points``, ``detail``)."""

    inserts: list[tuple[Table, list[dict[str, Any]]]]
    deal_results: list[dict[str, Any]]

    @classmethod
    def of(cls, steps: list[StepRecord]) -> StepRows:
        deals = [{"match_id": step.match_id, "number": deal.number, "deck": deal.deck, "points": None,
                  "detail": None, "server_seed": deal.server_seed, "commitment": deal.commitment,
                  "client_seeds": deal.client_seeds} for step in steps for deal in step.deals]
        actions = [{"match_id": step.match_id, "seq": action.seq, "deal": action.deal, "seat": action.seat,
                    "action": action.action, "ref": action.ref, "at": action.at,
                    "autopilot": action.autopilot}
                   for step in steps for action in step.actions]
        transfers = [transfer for step in steps for transfer in _step_transfers(step)]
        results = [{"match_id": step.match_id, "number": number, "points": points, "detail": detail}
                   for step in steps for number, points, detail in step.deal_results]
        audit = [row for step in steps for row in step.audit]
        inserts = [(table, rows) for table, rows in ((DEALS, deals), (ACTIONS, actions),
                                                     (CHIP_TRANSFERS, transfers), (AUDIT_LOG, audit))
                   if rows]
        return cls(inserts, results)

    async def write(self, session: AsyncSession) -> None:
        for table, rows in self.inserts:
            await session.execute(insert(table), rows)
        if self.deal_results:
            await session.execute(DEAL_RESULTS, [{f"b_{key}": value for key, value in row.items()}
                                                 for row in self.deal_results])

    def postgres_statements(self) -> list[postgres_rows.Statement]:
        statements = [postgres_rows.Statement.insert(table, rows) for table, rows in self.inserts]
        if self.deal_results:
            statements.append(postgres_rows.Statement.update(DEALS, DEAL_KEYS, self.deal_results))
        return statements


def _step_transfers(step: StepRecord) -> list[dict[str, Any]]:
    transfers = [_transfer(BANK, account, amount, "grant", step.match_id) for account, amount in step.grants]
    pot = pot_account(step.match_id)
    for move in step.chips:
        source, target = (move.account, pot) if move.delta < 0 else (pot, move.account)
        transfers.append(_transfer(source, target, abs(move.delta), move.kind, step.match_id,
                                   move.deal, move.action_seq))
    return transfers


async def _finish_match(session: AsyncSession, match_id: str, result: dict[str, Any]) -> None:
    finished_at = now()
    result = await with_autopilot_decisions(session, match_id, result)
    await session.execute(
        update(models.Match).where(models.Match.id == match_id)
        .values(status="finished", finished_at=finished_at, result=result))
    await session.execute(
        update(models.Room).where(models.Room.match_id == match_id).values(status="finished"))
    await record_finish(session, match_id, result, finished_at)


def is_winner(result: dict[str, Any], seat: int) -> bool:
    """Whether ``seat`` is among the winners of a finished match's ``result``."""
    teams = result.get("teams")
    winners = result.get("winners", [])
    if teams is not None:
        return any(seat in teams[team] for team in winners)
    return seat in winners
