"""Chat lines written in the background (``chat_lines``): a line goes to its room at once and never
waits for the database, and the lines said while one transaction is written go together into the
next, so chat adds no wait and few commits to a busy table's moves."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models

CHAT_LINES = models.Base.metadata.tables["chat_lines"]
ATTEMPTS = 5
log = logging.getLogger(__name__)


class ChatWriter:
    """Writes the rows handed to :meth:`append` in order, many to a transaction. A transaction that
    fails is tried again after ``retry_pause`` seconds, up to :data:`ATTEMPTS` times in all.
    :meth:`close` waits until every row handed over is written, so a clean shutdown loses none."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], retry_pause: float = 0.5) -> None:
        self.sessions = sessions
        self.retry_pause = retry_pause
        self._queue: list[dict[str, Any]] = []
        self._task: asyncio.Task[None] | None = None

    def append(self, row: dict[str, Any]) -> None:
        self._queue.append(row)
        if self._task is None:
            # The writer serves every room: its lines name none of them.
            self._task = asyncio.create_task(self._drain(), context=contextvars.Context())

    async def close(self) -> None:
        while self._task is not None:
            await asyncio.shield(self._task)

    async def _drain(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                await self._write(batch)
        finally:
            self._task = None

    async def _write(self, rows: list[dict[str, Any]]) -> None:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                async with self.sessions.begin() as session:
                    await session.execute(insert(CHAT_LINES), rows)
                return
            except Exception as error:
                log.warning("%d chat line(s) not stored (attempt %d of %d): %s", len(rows), attempt,
                            ATTEMPTS, type(error).__name__)
                if attempt < ATTEMPTS:
                    await asyncio.sleep(self.retry_pause)
        log.error("%d chat line(s) were lost: the database did not take them", len(rows))
