"""Play again as two people see it, each in a browser of his own: both accept and the next match
comes to both pages without a reload; then one leaves, the other plays again and a bot takes the
empty seat. The offer and its buttons stay in view at a desktop and a phone size."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect
from support.browser import DESKTOP, PHONE, SHOTS, add_bots, hand, in_view, laid_out, open_lobby, place, start
from support.hazari import GROUPS, SEAT_ONE_WINS
from support.live import LiveServer

ONE_DEAL = {"target": 300, "decks": [SEAT_ONE_WINS], "first_dealer": 0}


def arrange_and_show(page: Page) -> None:
    """Sets up this seat's groups of a SEAT_ONE_WINS deal, as the protocol tests do, and turns them up."""
    expect(page.locator(".hand-box .card")).to_have_count(13)
    cards = sorted(hand(page, ".hand-box"))
    groups = next(groups for text, groups in GROUPS.items() if sorted(text.split()) == cards)
    place(page, groups)
    page.get_by_role("button", name="Up", exact=True).click()


def test_two_players_play_again_then_one_leaves(page: Page, browser: Browser, server: LiveServer) -> None:
    owner = open_lobby(page, server, "Ana")
    room = server.post("/api/rooms", {"game": "hazari", "options": ONE_DEAL, "private": True},
                       token=owner["token"])
    page.goto(f"{server.base}/#/room/{room['id']}")
    page.locator(".seat[data-seat='0']").get_by_role("button", name="Sit here").click()
    friend_context = browser.new_context(viewport=PHONE)
    try:
        friend = friend_context.new_page()
        open_lobby(friend, server, "Ben")
        friend.goto(f"{server.base}/#/room/{room['id']}")
        friend.locator(".seat[data-seat='1']").get_by_role("button", name="Sit here").click()
        expect(friend.locator(".seat.mine")).to_have_attribute("data-seat", "1")
        add_bots(page, 2)
        start(page)
        for player in (page, friend):
            player.evaluate("() => { window.sameDocument = true; }")
            arrange_and_show(player)
        for player in (page, friend):
            expect(player.locator("#match-over")).to_contain_text("Match over.")
            expect(player.get_by_role("button", name="Play again")).to_be_visible()
        first = page.locator(".table-page").get_attribute("data-match")

        page.get_by_role("button", name="Play again").click()
        expect(page.locator("#match-over")).to_contain_text("You play again.")
        expect(page.locator("#rematch-waiting")).to_have_text("Waiting for: Ben.")
        expect(page.locator(".rematch [role='timer']")).to_contain_text(
            "The owner can start without the others in")
        SHOTS.mkdir(parents=True, exist_ok=True)
        expect(friend.locator("#match-over")).to_contain_text("Playing again: Ana.")
        expect(friend.locator("#rematch-waiting")).to_have_count(0)
        friend.screenshot(path=str(SHOTS / "rematch-offer-phone.png"))
        in_view(friend, "#play-again", "the Play again button", "phone")
        page.screenshot(path=str(SHOTS / "rematch-offer-desktop.png"))
        friend.get_by_role("button", name="Play again").click()

        for player in (page, friend):
            expect(player.locator(".table-page")).not_to_have_attribute("data-match", first or "")
            expect(player.locator(".table-page")).to_have_attribute("data-status", "playing")
            expect(player.locator("#messages")).to_contain_text("A new match has started.")
            assert player.evaluate("() => window.sameDocument === true"), "the page was reloaded"
            arrange_and_show(player)
        second = page.locator(".table-page").get_attribute("data-match")
        expect(friend.get_by_role("button", name="Leave the table")).to_be_visible()
        friend.get_by_role("button", name="Leave the table").click()
        expect(friend).to_have_url(f"{server.base}/#/")

        expect(page.locator("#match-over")).to_contain_text("Not playing again (a bot takes the seat): Ben.")
        page.get_by_role("button", name="Play again").click()
        expect(page.locator(".table-page")).not_to_have_attribute("data-match", second or "")
        expect(page.locator(".seat[data-seat='1']")).to_contain_text("Bot")
        expect(page.locator(".seat[data-seat='0']")).to_contain_text("Ana")
        third = page.locator(".table-page").get_attribute("data-match")
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            laid_out(page)
            in_view(page, ".hand-box", "the hand of the next match", label)
    finally:
        friend_context.close()
    listed = server.get("/api/matches", player=owner["id"])["matches"]
    assert [entry["id"] for entry in listed] == [second, first]
    assert server.get(f"/api/matches/{third}")["status"] == "running"
