"""Retention: finished matches older than a number of days are written in full to an NDJSON file, then
their bulky rows leave the database: the action log, and each deal's deck (emptied). What history,
statistics, ratings and the chip ledger read stays: the match, its seats and result, each deal's points
and summary, the ledger rows. A match so archived is one whose decks are empty (``history.is_archived``)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import IO, Any

from sqlalchemy import delete, exists, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models
from app.db.history import match_detail

BATCH = 100
"""Matches archived per transaction."""


@dataclass(frozen=True)
class Archived:
    matches: int
    actions: int


def _due(cutoff: datetime) -> Any:
    """Finished matches that finished before ``cutoff`` and still hold a deck, oldest first."""
    match, deal = models.Match, models.Deal
    dealt = exists().where(deal.match_id == match.id, func.json_array_length(deal.deck) > 0)
    return (select(match.id).where(match.status == "finished", match.finished_at < cutoff, dealt)
            .order_by(match.finished_at, match.id).limit(BATCH))


async def _archive_batch(session: AsyncSession, cutoff: datetime, out: IO[str]) -> Archived:
    ids = list(await session.scalars(_due(cutoff)))
    for match_id in ids:
        out.write(json.dumps(await match_detail(session, match_id), separators=(",", ":")) + "\n")
    # The records are on disk before their rows leave the database.
    out.flush()
    os.fsync(out.fileno())
    removed = await session.execute(delete(models.Action).where(models.Action.match_id.in_(ids)))
    await session.execute(update(models.Deal).where(models.Deal.match_id.in_(ids)).values(deck=[]))
    return Archived(len(ids), removed.rowcount)  # type: ignore[attr-defined]


async def archive_matches(sessions: async_sessionmaker[AsyncSession], older_than: timedelta, now: datetime,
                          out: IO[str]) -> Archived:
    """Appends every finished match that finished more than ``older_than`` before ``now`` (naive UTC) to
    ``out``, one JSON object per line (the match as ``GET /api/matches/{id}`` gave it), then removes
    its actions and decks, a batch per transaction. A second run finds nothing left to archive."""
    cutoff = now - older_than
    matches = actions = 0
    while True:
        async with sessions() as session, session.begin():
            done = await _archive_batch(session, cutoff, out)
        matches, actions = matches + done.matches, actions + done.actions
        if done.matches < BATCH:
            return Archived(matches, actions)
