"""Group commit of the steps of every room (:class:`StepWriter`)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db import postgres_rows
from app.db.fencing import fenced_refusal
from app.db.group_commit import GroupCommit
from app.db.ledger import overdraw_refusal
from app.db.step_rows import StepRecord, StepRows, finish_match
from app.metrics import StepWrites


class StepWriter(GroupCommit[StepRecord]):
    """Group commit of the steps of every room: a step's ``write`` returns once its transaction has
    committed; a step refused alone by the ledger's overdraw check or by its room's fence is told so
    (:func:`~app.db.ledger.overdraw_refusal`, :func:`~app.db.fencing.fenced_refusal`)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], lanes: int = 4) -> None:
        super().__init__(lanes)
        self.sessions = sessions
        self.engine: AsyncEngine = sessions.kw["bind"]
        self.postgres = self.engine.dialect.name == "postgresql"

    def refusal(self, error: Exception) -> Exception:
        return fenced_refusal(error) or overdraw_refusal(error) or error

    async def transaction(self, steps: list[StepRecord]) -> None:
        rows = StepRows.of(steps)
        finished = [(step.match_id, step.result) for step in steps if step.result is not None]
        with StepWrites(len(steps)):
            if self.postgres and not finished:
                await postgres_rows.execute(self.engine, rows.postgres_statements())
                return
            async with self.sessions.begin() as session:
                await rows.write(session)
                for match_id, result in finished:
                    await finish_match(session, match_id, result)
