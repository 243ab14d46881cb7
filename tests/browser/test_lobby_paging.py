"""The lobby lists the public rooms a page at a time, newest first, with a button for more."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from support.browser import open_lobby
from support.live import LiveServer

pytestmark = pytest.mark.browser

PAGE = 50


def test_more_rooms_come_a_page_at_a_time(page: Page, server: LiveServer) -> None:
    rooms = []
    for owner_number in range(PAGE // 5 + 1):
        owner = server.post("/api/players", {"name": f"Host {owner_number}"})
        rooms += [server.post("/api/rooms", {"game": "hazari"}, token=owner["token"])["id"]
                  for _ in range(5)]
    open_lobby(page, server, "Browsing")
    listed = page.locator("#room-list [data-room]")
    expect(listed).to_have_count(PAGE)
    expect(page.locator(f"[data-room='{rooms[-1]}']")).to_have_count(1)
    expect(page.locator(f"[data-room='{rooms[0]}']")).to_have_count(0)
    page.get_by_role("button", name="More rooms").click()
    expect(page.locator(f"[data-room='{rooms[0]}']")).to_have_count(1)
    shown = listed.evaluate_all("items => items.map(item => item.dataset.room)")
    assert len(shown) == len(set(shown)) > PAGE
    assert shown.index(rooms[-1]) < shown.index(rooms[0])

    # Refreshing the list keeps the pages shown.
    latecomer = server.post("/api/players", {"name": "Latecomer"})
    newest = server.post("/api/rooms", {"game": "azi"}, token=latecomer["token"])["id"]
    page.get_by_role("button", name="Refresh").click()
    expect(page.locator(f"[data-room='{newest}']")).to_have_count(1)
    expect(page.locator(f"[data-room='{rooms[0]}']")).to_have_count(1)
    # Every room of this test is still listed, once; rooms other tests left on this server may
    # have been closed meanwhile, so the count is not compared.
    after = listed.evaluate_all("items => items.map(item => item.dataset.room)")
    assert len(after) == len(set(after))
    assert set(rooms) | {newest} <= set(after)
