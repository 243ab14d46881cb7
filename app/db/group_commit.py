"""Group commit (:class:`GroupCommit`): writes that arrive while transactions are being written go
together into the next one."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from abc import ABC, abstractmethod
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class GroupCommit(ABC, Generic[T]):
    """Items handed to :meth:`write` while transactions are being written go together into the next
    one, so a busy server makes one commit for many items instead of one each. Up to ``lanes``
    transactions are in flight at once, so that one waiting for the database does not hold up the
    others. ``write`` returns once its item's transaction has committed. If a shared transaction
    fails, its items are written again one by one, so that an item fails only for its own fault.
    Subclasses say how a transaction writes its items (:meth:`transaction`)."""

    def __init__(self, lanes: int = 4) -> None:
        self.lanes = lanes
        self._queue: list[tuple[T, asyncio.Future[None]]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    @abstractmethod
    async def transaction(self, items: list[T]) -> None:
        """Write ``items`` in one committed transaction."""

    def refusal(self, error: Exception) -> Exception:
        """What the writer of an item whose own transaction failed with ``error`` is told."""
        return error

    async def write(self, item: T) -> None:
        written = asyncio.get_running_loop().create_future()
        self._queue.append((item, written))
        if len(self._tasks) < self.lanes:
            # A lane writes the items of any rooms: its lines name none of them.
            task = asyncio.create_task(self._drain(), context=contextvars.Context())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        await written

    async def close(self) -> None:
        """Wait until every item handed over is written."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _drain(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            await self._write_batch(batch)

    async def _write_batch(self, batch: list[tuple[T, asyncio.Future[None]]]) -> None:
        if len(batch) > 1:
            try:
                await self.transaction([item for item, _ in batch])
            except Exception:
                log.warning("a transaction of %d writes failed; writing them one by one", len(batch))
            else:
                for _, written in batch:
                    _resolve(written, None)
                return
        for item, written in batch:
            await self._write_alone(item, written)

    async def _write_alone(self, item: T, written: asyncio.Future[None]) -> None:
        try:
            await self.transaction([item])
        except Exception as error:
            _resolve(written, self.refusal(error))
        else:
            _resolve(written, None)


def _resolve(written: asyncio.Future[None], error: Exception | None) -> None:
    """Tell the item's writer how it went (unless it stopped waiting)."""
    if written.done():
        return
    if error is None:
        written.set_result(None)
    else:
        written.set_exception(error)
