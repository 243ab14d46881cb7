"""Time a player can see: the acting seat and the docked bar count down (ARIA role timer), urgent in
the last ten seconds; when the time is up the player is told in words what was done for him. At a
desktop and a phone size, the countdown, the notice and the button that takes the seat back are
inside the screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from support.browser import DESKTOP, PHONE, SHOTS, add_bots, in_view, seated_in_new_room, shoot, start
from support.live import LiveServer

pytestmark = pytest.mark.browser

ARRANGE_SECONDS = 3
SIZES = {"desktop": DESKTOP, "phone": PHONE}
NOTICE = "#messages .message[data-scope='timeout']"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_arrangement_counts_down_and_a_timeout_is_told_in_words(page: Page, server: LiveServer,
                                                                    size: str) -> None:
    page.set_viewport_size(SIZES[size])
    # The longest match there is: the autopilot, dealing without pauses here, must not finish it.
    options = {"first_dealer": 0, "arrange_seconds": ARRANGE_SECONDS, "target": 10_000}
    seated_in_new_room(page, server, "Tia", "hazari", options)
    add_bots(page, 3)
    start(page)

    bar_timer = page.locator("#dock").get_by_role("timer")
    expect(bar_timer).to_have_text(re.compile(r"^Time left: \d+ s$"))
    expect(bar_timer).to_have_class(re.compile(r"\burgent\b"))
    expect(page.locator(".seat.mine").get_by_role("timer")).to_have_text(re.compile(r"^\d+ s$"))
    in_view(page, "#dock [role=timer]", "the countdown", size)

    notice = page.locator("#messages").get_by_text(re.compile("Time ran out")).first
    expect(notice).to_be_visible(timeout=(ARRANGE_SECONDS + 15) * 1000)
    assert "autopilot" in notice.inner_text()
    expect(page.locator("#messages").get_by_text(re.compile("Time ran out"))).to_have_count(1)
    in_view(page, NOTICE, "the notice that time ran out", size)

    # A second decision missed in a row: the autopilot keeps the seat until one tap takes it back.
    take_back = page.get_by_role("button", name="Take my seat back")
    expect(take_back).to_be_visible(timeout=(ARRANGE_SECONDS + 30) * 1000)
    expect(page.locator(".seat.mine .badge.autopilot")).to_be_visible()
    in_view(page, "#take-seat-back", "the button that takes the seat back", size)
    in_view(page, NOTICE, "the notice that the autopilot plays", size)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"hazari-timed-out-{size}.png"))
    take_back.click()
    expect(take_back).to_have_count(0)
    expect(page.locator(".seat.mine .badge.autopilot")).to_have_count(0)
    expect(page.locator("#messages").get_by_text(re.compile("Time ran out"))).to_have_count(0)
    if size == "desktop":
        shoot(page, "hazari-seat-taken-back")
