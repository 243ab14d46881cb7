"""The lobby and a table in the pseudo-locale (en-XA), where every catalog text is accented and
bracketed: the lobby, the name forms, the table's header and room details, its seats and badges, the
waiting controls and the finished banner show no plain English, player names aside; the page's
title comes from the catalog; and the longer words push nothing sideways at 390 px."""

from __future__ import annotations

from browser_support import PHONE, add_bots, laid_out, open_lobby, shoot, start
from live import LiveServer
from playwright.sync_api import Browser, Page, expect
from test_rematch_page import ONE_DEAL, arrange_and_show

# Texts in ``root`` (and its labels, placeholders and titles) with two plain letters in a row
# outside a catalog message, once the names given are taken out.
PLAIN_ENGLISH = """([root, names]) => {
  const plain = (text) => {
    let rest = text;
    for (const name of names) rest = rest.split(name).join("");
    return !text.includes("\\u27e6") && /[A-Za-z]{2}/.test(rest);
  };
  const found = [];
  for (const box of document.querySelectorAll(root)) {
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const text = walker.currentNode.textContent.trim();
      if (text && plain(text)) found.push(text);
    }
    for (const node of [box, ...box.querySelectorAll("*")]) {
      for (const name of ["aria-label", "placeholder", "title", "alt"]) {
        const value = node.getAttribute(name);
        if (value && plain(value)) found.push(`${name}: ${value}`);
      }
    }
  }
  return found;
}"""
NAMES = ["Ana", "Ben"]


def plain_english(page: Page, root: str = "main") -> list[str]:
    found: list[str] = page.evaluate(PLAIN_ENGLISH, [root, NAMES])
    return found


def in_pseudo(page: Page, server: LiveServer, place: str) -> None:
    page.goto(f"{server.base}/?lang=en-XA#{place}")
    expect(page.locator("html")).to_have_attribute("lang", "en-XA")


def no_sideways_scroll_on_a_phone(page: Page, name: str) -> None:
    size = page.viewport_size
    page.set_viewport_size(PHONE)
    laid_out(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    if size:
        page.set_viewport_size(size)
    assert width <= PHONE["width"], f"{name}: the page is {width} px wide on a {PHONE['width']} px screen"


def test_the_lobby_and_a_waiting_table_in_the_pseudo_locale(page: Page, browser: Browser,
                                                             server: LiveServer) -> None:
    in_pseudo(page, server, "/")
    expect(page.locator("#player-name")).to_be_visible()
    assert page.title().startswith("\u27e6")
    assert plain_english(page) == []
    assert (page.locator("#player-nav").get_attribute("aria-label") or "").startswith("\u27e6")

    page.goto(f"{server.base}/?lang=en#/")
    owner = open_lobby(page, server, "Ana")
    room = server.post("/api/rooms", {"game": "hasenpfeffer", "options": {}}, token=owner["token"])
    in_pseudo(page, server, "/")
    expect(page.locator(f".room-item[data-room='{room['id']}']")).to_be_visible()
    expect(page.locator("#lobby-chips")).to_have_text("1,000")
    page.locator("#options-drawer summary").click()
    assert plain_english(page) == []
    no_sideways_scroll_on_a_phone(page, "the lobby in en-XA")
    shoot(page, "pseudo-lobby")

    page.locator(".create-form button[type=submit]").click()
    expect(page.locator(".seat.mine")).to_be_visible()
    page.locator(".seat.empty [data-focus^='bot-']").first.click()
    expect(page.locator(".seat.bot")).to_have_count(1)
    page.locator("#room-details summary").click()
    assert plain_english(page) == []
    no_sideways_scroll_on_a_phone(page, "a waiting table in en-XA")
    shoot(page, "pseudo-table-waiting")
    table = page.url.split("#/room/")[1]

    guest = browser.new_context().new_page()
    try:
        in_pseudo(guest, server, f"/room/{table}")
        expect(guest.locator("#watch-only")).to_be_visible()
        assert plain_english(guest) == []
        guest.locator("#watch-only").click()
        expect(guest.locator(".waiting-controls a[href='#/']")).to_be_visible()
        assert plain_english(guest) == []
    finally:
        guest.context.close()


def test_a_finished_match_in_the_pseudo_locale(page: Page, server: LiveServer) -> None:
    owner = open_lobby(page, server, "Ana")
    room = server.post("/api/rooms", {"game": "hazari", "options": ONE_DEAL, "private": True},
                       token=owner["token"])
    page.goto(f"{server.base}/?lang=en#/room/{room['id']}")
    page.locator(".seat[data-seat='0']").get_by_role("button", name="Sit here").click()
    add_bots(page, 3)
    start(page)
    arrange_and_show(page)
    expect(page.locator("#match-over")).to_contain_text("Match over. Winner: Bot 2 (strong).")
    in_pseudo(page, server, f"/room/{room['id']}")
    expect(page.locator("#play-again")).to_be_visible()
    for part in ("#match-over", ".table-head", ".seat-name", ".badges"):
        assert plain_english(page, part) == [], part
    no_sideways_scroll_on_a_phone(page, "a finished table in en-XA")
