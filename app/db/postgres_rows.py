"""Rows written straight through asyncpg, for the writes a busy PostgreSQL server makes most: the new
rows of match steps and the points of the deals they end. The same rows go through SQLAlchemy
elsewhere; here they skip its work per statement, which costs several times the query itself."""

from __future__ import annotations

from typing import Any

import asyncpg
import orjson
from sqlalchemy import JSON, Table
from sqlalchemy.exc import DatabaseError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

Rows = list[dict[str, Any]]
DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError)


class Statement:
    """One SQL statement and the argument tuples of its ``executemany``."""

    def __init__(self, sql: str, arguments: list[tuple[Any, ...]]) -> None:
        self.sql, self.arguments = sql, arguments

    @classmethod
    def insert(cls, table: Table, rows: Rows) -> Statement:
        columns = list(rows[0])
        placeholders = ", ".join(f"${number}" for number in range(1, len(columns) + 1))
        sql = f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({placeholders})"
        return cls(sql, _arguments(table, columns, rows))

    @classmethod
    def update(cls, table: Table, keys: tuple[str, ...], rows: Rows) -> Statement:
        """Set the other columns of each row in the row its ``keys`` name."""
        columns = [column for column in rows[0] if column not in keys]
        assignments = ", ".join(f"{column} = ${number}" for number, column in enumerate(columns, 1))
        match = " AND ".join(f"{key} = ${number}" for number, key in enumerate(keys, len(columns) + 1))
        sql = f"UPDATE {table.name} SET {assignments} WHERE {match}"
        return cls(sql, _arguments(table, [*columns, *keys], rows))


def _arguments(table: Table, columns: list[str], rows: Rows) -> list[tuple[Any, ...]]:
    """The rows as asyncpg takes them. JSON goes as text, ``None`` as JSON ``null``, as SQLAlchemy
    writes it."""
    json_columns = {column for column in columns if isinstance(table.c[column].type, JSON)}
    return [tuple(_json(row[column]) if column in json_columns else row[column] for column in columns)
            for row in rows]


def _json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


async def execute(engine: AsyncEngine, statements: list[Statement]) -> None:
    """All the statements or none of them. One statement alone is one round trip: asyncpg's
    ``executemany`` is atomic by itself. Errors are SQLAlchemy's, as from every other query."""
    connection = await engine.raw_connection()
    driver = connection.driver_connection
    assert driver is not None, "a pooled connection has its driver connection"
    statement = statements[0]
    try:
        if len(statements) == 1:
            await driver.executemany(statement.sql, statement.arguments)
            return
        async with driver.transaction():
            for statement in statements:
                await driver.executemany(statement.sql, statement.arguments)
    except BaseException as error:
        # Only an error the server reported about a statement leaves the connection fit to use.
        if driver.is_closed() or not isinstance(error, asyncpg.PostgresError):
            connection.invalidate(error)
        if isinstance(error, asyncpg.IntegrityConstraintViolationError):
            raise IntegrityError(statement.sql, None, error) from error
        if isinstance(error, DRIVER_ERRORS):
            raise DatabaseError(statement.sql, None, error) from error
        raise
    finally:
        connection.close()
