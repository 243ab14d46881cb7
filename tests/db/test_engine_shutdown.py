"""The database engine's shutdown closes every connection, those still in use included."""

from __future__ import annotations

import asyncio
import gc
import warnings

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.session import close_engine, make_engine


async def a_step_finishing_during_the_shutdown(engine: AsyncEngine, checked_out: asyncio.Event,
                                               finish: asyncio.Event) -> int:
    async with engine.connect() as connection:
        checked_out.set()
        await finish.wait()
        return int((await connection.execute(text("SELECT 1"))).scalar_one())


@pytest.mark.postgres
async def test_a_connection_returned_after_the_shutdown_is_closed(postgres_url: str) -> None:
    engine = make_engine(postgres_url)
    checked_out, finish = asyncio.Event(), asyncio.Event()
    step = asyncio.create_task(a_step_finishing_during_the_shutdown(engine, checked_out, finish))
    await checked_out.wait()
    await close_engine(engine)
    finish.set()
    assert await step == 1
    del engine, step
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gc.collect()
    unclosed = [str(warning.message) for warning in caught
                if issubclass(warning.category, ResourceWarning) and "unclosed" in str(warning.message)]
    assert unclosed == []
