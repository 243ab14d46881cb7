"""The pseudo-locale en-XA over every page: every text of the catalogs comes out accented and in
brackets (⟦Ļöbbý···⟧), so any English word left on a page (in its text, or in a label, title or
placeholder a screen reader or a pointer shows) is a string that escaped the catalogs. The players
here have Cyrillic names, so that no name of theirs looks like an escaped English word."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from support.browser import DESKTOP, PHONE, SHOTS, assert_no_sideways_scroll, browser_server, laid_out
from support.hazari import GROUPS, SEAT_ONE_WINS, hand_text
from support.live import LiveClient, LiveServer, seat_live

ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
PSEUDO = re.compile(r"\u27e6[^\u27e7]*\u27e7")
# Printed on the card itself, as on real cards everywhere; and the site's name.
NOT_TRANSLATED = {"JOKER", "cardroom"}
PAGE_TEXTS = """() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || element.closest("script, style, noscript, [translate='no']")) continue;
    if (!element.checkVisibility({ visibilityProperty: true }) && !element.closest(".sr-only")) continue;
    if (node.textContent.trim()) texts.push(node.textContent.trim());
  }
  for (const element of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    if (element.closest("[translate='no']")) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = element.getAttribute(name);
      if (value && value.trim()) texts.push(value.trim());
    }
  }
  texts.push(document.title);
  return texts;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, chromium: Path) -> Iterator[LiveServer]:
    """A server of this module's own: no other test's players (whose names are English words)
    appear in its lobby or leaderboard."""
    with browser_server(tmp_path_factory.mktemp("pseudo-locale-server")) as live:
        yield live


def escaped(page: Page) -> list[str]:
    """The texts of the page with an English word outside the pseudo-locale's brackets."""
    texts: list[str] = page.evaluate(PAGE_TEXTS)
    return sorted({text for text in texts
                   if set(ENGLISH_WORD.findall(PSEUDO.sub(" ", text))) - NOT_TRANSLATED})


def sign_in_page(page: Page, server: LiveServer, player: LiveClient, name: str) -> None:
    page.goto(f"{server.base}/?lang=en-XA#/")
    page.evaluate("(saved) => localStorage.setItem('cardroom.player', saved)",
                  json.dumps({"id": player.id, "name": name, "token": player.token}))


def check(page: Page, server: LiveServer, hash_: str, ready: str, name: str) -> None:
    """Opens ``hash_`` in en-XA, waits for ``ready``, and finds no English left, at both sizes."""
    page.goto(f"{server.base}/#{hash_}")
    expect(page.locator(ready).first).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en-XA")
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        laid_out(page)
        assert escaped(page) == [], f"English left on {name} ({label})"
        page.screenshot(path=str(SHOTS / f"pseudo-{name}-{label}.png"))
    assert_no_sideways_scroll(page, f"pseudo-{name}")


def hazari_match(server: LiveServer, players: list[LiveClient]) -> tuple[str, str]:
    """Four people play a one-deal Hazari match (seat 1 wins); the room and the match."""
    room = server.post("/api/rooms", {"game": "hazari", "private": True, "options": {
        "target": 300, "decks": [SEAT_ONE_WINS], "first_dealer": 0}}, token=players[0].token)
    seat_live(players, room["id"])
    players[0].send({"type": "start"})
    for player in players:
        state = player.state_where(lambda m: m["view"]["phase"] == "arranging")
        player.send({"type": "act", "action": {"kind": "up", "groups": GROUPS[hand_text(state)]}})
    final = players[0].state_where(lambda m: m["room"]["status"] == "finished")
    return str(room["id"]), str(final["room"]["match_id"])


def table_with_bots(server: LiveServer, owner: LiveClient, game: str, options: dict[str, Any]) -> str:
    room = server.post("/api/rooms", {"game": game, "private": True, "options": options}, token=owner.token)
    owner.connect(room["id"])
    owner.send({"type": "sit", "seat": 0, **({"buy_in": 300} if game == "azi" else {})})
    owner.state_where(lambda m: m["room"]["seats"][0]["player_id"] == owner.id)
    seats = 4 if game != "azi" else 3
    for seat in range(1, seats):
        owner.send({"type": "add_bot", "seat": seat, "level": "strong"})
    owner.state_where(lambda m: all(s["name"] for s in m["room"]["seats"][:seats]))
    return str(room["id"])


def test_no_english_escapes_the_catalogs_on_any_page(page: Page, browser: Browser,
                                                     server: LiveServer) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    names = ["Ада", "Бен", "Вера", "Гоги"]
    players = [LiveClient(server, name) for name in names]
    try:
        waiting = table_with_bots(server, players[0], "hazari", {"first_dealer": 3})
        sign_in_page(page, server, players[0], names[0])
        check(page, server, "/", "#main form", "lobby")
        check(page, server, f"/room/{waiting}", ".table-page[data-phase='waiting']", "hazari-waiting")
        players[0].send({"type": "start"})
        check(page, server, f"/room/{waiting}", ".table-page[data-phase='arranging'] .hand-box .card",
              "hazari-arranging")
        pepper = table_with_bots(server, players[0], "hasenpfeffer", {"first_dealer": 3})
        players[0].send({"type": "start"})
        check(page, server, f"/room/{pepper}", ".table-page[data-my-turn='1']", "hasenpfeffer-bidding")
        azi = table_with_bots(server, players[0], "azi", {"first_dealer": 2})
        check(page, server, f"/room/{azi}", ".table-page[data-phase='waiting']", "azi-waiting")
        players[0].send({"type": "start"})
        check(page, server, f"/room/{azi}", ".table-page[data-my-turn='1']", "azi-decision")
        room_id, match_id = hazari_match(server, players)
        check(page, server, f"/room/{room_id}", "#match-over", "hazari-finished")
        check(page, server, f"/match/{match_id}", "#main h1", "match")
        check(page, server, f"/replay/{match_id}/3", "#main h1", "replay")
        check(page, server, "/history", "#main h1", "history")
        check(page, server, f"/player/{players[0].id}", "#main h1", "profile")
        check(page, server, "/leaderboard", "#main h1", "leaderboard")
        check(page, server, "/account", "#main h1", "account")
        check(page, server, "/rules", "#main h1", "rules")
        guest_context = browser.new_context(viewport=DESKTOP)
        try:
            guest = guest_context.new_page()
            guest.goto(f"{server.base}/?lang=en-XA#/")
            check(guest, server, f"/join/{azi}", "#main form", "invited-name-form")
            check(guest, server, f"/watch/{pepper}", ".table-page", "hasenpfeffer-watching")
        finally:
            guest_context.close()
    finally:
        for player in players:
            player.close()
