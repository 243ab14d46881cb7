"""After a test run: fails if anything the run started is still there.

    python scripts/leftovers.py RUN_ID TMPDIR POSTGRES_URL

* processes: every process the run started carries ``CARDROOM_RUN_ID=RUN_ID`` in its environment
  (servers, bot workers, Chromium, pytest workers), so any such process still alive, other than this
  check and the shells above it, was left behind;
* temporary folders: the run's ``TMPDIR`` must hold nothing but pytest's own base folder;
* databases: no per-worker test database (``<name>_gw<N>``) of POSTGRES_URL's database may remain.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from app.db.session import close_engine

PYTEST_BASE = re.compile(r"pytest-of-.*")


def ancestors() -> set[int]:
    found, pid = set(), os.getpid()
    while pid > 1:
        found.add(pid)
        stat = (Path("/proc") / str(pid) / "stat").read_text()
        pid = int(stat.rsplit(")", 1)[1].split()[1])
    return found


def processes_of_run(run_id: str) -> list[str]:
    marker = f"CARDROOM_RUN_ID={run_id}".encode()
    mine = ancestors()
    left = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in mine:
            continue
        try:
            if marker not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        left.append(f"process {entry.name}: {command.strip()[:160]}")
    return left


def temporary_folders(folder: Path) -> list[str]:
    return [f"temporary {path}" for path in sorted(folder.iterdir()) if not PYTEST_BASE.fullmatch(path.name)]


async def worker_databases(url: str) -> list[str]:
    base = make_url(url)
    engine = create_async_engine(base)
    try:
        async with engine.connect() as connection:
            names = (await connection.execute(
                text("SELECT datname FROM pg_database WHERE datname LIKE :pattern"),
                {"pattern": f"{base.database}\\_gw%"})).scalars().all()
    finally:
        await close_engine(engine)
    return [f"database {name}" for name in names]


def main() -> int:
    run_id, folder, url = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    left = processes_of_run(run_id) + temporary_folders(folder) + asyncio.run(worker_databases(url))
    for line in left:
        print(f"LEFT BEHIND: {line}")
    if not left:
        print("nothing left behind: no process, temporary folder or test database of the run remains")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
