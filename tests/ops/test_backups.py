"""Backups of PostgreSQL: ``scripts/backup.sh`` dumps a database that real matches were played in,
``scripts/restore.sh`` restores it into a new, empty database, and the server then tells the same
history, the same balances and the same ledger. A database that holds tables is refused."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from support import PROJECT_DIR
from support.played_matches import app_client, play_matches, what_the_server_says

from app.db import migrate

pytestmark = pytest.mark.postgres
SCRIPTS = PROJECT_DIR / "scripts"
NewDatabase = Callable[[], str]


def tools_present() -> None:
    missing = [tool for tool in ("pg_dump", "pg_restore", "psql") if shutil.which(tool) is None]
    assert not missing, f"{missing} missing: the backup scripts need Debian's postgresql-client"


def script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPTS / name), *args], capture_output=True, text=True, check=False)


def test_a_restored_backup_tells_the_same_history_balances_and_ledger(new_postgres_database: NewDatabase,
                                                                       tmp_path: Path) -> None:
    tools_present()
    source = new_postgres_database()
    migrate.upgrade(source)
    with app_client(source) as http:
        played = play_matches(http, "Bk")
        before = what_the_server_says(http, source, played)
    assert all(detail["actions"] and detail["deals"] for detail in before["matches"].values())
    assert {match["id"] for match in before["list"]["matches"]} == set(played.match_ids)
    assert before["ledger"], "the Azi session moved chips"

    dump = tmp_path / "cardroom.dump"
    backed_up = script("backup.sh", str(dump), source)
    assert backed_up.returncode == 0, backed_up.stderr
    assert dump.stat().st_size > 0 and not (tmp_path / "cardroom.dump.partial").exists()

    target = new_postgres_database()
    restored = script("restore.sh", str(dump), target)
    assert restored.returncode == 0, restored.stderr
    with app_client(target) as http:
        after = what_the_server_says(http, target, played)
    assert after == before

    again = script("restore.sh", str(dump), target)
    assert again.returncode == 1 and "already holds" in again.stderr and "empty database" in again.stderr
    with app_client(target) as http:
        assert what_the_server_says(http, target, played) == before, "a refused restore changes nothing"


def test_bad_arguments_are_refused_with_a_sentence(new_postgres_database: NewDatabase,
                                                   tmp_path: Path) -> None:
    tools_present()
    target = new_postgres_database()
    not_a_dump = tmp_path / "notes.txt"
    not_a_dump.write_text("not a backup\n")
    cases = [(script("backup.sh"), "usage"),
             (script("backup.sh", str(tmp_path / "b.dump"), "sqlite+aiosqlite:///cardroom.db"),
              "only a PostgreSQL"),
             (script("restore.sh", str(tmp_path / "missing.dump"), target), "cannot read"),
             (script("restore.sh", str(not_a_dump), target), "is not a backup")]
    for done, words in cases:
        assert done.returncode != 0 and words in done.stderr, done.stderr
    assert not (tmp_path / "b.dump").exists()
