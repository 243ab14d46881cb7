"""Shared fixtures: real databases (SQLite, and PostgreSQL where it runs) and the ASGI app."""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import URL, make_url, text
from sqlalchemy.ext.asyncio import create_async_engine
from starlette.testclient import TestClient
from support import create_or_drop_database, make_settings
from support.bots import every_engine
from support.live import LiveServer

from app.db import migrate
from app.db.session import close_engine
from app.games.base import Engine
from app.games.registry import ENGINES
from app.main import create_app

BASE_POSTGRES_URL = make_url(os.environ.get("CARDROOM_TEST_POSTGRES_URL",
                                           "postgresql+asyncpg://postgres@127.0.0.1:5432/test"))
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def worker_database(base: URL, worker: str | None) -> URL:
    """Under pytest-xdist each worker has a database of its own, named after the base one and the
    worker (``test_gw0``); a run without workers uses the base database itself."""
    if worker is None:
        return base
    return base.set(database=f"{base.database}_{worker}")


POSTGRES_URL = worker_database(BASE_POSTGRES_URL, XDIST_WORKER).render_as_string(hide_password=False)


async def _create_or_drop_worker_database(create: bool) -> None:
    name = make_url(POSTGRES_URL).database
    assert name is not None
    await create_or_drop_database(BASE_POSTGRES_URL.render_as_string(hide_password=False), name, create)


async def _reset_postgres(url: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            await connection.execute(text("CREATE SCHEMA public"))
    finally:
        await close_engine(engine)


def _postgres_reachable(url: str) -> str | None:
    try:
        if XDIST_WORKER is not None:
            asyncio.run(_create_or_drop_worker_database(create=True))
        asyncio.run(_reset_postgres(url))
    except Exception as error:  # any failure to reach the server means "not here"
        return f"{type(error).__name__}: {error}"
    return None


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty, migrated database file that tests copy and never open themselves."""
    path = tmp_path_factory.mktemp("template") / "cardroom.db"
    migrate.upgrade(f"sqlite+aiosqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def sqlite_url(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """One SQLite database shared by the storage tests of a session."""
    path = tmp_path_factory.mktemp("db") / "cardroom.db"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The PostgreSQL database of this session (of this xdist worker), migrated; a worker's own
    database is dropped when the session ends."""
    problem = _postgres_reachable(POSTGRES_URL)
    if problem is not None:
        if IN_CI:
            pytest.fail(f"PostgreSQL must run in CI ({POSTGRES_URL}): {problem}")
        print(f"\nNOTICE: PostgreSQL tests skipped, no server at {POSTGRES_URL}: {problem}")
        pytest.skip(f"no PostgreSQL at {POSTGRES_URL}")
    migrate.upgrade(POSTGRES_URL)
    try:
        yield POSTGRES_URL
    finally:
        if XDIST_WORKER is not None:
            asyncio.run(_create_or_drop_worker_database(create=False))


@pytest.fixture(autouse=True)
def _postgres_connections_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """A PostgreSQL connection a test leaves unclosed warns when the collector finds it, in whatever
    test runs then; collecting at the end of each test that reached PostgreSQL makes the warning (an
    error here) fail the test that left it."""
    yield
    if "postgres_url" in request.fixturenames:
        gc.collect()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test that takes this runs once on SQLite and once on PostgreSQL."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: str = request.getfixturevalue(name)
    return url


@pytest.fixture
def new_postgres_database(postgres_url: str) -> Iterator[Callable[[], str]]:
    """Makes empty PostgreSQL databases named after the session's (``<name>_extra_<n>``), all dropped
    after the test."""
    made: list[str] = []
    base = make_url(postgres_url)

    def make() -> str:
        name = f"{base.database}_extra_{len(made)}"
        asyncio.run(create_or_drop_database(postgres_url, name, create=True))
        made.append(name)
        return base.set(database=name).render_as_string(hide_password=False)

    yield make
    for name in made:
        asyncio.run(create_or_drop_database(postgres_url, name, create=False))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def own_database(request: pytest.FixtureRequest) -> str:
    """A migrated database of the test's own, once SQLite and once PostgreSQL."""
    if request.param == "sqlite":
        url: str = request.getfixturevalue("fresh_sqlite_url")
        return url
    new_postgres_database: Callable[[], str] = request.getfixturevalue("new_postgres_database")
    url = new_postgres_database()
    migrate.upgrade(url)
    return url


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    """``cardroom serve`` on the test's database, stopped after the test."""
    with LiveServer(database_url, tmp_path / "server.log") as live:
        yield live


@pytest.fixture
def fresh_sqlite_url(sqlite_template: Path, tmp_path: Path) -> str:
    """A database of its own for one test."""
    copy = tmp_path / "cardroom.db"
    shutil.copyfile(sqlite_template, copy)
    return f"sqlite+aiosqlite:///{copy}"


@pytest.fixture
def client(fresh_sqlite_url: str) -> Iterator[TestClient]:
    """The app on a fresh SQLite database, in test mode, with no pauses."""
    with TestClient(create_app(make_settings(fresh_sqlite_url), run_migrations=False)) as test_client:
        yield test_client


@pytest.fixture
def db_client(database_url: str) -> Iterator[TestClient]:
    """The same app, once per database."""
    with TestClient(create_app(make_settings(database_url), run_migrations=False)) as test_client:
        yield test_client


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Engine[Any, Any]]]:
    """Every engine with bots, in the registry for the duration of a test."""
    engines = every_engine()
    for name, engine in engines.items():
        monkeypatch.setitem(ENGINES, name, engine)
    yield engines


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files that hold slow tests run first: under ``make test`` each file goes whole to one
    worker, in this order, so the longest files start while the others share the rest."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)
