"""Group commit of match steps (``StepWriter``): steps of many rooms that arrive together share one
transaction, each is told only once its step is stored, and a bad step fails alone."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest
from sqlalchemy import Text, column, select
from sqlalchemy.exc import DBAPIError, IntegrityError
from support.db import COMMITS, new_match, open_store, step

from app.db import models
from app.db.ledger import player_account, pot_account
from app.db.step_rows import DealtDeck, StepRecord
from app.db.store import Store


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    async with open_store(database_url) as store:
        yield store


async def transactions(store: Store, match_ids: list[str], commits_before: int) -> int:
    """How many transactions wrote the actions of these matches since ``commits_before``: on
    PostgreSQL, told by the rows themselves (``xmin``, which holds for writes SQLAlchemy does not see);
    on SQLite, the commits SQLAlchemy made."""
    if store.steps.postgres:
        async with store.sessions() as session:
            return len(set(await session.scalars(
                select(column("xmin").cast(Text)).select_from(models.Action)
                .where(models.Action.match_id.in_(match_ids)))))
    return len(COMMITS) - commits_before


async def stored_actions(store: Store, match_id: str) -> list[int]:
    async with store.sessions() as session:
        return list(await session.scalars(
            select(models.Action.seq).where(models.Action.match_id == match_id).order_by(models.Action.seq)))


async def test_steps_that_arrive_together_share_one_commit(store: Store) -> None:
    matches = [await new_match(store) for _ in range(12)]
    before = len(COMMITS)
    await asyncio.gather(*(store.record_step(step(match, 1, player)) for match, player in matches))
    assert await transactions(store, [match for match, _ in matches], before) == 1, \
        "twelve rooms' steps, one transaction"
    for match_id, player_id in matches:
        assert await stored_actions(store, match_id) == [1]
        assert await store.balance(player_account(player_id)) == 90
        assert await store.balance(pot_account(match_id)) == 10


async def test_a_step_returns_only_once_it_is_stored(store: Store) -> None:
    match_id, _ = await new_match(store)
    for seq in range(1, 6):
        await store.record_step(step(match_id, seq))
        assert await stored_actions(store, match_id) == list(range(1, seq + 1))


async def test_a_bad_step_fails_alone_and_its_batch_companions_are_stored(store: Store) -> None:
    matches = [await new_match(store) for _ in range(6)]
    bad_match, _ = matches[3]
    await store.record_step(step(bad_match, 1))
    steps = [step(match_id, 1 if match_id == bad_match else 2) for match_id, _ in matches]
    results = await asyncio.gather(*(store.record_step(record) for record in steps), return_exceptions=True)
    assert isinstance(results[3], IntegrityError), "seq 1 of that match is already stored"
    assert [result for index, result in enumerate(results) if index != 3] == [None] * 5
    for match_id, _ in matches:
        assert await stored_actions(store, match_id) == ([1] if match_id == bad_match else [2])


async def test_deals_ended_together_each_keep_their_own_points(store: Store) -> None:
    matches = [match_id for match_id, _ in [await new_match(store) for _ in range(6)]]
    await asyncio.gather(*(store.record_step(StepRecord(match_id, deals=[
        DealtDeck(number=1, deck=["AS"], server_seed=None, commitment=None, client_seeds=None)]))
        for match_id in matches))
    before = len(COMMITS)
    await asyncio.gather(*(store.record_step(StepRecord(
        match_id, actions=step(match_id, 1).actions, deal_results=[(1, [index, -index], {"index": index})]))
        for index, match_id in enumerate(matches)))
    assert await transactions(store, matches, before) == 1
    async with store.sessions() as session:
        for index, match_id in enumerate(matches):
            deal = await session.get(models.Deal, (match_id, 1))
            assert deal is not None
            assert (deal.points, deal.detail) == ([index, -index], {"index": index})


@pytest.mark.postgres
async def test_a_connection_the_database_dropped_fails_one_write_and_is_replaced(postgres_url: str) -> None:
    async with open_store(postgres_url) as store:
        match_id, _ = await new_match(store)
        await store.record_step(step(match_id, 1))
        pooled = await store.steps.engine.raw_connection()
        backend = pooled.driver_connection.get_server_pid()
        pooled.close()
        admin = await asyncpg.connect(postgres_url.replace("+asyncpg", ""))
        try:
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", backend)
        finally:
            await admin.close()
        with pytest.raises(DBAPIError):
            await store.record_step(step(match_id, 2))
        await store.record_step(step(match_id, 2))
        await store.record_step(step(match_id, 3))
        assert await stored_actions(store, match_id) == [1, 2, 3]


async def test_close_waits_for_the_steps_handed_over(store: Store) -> None:
    matches = [await new_match(store) for _ in range(5)]
    writes = [asyncio.ensure_future(store.record_step(step(match_id, 1))) for match_id, _ in matches]
    await asyncio.sleep(0)
    await store.close()
    assert all(write.done() for write in writes)
    for match_id, _ in matches:
        assert await stored_actions(store, match_id) == [1]
