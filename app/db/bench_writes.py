"""The benchmark's durable baseline: one row written in one committed transaction, the least a stored
move does (``bench_writes``, written only by the bench-only socket of :mod:`app.api.bench`)."""

from __future__ import annotations

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db import models, postgres_rows
from app.db.ids import now

BENCH_WRITES = models.Base.metadata.tables["bench_writes"]


async def write_one(sessions: async_sessionmaker[AsyncSession], group_id: str) -> None:
    """One row, committed when this returns. On PostgreSQL it takes the path of a move's rows
    (:mod:`app.db.postgres_rows`: one statement, one round trip, no ORM work per statement)."""
    row = {"group_id": group_id, "at": now()}
    engine: AsyncEngine = sessions.kw["bind"]
    if engine.dialect.name == "postgresql":
        await postgres_rows.execute(engine, [postgres_rows.Statement.insert(BENCH_WRITES, [row])])
        return
    async with sessions.begin() as session:
        await session.execute(insert(BENCH_WRITES), [row])
