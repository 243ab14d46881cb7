"""Speed of the history API with many stored matches, on SQLite and on PostgreSQL.

Seeds ``--matches`` finished matches (100,000 by default; with seats, one deal with its deck and a few
actions each) into a fresh SQLite file and into a fresh PostgreSQL database (``cardroom_bench``,
dropped and made again), then times the calls through the ASGI app and prints p50 and p99 of each:

    python -m bench.history                      # both databases
    python -m bench.history --skip-postgres      # SQLite only

Two players (``p0000`` and ``p0001``) sit in about 5% of the matches each, the other seats go to
2,000 players at random, so a regular's history is a few thousand matches long. The database's plan
of each list query is printed too (PostgreSQL after ``ANALYZE``, as after a bulk load).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url
from starlette.testclient import TestClient

from app.config import Settings
from app.db import migrate
from app.db.finish import seat_outcome
from app.db.history import HistoryFilter, explain_list
from app.db.session import close_engine, make_engine, make_sessionmaker
from app.games.cards import card_texts
from app.games.registry import ENGINES
from app.main import create_app

PLAYERS = 2000
REGULARS = ("p0000", "p0001")
START = datetime(2025, 1, 1)
TABLES = ("players", "tokens", "rooms", "matches", "match_seats", "deals", "actions", "ratings")


@dataclass
class Rows:
    """Every row to load, per table, in the column order of ``COLUMNS``."""

    tables: dict[str, list[tuple[Any, ...]]] = field(default_factory=lambda: {name: [] for name in TABLES})


COLUMNS = {
    "players": ("id", "name", "token_hash", "created_at", "password_hash", "claimed_at", "name_key"),
    "tokens": ("player_id", "token_hash", "created_at", "revoked_at"),
    "rooms": ("id", "game", "options", "private", "owner_id", "status", "match_id", "created_at", "version",
              "test_setup"),
    "matches": ("id", "room_id", "game", "options", "first_dealer", "stacks", "status", "started_at",
                "finished_at", "result", "rated"),
    "match_seats": ("match_id", "seat", "player_id", "name", "bot", "game", "finished_at", "won", "total",
                    "deal_points", "deals"),
    "deals": ("match_id", "number", "deck", "points", "detail"),
    "actions": ("match_id", "seq", "deal", "seat", "action", "ref", "at"),
    "ratings": ("player_id", "game", "mu", "sigma", "ordinal", "matches", "updated_at"),
}
JSON_COLUMNS = {"options", "stacks", "result", "deck", "points", "detail", "action", "test_setup"}


def _players(rows: Rows, rng: random.Random) -> None:
    for number in range(PLAYERS):
        player_id = f"p{number:04d}"
        token = hashlib.sha256(player_id.encode()).hexdigest()
        rows.tables["players"].append((player_id, f"Player {number}", token, START, None, START,
                                       f"player {number}"))
        rows.tables["tokens"].append((player_id, token, START, None))
        for game in ENGINES:
            mu, sigma = rng.gauss(25, 3), rng.uniform(2, 8)
            rows.tables["ratings"].append((player_id, game, mu, sigma, mu - 3 * sigma, rng.randrange(1, 99),
                                           START))


def _seating(game: str, rng: random.Random) -> list[str]:
    count = rng.randint(2, 6) if game == "azi" else 4
    chosen = [regular for regular in REGULARS if rng.random() < 0.05]
    while len(chosen) < count:
        candidate = f"p{rng.randrange(PLAYERS):04d}"
        if candidate not in chosen:
            chosen.append(candidate)
    rng.shuffle(chosen)
    return chosen[:count]


def _result(game: str, seats: int, rng: random.Random) -> tuple[dict[str, Any], list[int]]:
    if game == "hasenpfeffer":
        points = [rng.randint(-3, 6), rng.randint(-3, 6)]
        winner = 0 if points[0] >= points[1] else 1
        return {"winners": [winner], "totals": points, "teams": [[0, 2], [1, 3]]}, points
    if game == "hazari":
        points = [rng.choice((0, 90, 180, 270, 360)) for _ in range(seats)]
    else:
        points = [rng.randint(-200, 200) for _ in range(seats - 1)]
        points.append(-sum(points))
    best = max(points)
    return {"winners": [seat for seat in range(seats) if points[seat] == best], "totals": points}, points


def _match(rows: Rows, number: int, rng: random.Random) -> None:
    game = rng.choices(("hazari", "hasenpfeffer", "azi"), weights=(4, 3, 3))[0]
    engine = ENGINES[game]
    match_id, room_id = f"m{number:06d}", f"r{number:06d}"
    finished = START + timedelta(seconds=number * 60 + rng.randrange(60))
    started = finished - timedelta(minutes=rng.randrange(5, 60))
    players = _seating(game, rng)
    result, points = _result(game, len(players), rng)
    deck = card_texts(engine.full_deck())
    rng.shuffle(deck)
    rows.tables["rooms"].append((room_id, game, {}, False, players[0], "finished", match_id, started, 1,
                                 None))
    rows.tables["matches"].append((match_id, room_id, game, {}, 0, None, "finished", started, finished,
                                   result, False))
    for seat, player_id in enumerate(players):
        outcome = seat_outcome(result, [points], seat)
        rows.tables["match_seats"].append((match_id, seat, player_id, player_id, None, game, finished,
                                           outcome["won"], outcome["total"], outcome["deal_points"], 1))
    rows.tables["deals"].append((match_id, 1, deck, points, {}))
    steps = [(None, {"kind": "deal", "deal": 1})] + [(seat, {"kind": "pass"}) for seat in range(len(players))]
    for seq, (seat, action) in enumerate(steps, start=1):
        rows.tables["actions"].append((match_id, seq, 1, seat, action, None, started))


def generate(matches: int, seed: int = 1) -> Rows:
    rng = random.Random(seed)
    rows = Rows()
    _players(rows, rng)
    for number in range(matches):
        _match(rows, number, rng)
    return rows


def _as_text(table: str, row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(json.dumps(value) if name in JSON_COLUMNS and value is not None else value
                 for name, value in zip(COLUMNS[table], row, strict=True))


def load_sqlite(path: Path, rows: Rows) -> None:
    import sqlite3

    with sqlite3.connect(path) as db:
        for table in TABLES:
            columns = COLUMNS[table]
            marks = ", ".join("?" * len(columns))
            db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                           (_sqlite_row(table, row) for row in rows.tables[table]))
        db.execute("ANALYZE")


def _sqlite_row(table: str, row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(value.isoformat(" ", "microseconds") if isinstance(value, datetime) else value
                 for value in _as_text(table, row))


async def load_postgres(dsn: str, rows: Rows) -> None:
    connection = await asyncpg.connect(dsn)
    try:
        for table in TABLES:
            await connection.copy_records_to_table(
                table, columns=list(COLUMNS[table]),
                records=[_as_text(table, row) for row in rows.tables[table]])
        await connection.execute("ANALYZE")
    finally:
        await connection.close()


async def fresh_postgres(url: str) -> str:
    """Drop and make the benchmark database again; returns its asyncpg DSN."""
    parsed = make_url(url)
    dsn = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    admin = await asyncpg.connect(parsed.set(drivername="postgresql", database="postgres")
                                  .render_as_string(hide_password=False))
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{parsed.database}"')
        await admin.execute(f'CREATE DATABASE "{parsed.database}"')
    finally:
        await admin.close()
    return dsn


def percentiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p99 * 1000


def timed(call: Callable[[], Any], repeat: int) -> tuple[float, float]:
    for _ in range(5):
        call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return percentiles(times)


def _get(http: TestClient, path: str, **params: Any) -> Any:
    response = http.get(path, params=params)
    assert response.status_code == 200, response.text
    return response


def _cursors(http: TestClient, count: int) -> Iterator[str]:
    """Cursors of the successive pages of the first regular's history."""
    cursor = None
    for _ in range(count):
        page = _get(http, "/api/matches", player=REGULARS[0], **({"before": cursor} if cursor else {})).json()
        cursor = page["next"]
        if cursor is None:
            return
        yield cursor


def measure(url: str, matches: int, repeat: int) -> list[tuple[str, float, float]]:
    settings = Settings(database_url=url, reveal_pause=0, bot_delay=0)
    rng = random.Random(2)
    results = []
    with TestClient(create_app(settings, run_migrations=False)) as http:
        cursors = list(_cursors(http, 100))
        ids = [f"m{rng.randrange(matches):06d}" for _ in range(repeat + 5)]
        picks = iter(ids * 2)
        pages = iter(cursors * (repeat // max(1, len(cursors)) + 2))
        others = iter([f"p{rng.randrange(2, PLAYERS):04d}" for _ in range(repeat + 5)])
        calls: list[tuple[str, Callable[[], Any]]] = [
            ("list: a regular's matches", lambda: _get(http, "/api/matches", player=REGULARS[0])),
            ("list: another player's matches", lambda: _get(http, "/api/matches", player=next(others))),
            ("list: player + game + result", lambda: _get(http, "/api/matches", player=REGULARS[0],
                                                           game="hazari", result="won")),
            ("list: player + opponent", lambda: _get(http, "/api/matches", player=REGULARS[0],
                                                      opponent=REGULARS[1])),
            ("list: next page by cursor", lambda: _get(http, "/api/matches", player=REGULARS[0],
                                                        before=next(pages))),
            ("list: all matches of a game", lambda: _get(http, "/api/matches", game="azi")),
            ("detail: one match", lambda: _get(http, f"/api/matches/{next(picks)}")),
            ("profile with statistics", lambda: _get(http, f"/api/players/{REGULARS[0]}")),
            ("leaderboard", lambda: _get(http, "/api/leaderboard", game="hazari")),
        ]
        for name, call in calls:
            p50, p99 = timed(call, repeat)
            results.append((name, p50, p99))
        start = time.perf_counter()
        lines = len(_get(http, f"/api/players/{REGULARS[0]}/matches.ndjson").text.splitlines())
        stream = (time.perf_counter() - start) * 1000
        results.append((f"NDJSON: all {lines} matches of a regular (one call)", stream, stream))
    return results


async def plans(url: str) -> list[str]:
    engine = make_engine(url)
    regular, other = REGULARS
    shapes = [HistoryFilter(player=regular), HistoryFilter(player=regular, game="hazari", result="won"),
              HistoryFilter(player=regular, opponent=other), HistoryFilter(game="azi")]
    found = []
    try:
        async with make_sessionmaker(engine)() as session:
            for shape in shapes:
                plan = await explain_list(session, shape)
                found.append(f"{shape}:\n    " + plan.replace("\n", "\n    "))
    finally:
        await close_engine(engine)
    return found


def run(label: str, url: str, load: Callable[[Rows], None], rows: Rows, matches: int, repeat: int) -> None:
    migrate.upgrade(url)
    start = time.perf_counter()
    load(rows)
    print(f"\n{label}: seeded {matches:,} matches ({len(rows.tables['match_seats']):,} seats, "
          f"{len(rows.tables['actions']):,} actions) in {time.perf_counter() - start:.1f} s")
    for plan in asyncio.run(plans(url)):
        print(plan)
    print(f"{'call':<58} {'p50 ms':>8} {'p99 ms':>8}")
    for name, p50, p99 in measure(url, matches, repeat):
        print(f"{name:<58} {p50:8.2f} {p99:8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=300, help="timed calls of each kind")
    parser.add_argument("--sqlite", type=Path, default=Path("/tmp/cardroom_bench.db"))
    parser.add_argument("--postgres", default="postgresql+asyncpg://postgres@127.0.0.1:5432/cardroom_bench")
    parser.add_argument("--skip-postgres", action="store_true")
    args = parser.parse_args()
    start = time.perf_counter()
    rows = generate(args.matches)
    print(f"generated {args.matches:,} matches in {time.perf_counter() - start:.1f} s")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{args.sqlite}{suffix}").unlink(missing_ok=True)
    run("SQLite", f"sqlite+aiosqlite:///{args.sqlite}", lambda data: load_sqlite(args.sqlite, data), rows,
        args.matches, args.repeat)
    if not args.skip_postgres:
        dsn = asyncio.run(fresh_postgres(args.postgres))
        run("PostgreSQL", args.postgres, lambda data: asyncio.run(load_postgres(dsn, data)), rows,
            args.matches, args.repeat)


if __name__ == "__main__":
    main()
