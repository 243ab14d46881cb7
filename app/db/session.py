"""The database connection: one async engine and session factory per process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


def prepare_sqlite_path(url: str) -> None:
    """Create the folder of an SQLite database file, so a fresh checkout runs at once."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def lock_wait(url: str, seconds: float) -> dict[str, Any]:
    """How long a statement waits for a lock another transaction holds before it fails: SQLite's busy
    timeout, PostgreSQL's ``lock_timeout``."""
    if make_url(url).get_backend_name() == "sqlite":
        return {"timeout": seconds}
    return {"server_settings": {"lock_timeout": f"{round(seconds * 1000)}ms"}}


def make_engine(url: str, lock_timeout: float = 5.0, pool_size: int = 20) -> AsyncEngine:
    """The engine of ``url``: at most ``pool_size`` connections kept, as many again while busy."""
    prepare_sqlite_path(url)
    engine = create_async_engine(url, pool_recycle=1800, pool_size=pool_size, max_overflow=pool_size,
                                 connect_args=lock_wait(url, lock_timeout))
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


async def close_engine(engine: AsyncEngine) -> None:
    """Close every connection of ``engine``. A connection still checked out (a room's step or a request
    finishing during the shutdown) is closed as it comes back: returned to the disposed pool, it would
    stay open until the garbage collector found it."""
    event.listen(engine.sync_engine.pool, "checkin", _close_on_return)
    await engine.dispose()


def _close_on_return(_dbapi_connection: Any, record: Any) -> None:
    record.invalidate()


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
