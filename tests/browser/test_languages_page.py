"""The interface in the players' languages: a browser set to a language opens the lobby and a table in
it (``<html lang>`` right, the words from that language's catalog, every glyph drawn); ``?lang=`` in a
link overrides and is remembered; the header's switch changes the language in one tap and a claimed
account keeps the choice on the server."""

from __future__ import annotations

import json

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from support.browser import DESKTOP, PHONE, SHOTS, catalog, laid_out, missing_glyphs, open_lobby
from support.live import LiveClient, LiveServer

from app.languages import catalog_languages

TRANSLATED = [code for code in catalog_languages() if code != "en"]
# The browser's language as a person in each country sets it.
BROWSER_LOCALES = {"bn": "bn-BD", "hi": "hi-IN", "ru": "ru-RU", "ka": "ka-GE", "kk": "kk-KZ",
                   "el": "el-GR", "pl": "pl-PL", "de": "de-AT"}


# The game each language's players came for.
HOME_GAMES = {"bn": "hazari", "hi": "hazari", "ru": "azi", "ka": "azi", "kk": "azi", "el": "azi",
              "pl": "hasenpfeffer", "de": "hasenpfeffer"}


def bot_table(server: LiveServer, owner: LiveClient, game: str) -> str:
    """``owner`` at seat 0 of a table of ``game`` with strong bots, the match started."""
    room = server.post("/api/rooms", {"game": game, "private": True, "options": {}}, token=owner.token)
    owner.connect(room["id"])
    owner.send({"type": "sit", "seat": 0, **({"buy_in": 300} if game == "azi" else {})})
    seats = 3 if game == "azi" else 4
    for seat in range(1, seats):
        owner.send({"type": "add_bot", "seat": seat, "level": "strong"})
    owner.state_where(lambda m: all(s["name"] for s in m["room"]["seats"][:seats]))
    owner.send({"type": "start"})
    owner.state_where(lambda m: m["view"]["phase"] != "waiting")
    owner.close()
    return str(room["id"])


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_browser_in_a_language_gets_the_lobby_and_a_table_in_it(browser: Browser, server: LiveServer,
                                                                     code: str) -> None:
    words = catalog(code)
    owner = LiveClient(server, "Ana")
    game = HOME_GAMES[code]
    room_id = bot_table(server, owner, game)
    context = browser.new_context(viewport=DESKTOP, locale=BROWSER_LOCALES[code])
    try:
        page = context.new_page()
        page.goto(f"{server.base}/")
        expect(page.locator("html")).to_have_attribute("lang", code)
        expect(page.locator("#player-nav a[href='#/']")).to_have_text(words["nav.lobby"])
        expect(page.locator("#language-switch")).to_have_value(code)
        assert missing_glyphs(page.locator("body")) == []
        page.evaluate("(saved) => localStorage.setItem('cardroom.player', saved)",
                      json.dumps({"id": owner.id, "name": "Ana", "token": owner.token}))
        page.goto(f"{server.base}/#/room/{room_id}")
        expect(page.locator(".dock .card").first).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", code)
        expect(page.locator("#table-title")).to_have_text(words["table.title"].replace(
            "{game}", words[f"api.{game}"]))
        assert missing_glyphs(page.locator("body")) == []
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            laid_out(page)
            page.screenshot(path=str(SHOTS / f"language-{code}-{game}-{label}.png"))
    finally:
        context.close()


def test_a_link_with_lang_overrides_and_is_remembered(page: Page, server: LiveServer) -> None:
    code = TRANSLATED[0]
    page.goto(f"{server.base}/?lang={code}#/")
    expect(page.locator("html")).to_have_attribute("lang", code)
    page.goto(f"{server.base}/#/leaderboard")
    expect(page.locator("html")).to_have_attribute("lang", code)
    expect(page.locator("#player-nav a[href='#/']")).to_have_text(catalog(code)["nav.lobby"])


def test_the_switch_changes_the_language_and_the_account_keeps_it(page: Page, server: LiveServer) -> None:
    player = open_lobby(page, server, "Zofia")
    claimed = server.post(f"/api/players/{player['id']}/claim", {"password": "a long secret"},
                          token=player["token"])
    assert claimed["claimed"] is True
    page.locator("#language-switch").select_option("pl")
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator("#player-nav a[href='#/']")).to_have_text(catalog("pl")["nav.lobby"])
    me = httpx.get(f"{server.base}/api/sessions/me", headers={"Authorization": f"Bearer {player['token']}"})
    assert me.json()["language"] == "pl"
    other = page.context.browser.new_context(viewport=DESKTOP, locale="en-GB")
    try:
        elsewhere = other.new_page()
        elsewhere.goto(f"{server.base}/#/account")
        expect(elsewhere.locator("#player-nav a[href='#/']")).to_have_text(catalog("en")["nav.lobby"])
        expect(elsewhere.locator("html")).to_have_attribute("lang", "en")
    finally:
        other.close()
    SHOTS.mkdir(parents=True, exist_ok=True)


def test_every_plural_message_has_its_languages_forms(page: Page, server: LiveServer) -> None:
    """The forms a message with a count needs are those the browser's Intl.PluralRules uses."""
    page.goto(f"{server.base}/")
    for code in catalog_languages():
        needed = set(page.evaluate(
            "(code) => new Intl.PluralRules(code).resolvedOptions().pluralCategories", code))
        wrong = {key: sorted(message) for key, message in catalog(code).items()
                 if isinstance(message, dict) and set(message) != needed}
        assert wrong == {}, f"{code} needs the forms {sorted(needed)}"
