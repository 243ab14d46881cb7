"""An archived match in the client: its page keeps the players, the deals' points and the result and
says in plain words why there is no replay; the replay address says the same."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from support.browser import bots_only, shoot
from support.db import OLD_DAYS, archive, backdate
from support.live import LiveClient, LiveServer

pytestmark = pytest.mark.browser


def test_an_archived_match_shows_its_result_and_no_replay(page: Page, server: LiveServer,
                                                          tmp_path: Path) -> None:
    host = LiveClient(server, "Archivist")
    match_id = bots_only(server, host, "hazari", {"target": 100}, 4)
    url = server.env["CARDROOM_DATABASE_URL"]
    # Playwright's event loop holds this thread: the database is changed from another.
    with ThreadPoolExecutor(1) as other:
        other.submit(backdate, url, [match_id], OLD_DAYS).result()
    done = archive(url, "--older-than", str(OLD_DAYS - 1), "--out", str(tmp_path / "archive.ndjson"))
    assert done.returncode == 0 and "1 matches" in done.stderr, done.stderr
    match = server.get(f"/api/matches/{match_id}")
    assert match["archived"] is True

    page.goto(f"{server.base}/#/match/{match_id}")
    expect(page.locator("#match-archived")).to_contain_text("This match was archived")
    expect(page.locator("#match-archived")).to_contain_text("cannot be replayed")
    expect(page.locator("#match-result")).to_contain_text("Won by")
    expect(page.locator("#match-deals tbody tr")).to_have_count(len(match["deals"]))
    first = page.locator("#match-deals tbody tr").first
    for value in match["deals"][0]["points"]:
        expect(first).to_contain_text(str(value))
    expect(page.locator("#replay-link")).to_have_count(0)
    expect(page.locator(".action-log")).to_have_count(0)
    expect(page.get_by_role("button", name="Verify this deal")).to_have_count(0)
    expect(page.locator("#match-detail")).not_to_contain_text("null")
    shoot(page, "archived-match")

    page.goto(f"{server.base}/#/replay/{match_id}")
    expect(page.locator("#replay-archived")).to_contain_text("This match was archived")
    expect(page.locator("#replay-slider")).to_have_count(0)
    host.close()
