"""The cluster's tests: a migrated PostgreSQL database of each test's own, and three nodes on it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from support.cluster import Cluster, running_cluster

from app.db import migrate


@pytest.fixture
def cluster_database(new_postgres_database: Callable[[], str]) -> str:
    url = new_postgres_database()
    migrate.upgrade(url)
    return url


@pytest.fixture
async def cluster(cluster_database: str, tmp_path: Path) -> AsyncIterator[Cluster]:
    with running_cluster(cluster_database, tmp_path) as running:
        try:
            yield running
        finally:
            await asyncio.gather(*(player.leave() for player in running.players))
