"""An invitation as two people use it, each in a browser of his own: the host copies the invite link,
the guest opens it, gives a name and is seated in the first free seat, and the host is told; the
guest's one tap to watch instead frees the seat; when the guest's page closes, the host's table shows
his seat waiting for him with the seconds left. A plain link to the room seats nobody."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, BrowserContext, Page, expect
from support.browser import DESKTOP, PHONE, add_bots, create_room_in_lobby, open_lobby, shoot
from support.live import LiveServer


def invite_link(page: Page, context: BrowserContext, server: LiveServer) -> str:
    """The link the room details' "Copy link" puts on the clipboard (the same as the box shows)."""
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    page.locator("#room-details summary").click()
    shown = page.locator("#share-link").input_value()
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("#messages")).to_contain_text("Link copied.")
    copied: str = page.evaluate("navigator.clipboard.readText()")
    assert copied == shown
    page.locator("#room-details summary").click()
    return copied


def test_an_invited_guest_is_seated_can_watch_instead_and_is_waited_for(
        page: Page, context: BrowserContext, browser: Browser, server: LiveServer) -> None:
    open_lobby(page, server, "Ana")
    room_id = create_room_in_lobby(page, "hazari", private=True)
    link = invite_link(page, context, server)
    assert link == f"{server.base}/#/join/{room_id}"

    guest_context = browser.new_context(viewport=PHONE)
    try:
        guest = guest_context.new_page()
        guest.goto(link)
        expect(guest.get_by_role("heading", name="Choose a name to take your seat")).to_be_visible()
        expect(guest.get_by_role("button", name="Just watch")).to_be_visible()
        guest.get_by_role("textbox", name="Name").fill("Ben")
        guest.get_by_role("button", name="Play").click()

        expect(guest.locator(".seat.mine")).to_have_attribute("data-seat", "1")
        expect(guest.locator("#join-notice")).to_contain_text("You took seat 2.")
        expect(guest).to_have_url(re.compile(f"#/room/{room_id}$"))
        expect(page.locator("#messages")).to_contain_text("Ben joined, in seat 2.")
        expect(page.locator(".seat[data-seat='1']")).to_contain_text("Ben")
        shoot(guest, "invitation-seated")

        guest.get_by_role("button", name="Just watch instead").click()
        expect(page.locator(".seat[data-seat='1']")).to_have_class(re.compile(r"\bempty\b"))
        expect(page.locator("#messages")).to_contain_text("Ben left the table.")
        expect(guest.locator(".seat.mine")).to_have_count(0)
        expect(guest.locator("#join-notice")).to_have_count(0)
        expect(guest.locator("#messages")).to_contain_text("You gave up your seat and are watching.")

        guest.locator(".seat[data-seat='1']").get_by_role("button", name="Sit here").click()
        expect(guest.locator(".seat.mine")).to_have_attribute("data-seat", "1")
        guest.close()
        waiting = page.locator(".seat[data-seat='1'] .waiting-badge")
        expect(waiting).to_have_text(re.compile(r"^waiting for Ben, \d+ s$"))
        expect(waiting).to_have_attribute("role", "timer")
        seconds = int(re.findall(r"\d+", waiting.inner_text())[0])
        assert 0 < seconds <= 60
        expect(page.locator("#messages")).to_contain_text("Ben left the table.")
        shoot(page, "invitation-waiting-seat")
    finally:
        guest_context.close()


def test_a_plain_room_link_seats_nobody_and_a_full_table_is_watched(page: Page, browser: Browser,
                                                                       server: LiveServer) -> None:
    open_lobby(page, server, "Cleo")
    room_id = create_room_in_lobby(page, "hazari", private=True)
    other_context = browser.new_context(viewport=DESKTOP)
    try:
        other = other_context.new_page()
        open_lobby(other, server, "Dan")
        other.goto(f"{server.base}/#/room/{room_id}")
        expect(other.locator(".seat[data-seat='1']").get_by_role("button", name="Sit here")).to_be_visible()
        expect(other.locator(".seat.mine")).to_have_count(0)

        add_bots(page, 3)
        expect(other.locator(".seat.empty")).to_have_count(0)
        other.goto(f"{server.base}/#/join/{room_id}")
        expect(other.locator("#messages")).to_contain_text(
            "Every seat at this table is taken, so you are watching.")
        expect(other.locator(".seat.mine")).to_have_count(0)
    finally:
        other_context.close()
