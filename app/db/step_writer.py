"""Group commit of the steps of every room (:class:`StepWriter`)."""

from __future__ import annotations

import asyncio
import contextvars
import logging

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db import postgres_rows
from app.db.ledger import overdraw_refusal
from app.db.step_rows import StepRecord, StepRows, finish_match
from app.metrics import StepWrites

log = logging.getLogger(__name__)


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
            _resolve(written, overdraw_refusal(error) or error)
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
                    await finish_match(session, match_id, result)


def _resolve(written: asyncio.Future[None], error: Exception | None) -> None:
    """Tell the step's writer how it went (unless it stopped waiting)."""
    if written.done():
        return
    if error is None:
        written.set_result(None)
    else:
        written.set_exception(error)
