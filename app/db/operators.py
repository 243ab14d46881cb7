"""What operators do and what they read: the admin role, suspensions, the audit log and players'
reports. Every change an operator makes writes its audit row in the same transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models
from app.db.accounts import name_key
from app.db.ids import now
from app.db.store import suspension_of
from app.games.base import Rejection

AUDIT = models.Base.metadata.tables["audit_log"]
COMMAND_LINE = "the server's command line"


class OperatorError(Rejection):
    code = "admin/refused"


@dataclass(frozen=True)
class Audit:
    """The audit row of one operator's action, before it is written."""

    actor_id: str | None
    action: str
    reason: str
    player_id: str | None = None
    room_id: str | None = None
    detail: dict[str, Any] | None = None

    def row(self) -> dict[str, Any]:
        return {"actor_id": self.actor_id, "action": self.action, "target_player_id": self.player_id,
                "target_room_id": self.room_id, "reason": self.reason, "detail": self.detail,
                "at": now()}


async def write_audit(session: AsyncSession, audit: Audit) -> None:
    await session.execute(insert(AUDIT), [audit.row()])


async def set_admin(sessions: async_sessionmaker[AsyncSession], name: str, admin: bool,
                    reason: str) -> models.Player:
    """Grant (or revoke) the admin role of the claimed account named ``name`` (ignoring case), or of
    the player with that id; raises :class:`OperatorError` when there is none or nothing changes."""
    async with sessions.begin() as session:
        player = (await session.scalars(select(models.Player).where(
            models.Player.name_key == name_key(name)))).first() or await session.get(models.Player, name)
        if player is None:
            raise OperatorError(f"no claimed account is named {name!r} and no player has that id",
                                code="player/not_found")
        if player.admin == admin:
            state = "already an admin" if admin else "not an admin"
            raise OperatorError(f"{player.name} is {state}; nothing changed", code="admin/unchanged")
        player.admin = admin
        await write_audit(session, Audit(None, "grant_admin" if admin else "revoke_admin", reason,
                                         player_id=player.id))
        return player


async def suspend(sessions: async_sessionmaker[AsyncSession], audit: Audit) -> None:
    """Suspend ``audit.player_id``: refused for an unknown player, an admin, or one suspended."""
    player_id = audit.player_id or ""
    async with sessions.begin() as session:
        player = await session.get(models.Player, player_id, with_for_update=True)
        if player is None:
            raise OperatorError(f"there is no player {player_id!r}", code="player/not_found")
        if player.admin:
            raise OperatorError(f"{player.name} is an admin; revoke the role on the command line first",
                                code="admin/target_is_admin")
        if await suspension_of(session, player_id) is not None:
            raise OperatorError(f"{player.name} is already suspended", code="admin/already_suspended")
        session.add(models.Suspension(player_id=player_id, reason=audit.reason, by_id=audit.actor_id,
                                      at=now(), lifted_at=None, lifted_by_id=None))
        await write_audit(session, audit)


async def lift(sessions: async_sessionmaker[AsyncSession], audit: Audit) -> None:
    player_id = audit.player_id or ""
    async with sessions.begin() as session:
        if await session.get(models.Player, player_id) is None:
            raise OperatorError(f"there is no player {player_id!r}", code="player/not_found")
        lifted = await session.execute(
            update(models.Suspension)
            .where(models.Suspension.player_id == player_id, models.Suspension.lifted_at.is_(None))
            .values(lifted_at=now(), lifted_by_id=audit.actor_id)
            .execution_options(synchronize_session=False))
        if not getattr(lifted, "rowcount", 0):
            raise OperatorError(f"player {player_id!r} is not suspended", code="admin/not_suspended")
        await write_audit(session, audit)


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat() + "Z"


async def audit_log(sessions: async_sessionmaker[AsyncSession], limit: int) -> list[dict[str, Any]]:
    """The newest entries first, with the names of the admin and of the player acted on."""
    entry, actor, target = models.AuditEntry, models.Player.__table__.alias(), models.Player.__table__.alias()
    async with sessions() as session:
        rows = await session.execute(
            select(entry, actor.c.name, target.c.name)
            .outerjoin(actor, actor.c.id == entry.actor_id)
            .outerjoin(target, target.c.id == entry.target_player_id)
            .order_by(entry.at.desc(), entry.id.desc()).limit(limit))
        return [{"id": row.id, "at": _when(row.at), "action": row.action,
                 "actor": {"id": row.actor_id, "name": actor_name or COMMAND_LINE},
                 "player": None if row.target_player_id is None else
                 {"id": row.target_player_id, "name": target_name},
                 "room_id": row.target_room_id, "reason": row.reason, "detail": row.detail}
                for row, actor_name, target_name in rows]


@dataclass(frozen=True)
class ReportInput:
    reporter_id: str
    reported_id: str
    room_id: str
    match_id: str | None
    seat: int | None
    chat_text: str | None
    chat_at: datetime | None
    note: str | None


async def add_report(sessions: async_sessionmaker[AsyncSession], report: ReportInput) -> int:
    async with sessions.begin() as session:
        row = models.Report(reporter_id=report.reporter_id, reported_id=report.reported_id,
                            room_id=report.room_id, match_id=report.match_id, seat=report.seat,
                            chat_text=report.chat_text, chat_at=report.chat_at, note=report.note,
                            at=now())
        session.add(row)
        await session.flush()
        return row.id


async def reports(sessions: async_sessionmaker[AsyncSession], limit: int) -> list[dict[str, Any]]:
    report = models.Report
    reporter, reported = models.Player.__table__.alias(), models.Player.__table__.alias()
    async with sessions() as session:
        rows = await session.execute(
            select(report, reporter.c.name, reported.c.name)
            .join(reporter, reporter.c.id == report.reporter_id)
            .join(reported, reported.c.id == report.reported_id)
            .order_by(report.at.desc(), report.id.desc()).limit(limit))
        return [{"id": row.id, "at": _when(row.at),
                 "reporter": {"id": row.reporter_id, "name": reporter_name},
                 "reported": {"id": row.reported_id, "name": reported_name},
                 "room_id": row.room_id, "match_id": row.match_id, "seat": row.seat,
                 "chat": None if row.chat_text is None else {"text": row.chat_text, "at": _when(row.chat_at)},
                 "note": row.note}
                for row, reporter_name, reported_name in rows]
