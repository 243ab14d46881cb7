"""A person plays a whole Hasenpfeffer deal in the browser: bids, takes the widow, names trump,
discards, plays six tricks (a card that may not be played cannot be pressed), reloads in the middle,
and sees the deal scored and the game won. The room is created through the API in test mode with a
fixed deck and dealer (so that the person speaks first and holds a known hand); everything after
that happens on the page. A second test shows the pepper form of the bidding box."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from support.browser import (
    HANDS,
    WIDOW,
    add_bots,
    dismiss_messages,
    fixed_deck,
    hand,
    seated_in_new_room,
    shoot,
    start,
    version,
    wait_version_after,
)
from support.live import LiveServer

pytestmark = pytest.mark.browser


def open_room(page: Page, server: LiveServer, options: dict[str, object]) -> str:
    """The room is created for the page's player through the API; the page opens its link."""
    room_id = seated_in_new_room(page, server, "Hanne", "hasenpfeffer", options)
    add_bots(page, 3)
    start(page)
    return room_id


def my_turn_to_play(page: Page) -> None:
    page.wait_for_function(
        "() => document.querySelector('.table-page').dataset.status === 'finished'"
        " || document.querySelectorAll('.hand-row .card.playable').length > 0", timeout=20_000)


def play_card(page: Page, card: str | None = None) -> None:
    before = version(page)
    selector = f".hand-row .card[data-card='{card}']" if card else ".hand-row .card.playable"
    page.locator(selector).first.click()
    wait_version_after(page, before)


def test_a_whole_hasenpfeffer_deal_in_the_browser(page: Page, server: LiveServer) -> None:
    open_room(page, server, {"decks": [fixed_deck()], "first_dealer": 3, "target": 1})
    expect(page.locator(".seat.mine")).to_contain_text("Team A")
    partner = page.locator(".seat[data-seat='2']")
    expect(partner).to_contain_text("partner")
    expect(page.locator(".seat[data-seat='3']")).to_contain_text("dealer")
    expect(page.locator(".hand-row .card")).to_have_count(len(HANDS[0]))
    assert sorted(hand(page)) == sorted(HANDS[0])

    # The bidding box: every bid of the standard form and a pass.
    box = page.locator("#hp-bidding")
    expect(box).to_contain_text("No bid yet")
    for value in ["1", "2", "3", "4", "5", "6", "pass"]:
        expect(box.locator(f"[data-bid='{value}']")).not_to_have_attribute("aria-disabled", "true")
    shoot(page, "hasenpfeffer-bidding")
    box.locator("[data-bid='6']").click()

    # The widow, trump and the discard (the widow card itself goes).
    chooser = page.locator(".trump-chooser")
    expect(chooser).to_contain_text("You took the widow")
    expect(chooser.locator(f"[data-card='{WIDOW}']")).to_be_visible()
    expect(page.locator(".hand-row .card")).to_have_count(7)
    chooser.get_by_role("button", name="spades").click()
    expect(page.locator("#hp-trump")).to_contain_text("Trump: spades")
    expect(page.locator("#hp-discard")).to_be_disabled()
    page.locator(f".hand-row [data-card='{WIDOW}']").click()
    expect(page.locator("#hp-discard")).to_have_text("Discard J\u2663")
    page.locator("#hp-discard").click()
    expect(page.locator(".hand-row .card")).to_have_count(6)
    expect(page.locator("#hp-contract")).to_contain_text("Contract: 6 by You")

    # Trick 1: the dealer's left (the person) leads the 9 of hearts; a bot takes it.
    my_turn_to_play(page)
    expect(page.locator(".hand-row .card.playable")).to_have_count(6)
    play_card(page, "9H")

    # Trick 2: a bot leads; holding every suit, some of the person's cards cannot be pressed.
    my_turn_to_play(page)
    blocked = page.locator(".hand-row .card[aria-disabled='true']")
    assert blocked.count() >= 1
    dismiss_messages(page)
    blocked_card = blocked.first.get_attribute("data-card")
    expect(blocked.first).to_be_visible()
    blocked.first.dispatch_event("click")
    shoot(page, "hasenpfeffer-play")
    play_card(page)
    # The server answers in order: an answer to a frame sent for the blocked card would be here by
    # the time the legal card's state is. There is none, and the blocked card is still in the hand.
    expect(page.locator("#messages .message.error")).to_have_count(0)
    assert blocked_card in hand(page)

    # A reload in the middle of the deal brings the same table back.
    page.wait_for_function("() => document.querySelectorAll('.tricks-list li').length >= 2")
    kept_hand, kept_tricks = hand(page), page.locator("#hp-team-tricks").inner_text()
    page.reload()
    expect(page.locator(".hand-row .card")).to_have_count(len(kept_hand))
    assert hand(page) == kept_hand
    expect(page.locator("#hp-team-tricks")).to_have_text(kept_tricks)
    expect(page.locator("#hp-trump")).to_contain_text("Trump: spades")

    # The other four tricks, then the score: the match (to 1 point) ends with this deal.
    for _ in range(4):
        my_turn_to_play(page)
        if page.locator(".table-page").get_attribute("data-status") == "finished":
            break
        play_card(page)
    expect(page.locator(".table-page")).to_have_attribute("data-status", "finished")
    expect(page.locator(".tricks-list li")).to_have_count(6)
    expect(page.locator("#match-over")).to_contain_text("Team")
    page.wait_for_function("() => document.querySelectorAll('#hp-scores tbody tr').length === 2")
    expect(page.locator("#hp-scores tbody tr").first).to_contain_text("You bid 6")
    shoot(page, "hasenpfeffer-end")


def test_the_pepper_bidding_box(page: Page, server: LiveServer) -> None:
    open_room(page, server, {"bidding": "pepper", "first_dealer": 3})
    box = page.locator("#hp-bidding")
    for value in ["1", "5", "little_pepper", "big_pepper", "pass"]:
        expect(box.locator(f"[data-bid='{value}']")).to_be_visible()
    expect(box.locator("[data-bid='6']")).to_have_count(0)
    expect(box.get_by_role("button", name="Bid Little Pepper")).to_be_visible()
    box.locator("[data-bid='3']").click()
    expect(box.locator(".auction")).to_contain_text("You bid 3")
    expect(page.locator("#hp-high-bid, #hp-contract").first).to_be_visible()
    page.wait_for_function("() => document.querySelectorAll('#hp-bidding .auction li').length >= 2"
                           " || document.querySelector('.table-page').dataset.phase !== 'bidding'")
    bidding = page.locator(".table-page").get_attribute("data-phase") == "bidding"
    if bidding and page.locator("[data-bid='1']").count():
        # A bid that does not beat the high bid cannot be pressed.
        low = page.locator("#hp-bidding [data-bid='1']")
        expect(low).to_have_attribute("aria-disabled", "true")
    expect_no_server_error(page)


def expect_no_server_error(page: Page) -> None:
    errors = page.locator("#messages .message.error").all_inner_texts()
    assert errors == [], errors

