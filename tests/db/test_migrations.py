"""Migrating for real: several nodes that start together on one empty PostgreSQL database each run the
migrations, one at a time, and all of them come up."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest
from support.cluster import environment_without_cluster
from support.live import PROJECT

pytestmark = pytest.mark.postgres


def test_nodes_migrating_one_empty_database_at_once_all_succeed(
        new_postgres_database: Callable[[], str]) -> None:
    url = new_postgres_database()
    env = {**environment_without_cluster(), "CARDROOM_DATABASE_URL": url}
    runs = [subprocess.Popen([sys.executable, "-m", "app.cli", "migrate"], cwd=PROJECT, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            for _ in range(3)]
    outputs = [run.communicate(timeout=120)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0], outputs
    assert all("database is at the newest schema" in output for output in outputs), outputs
