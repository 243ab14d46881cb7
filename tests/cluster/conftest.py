"""What the cluster's tests share: a PostgreSQL database of the test's own, migrated."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.db import migrate


@pytest.fixture
def cluster_database(new_postgres_database: Callable[[], str]) -> str:
    url = new_postgres_database()
    migrate.upgrade(url)
    return url
