"""The benchmark's durable baselines: rows of ``bench_writes`` (written only by the bench-only sockets
of :mod:`app.api.bench`), each committed before its frame goes out, the least a stored move does.
:func:`write_one` gives each row a transaction of its own; :class:`GroupedBenchWrites` lets rows
that arrive together share one, as the steps of many rooms do (:mod:`app.db.group_commit`)."""

from __future__ import annotations

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db import models, postgres_rows
from app.db.group_commit import GroupCommit
from app.db.ids import now

BENCH_WRITES = models.Base.metadata.tables["bench_writes"]


async def write_rows(sessions: async_sessionmaker[AsyncSession], group_ids: list[str]) -> None:
    """One row per group id, committed when this returns. On PostgreSQL they take the path of a
    move's rows (:mod:`app.db.postgres_rows`: one statement, one round trip, no ORM work per
    statement)."""
    rows = [{"group_id": group_id, "at": now()} for group_id in group_ids]
    engine: AsyncEngine = sessions.kw["bind"]
    if engine.dialect.name == "postgresql":
        await postgres_rows.execute(engine, [postgres_rows.Statement.insert(BENCH_WRITES, rows)])
        return
    async with sessions.begin() as session:
        await session.execute(insert(BENCH_WRITES), rows)


async def write_one(sessions: async_sessionmaker[AsyncSession], group_id: str) -> None:
    """One row in a transaction of its own."""
    await write_rows(sessions, [group_id])


class GroupedBenchWrites(GroupCommit[str]):
    """Rows that arrive while transactions are being written share the next one."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        super().__init__()
        self.sessions = sessions

    async def transaction(self, items: list[str]) -> None:
        await write_rows(self.sessions, items)
