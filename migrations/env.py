"""Alembic environment: runs the migrations against ``CARDROOM_DATABASE_URL`` (or the URL the caller
put in the config's ``sqlalchemy.url``)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from app.config import get_settings
from app.db.models import Base
from app.db.session import close_engine, make_engine

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or get_settings().database_url


MIGRATION_LOCK = 727_001
"""The PostgreSQL advisory lock a migration holds: several nodes starting together migrate one at a
time, and those after the first find the schema up to date."""


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        context.run_migrations()


async def _run_online() -> None:
    engine = make_engine(_url())
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        # A migration that fails must not leave its connection for the garbage collector.
        await close_engine(engine)


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_online())
