"""The hand and the controls in view: at each screen size (two desktops, two phones upright, a phone
held sideways) and in every decision of every game, the region "Your hand" and the control that acts
lie inside the viewport without any scrolling. The games start from fixed decks and dealers, so the
person meets each decision in the same way every run."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from support.azi import azi_deck_for
from support.browser import (
    SHOTS,
    add_bots,
    confirm_big_bet,
    in_view,
    laid_out,
    seated_in_new_room,
    serious_violations,
    start,
    version,
    wait_version_after,
)
from support.live import LiveServer

pytestmark = pytest.mark.browser

SIZES = {
    "desktop": {"width": 1280, "height": 800},
    "laptop": {"width": 1366, "height": 768},
    "phone": {"width": 390, "height": 844},
    "small-phone": {"width": 360, "height": 640},
    "landscape": {"width": 844, "height": 390},
}

HASENPFEFFER_HANDS = {
    0: ["JK", "JS", "9H", "10H", "9D", "9C"],
    1: ["AH", "KH", "QH", "JH", "AS", "KS"],
    2: ["QS", "10S", "9S", "AD", "KD", "QD"],
    3: ["JD", "10D", "AC", "KC", "QC", "10C"],
}
AZI_BUTTON = 2
AZI_FIRST_DEAL = {0: "6H 8H 7S 8S", 1: "AH KH QH JH", 2: "6D 7D 8D 7H"}


def hasenpfeffer_deck() -> list[str]:
    deck: list[str] = []
    for packet in range(2):
        for seat in range(4):
            deck += HASENPFEFFER_HANDS[seat][3 * packet:3 * packet + 3]
    return [*deck, "JC"]


def sit_and_start(page: Page, server: LiveServer, game: str, options: dict[str, object], bots: int) -> None:
    seated_in_new_room(page, server, "Vera", game, {**options, "turn_seconds": 0})
    add_bots(page, bots)
    start(page)


def check_every_size(page: Page, name: str, control: str) -> None:
    """At each size, unscrolled: the whole hand and ``control`` in view; a screenshot of each; and
    nothing serious for axe-core at the phone size."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        laid_out(page)
        page.screenshot(path=str(SHOTS / f"in-view-{name}-{size}.png"))
        in_view(page, "[role=region][aria-label='Your hand']", "the hand", f"{name} {size}")
        in_view(page, control, f"the control {control}", f"{name} {size}")
        if size == "phone":
            assert not serious_violations(page, name)
    page.set_viewport_size(SIZES["desktop"])


def test_hazari_arrangement_in_view(page: Page, server: LiveServer) -> None:
    sit_and_start(page, server, "hazari", {"target": 5, "first_dealer": 0}, 3)
    expect(page.locator(".hand-box .card")).to_have_count(13)
    check_every_size(page, "hazari-arranging", "#hz-up")
    page.get_by_role("button", name="Suggest").click()
    expect(page.locator("#hz-verdict")).to_contain_text("Valid arrangement")
    check_every_size(page, "hazari-arranged", "#hz-up")


def test_azi_decisions_in_view(page: Page, server: LiveServer) -> None:
    options = {"hand_size": 4, "stake": 10, "first_dealer": AZI_BUTTON,
               "decks": [azi_deck_for(AZI_FIRST_DEAL, AZI_BUTTON, 3)]}
    sit_and_start(page, server, "azi", options, 2)
    expect(page.locator(".hand-row .card")).to_have_count(4)
    expect(page.locator("#azi-discard")).to_be_visible()
    page.locator(".hand-row .card").first.click()
    expect(page.locator("#azi-discard")).to_be_enabled()
    check_every_size(page, "azi-discard", "#azi-discard")
    page.locator("#azi-discard").click()
    expect(page.locator("#azi-bet")).to_be_visible()
    check_every_size(page, "azi-betting", "#azi-bet")
    page.locator("#azi-bet").click()
    page.wait_for_function("() => document.querySelector('.hand-row .card.playable')"
                           " || document.querySelector('#azi-call')")
    if page.locator("#azi-call").count():
        check_every_size(page, "azi-call", "#azi-call")
        page.locator("#azi-call").click()
        confirm_big_bet(page)
    expect(page.locator(".hand-row .card.playable").first).to_be_visible()
    check_every_size(page, "azi-play", ".hand-row .card.playable")


def test_hasenpfeffer_decisions_in_view(page: Page, server: LiveServer) -> None:
    options = {"decks": [hasenpfeffer_deck()], "first_dealer": 3, "target": 1}
    sit_and_start(page, server, "hasenpfeffer", options, 3)
    expect(page.locator("#hp-bidding [data-bid='6']")).to_be_visible()
    check_every_size(page, "hasenpfeffer-bidding", "#hp-bidding [data-bid='pass']")
    page.locator("#hp-bidding [data-bid='6']").click()
    chooser = page.locator(".trump-chooser")
    expect(chooser).to_be_visible()
    check_every_size(page, "hasenpfeffer-trump", ".trump-chooser [data-suit='C']")
    before = version(page)
    chooser.get_by_role("button", name="spades").click()
    wait_version_after(page, before)
    expect(page.locator("#hp-discard")).to_be_visible()
    page.locator(".hand-row [data-card='JC']").click()
    expect(page.locator("#hp-discard")).to_be_enabled()
    check_every_size(page, "hasenpfeffer-discard", "#hp-discard")
    page.locator("#hp-discard").click()
    expect(page.locator(".hand-row .card.playable").first).to_be_visible()
    check_every_size(page, "hasenpfeffer-play", ".hand-row .card.playable")
