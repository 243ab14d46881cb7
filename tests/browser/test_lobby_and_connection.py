"""The lobby (a kept guest, the open rooms, every table option, private rooms joined by link) and
the connection (the banner, automatic reconnection and the table restored after a server
restart)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from support.browser import (
    DESKTOP,
    add_bots,
    bring_chips,
    browser_server,
    create_room_in_lobby,
    expect_error,
    hand,
    open_lobby,
    shoot,
    start,
    watch_policy_violations,
)
from support.live import LiveServer

pytestmark = pytest.mark.browser


def test_lobby_rooms_options_and_a_shared_link(page: Page, browser: Browser, server: LiveServer) -> None:
    open_lobby(page, server, "Lena")
    page.reload()
    expect(page.locator("#who")).to_contain_text("Lena")
    expect(page.locator("#lobby-chips")).to_have_text("1,000")
    expect(page.locator("#my-chips")).to_have_text("Wallet 1,000 chips")

    # Someone else's public room is listed with its game, options and free seats.
    other = server.post("/api/players", {"name": "Otto"})
    room = server.post("/api/rooms", {"game": "hasenpfeffer", "options": {"bidding": "pepper"}},
                       token=other["token"])
    page.get_by_role("button", name="Refresh").click()
    item = page.locator(f"[data-room='{room['id']}']")
    expect(item).to_contain_text("Hasenpfeffer")
    expect(item).to_contain_text("Bids: 1 to 5, Little Pepper and Big Pepper")
    expect(item).to_contain_text("4 of 4 seats free")
    expect(item.get_by_role("link", name="Join")).to_have_attribute("href", f"#/room/{room['id']}")

    # The form offers every table option of the chosen game with its default.
    games = {game["game"]: game for game in server.get("/api/games")}  # type: ignore[union-attr]
    for name in ("hazari", "azi", "hasenpfeffer"):
        page.get_by_label("Game", exact=True).select_option(name)
        for spec in games[name]["options"]:
            field = page.locator(f"[data-option='{spec['name']}']")
            expect(field).to_have_count(1)
            if spec["default"] is not None and "choices" not in spec["allowed"]:
                expect(field).to_have_value(str(spec["default"]))
    shoot(page, "lobby")

    # A private room: not listed, joined by its link from another browser.
    room_id = create_room_in_lobby(page, "azi", private=True)
    link = page.locator("#share-link").input_value()
    assert link.endswith(f"#/join/{room_id}")
    expect(page.locator(".table-page")).to_contain_text("Private room")
    page.get_by_role("link", name="Lobby").click()
    page.get_by_role("button", name="Refresh").click()
    expect(page.locator("#room-list")).not_to_contain_text("Loading")
    expect(page.locator(f"[data-room='{room_id}']")).to_have_count(0)

    friend_context = browser.new_context(viewport=DESKTOP)
    violations = watch_policy_violations(friend_context)
    try:
        friend = friend_context.new_page()
        friend.goto(link)
        expect(friend.get_by_role("heading", name="Choose a name to take your seat")).to_be_visible()
        friend.get_by_role("textbox", name="Name").fill("Fritz")
        friend.get_by_role("button", name="Play").click()
        # The invitation seats him with the buy-in the dialog offers first: the most his wallet allows.
        expect(friend.locator(".seat.mine")).to_contain_text(re.compile(r"You bring [\d,]+ chips"))
        expect(friend.locator("#buy-in")).to_have_count(0)
        friend.get_by_role("button", name="Just watch instead").click()
        expect(friend.locator(".seat.mine")).to_have_count(0)
        friend.locator(".seat.empty").first.get_by_role("button", name="Sit here").click()
        bring_chips(friend, 300)
        expect(friend.locator(".seat.mine")).to_contain_text("Fritz")
        expect(friend.locator(".seat.mine")).to_contain_text("You bring 300 chips")
        expect(friend.locator("#my-table-chips")).to_have_text("300 chips at the table")
        expect(friend.locator("#start-button")).to_have_count(0)
        expect(friend.get_by_text("The room's owner adds bots and starts the match.")).to_be_visible()
        page.goto(link)
        expect(page.locator(".seat", has_text="Fritz")).to_contain_text("online")
        expect(page.locator("#start-button")).to_contain_text("2 seated")
    finally:
        friend_context.close()
    expect(page.locator(".seat", has_text="Fritz")).to_contain_text(re.compile(r"waiting for Fritz, \d+ s"))
    assert violations == []

    page.get_by_role("link", name="My matches").click()
    expect(page.locator("#match-list")).to_contain_text("No matches yet.")


def test_the_table_comes_back_after_a_server_restart(page: Page, tmp_path: Path) -> None:
    with browser_server(tmp_path) as server:
        open_lobby(page, server, "Rita")
        create_room_in_lobby(page, "hazari")
        add_bots(page, 3)
        start(page)
        expect(page.locator(".hand-box .card")).to_have_count(13)
        cards = sorted(hand(page, ".hand-box"))

        server.kill()
        banner = page.locator("#conn-banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Reconnecting...")
        expect(page.locator("#conn-status")).to_have_text("Reconnecting\u2026")
        page.get_by_role("button", name="Suggest").click()
        expect_error(page, "client/offline")
        shoot(page, "reconnecting")

        server.start()
        expect(banner).to_be_hidden(timeout=30_000)
        expect(page.locator("#conn-status")).to_have_text("Connected")
        expect(page.locator(".table-page")).to_have_attribute("data-phase", "arranging")
        # The socket's first state after the reconnect may be the one a spectator gets, before its
        # sign-in is answered with the seat's own.
        expect(page.locator(".hand-box .card")).to_have_count(13)
        assert sorted(hand(page, ".hand-box")) == cards
        page.get_by_role("button", name="Suggest").click()
        expect(page.locator("#hz-verdict")).to_contain_text("Valid arrangement")
