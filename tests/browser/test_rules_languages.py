"""The rules pages in the players' own languages: each game's page opens in the browser's language
where it is written in it, lists the languages it has (each named in itself), remembers the one a
player picks, and falls back to English with a note that says so. The Bengali, Devanagari, Georgian,
Cyrillic (Russian and Kazakh) and Greek pages draw their own scripts."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from support.browser import (
    DESKTOP,
    PHONE,
    SHOTS,
    laid_out,
    message,
    missing_glyphs,
    serious_violations,
    watch_policy_violations,
)
from support.live import LiveServer

pytestmark = pytest.mark.browser
Opener = Callable[[str], Page]

LANGUAGES_OF = {
    "hazari": ["English", "বাংলা", "हिन्दी"],
    "azi": ["English", "Ελληνικά", "ქართული", "Қазақша", "Русский"],
    "hasenpfeffer": ["English", "Deutsch", "Polski"],
}
# A word of each translated page that the English one does not hold, and the page's own title.
PAGES = [
    ("hazari", "bn", "bn-BD", "হাজারি"),
    ("hazari", "hi", "hi-IN", "हज़ारी"),
    ("azi", "ru", "ru-RU", "Ази"),
    ("azi", "ka", "ka-GE", "აზი"),
    ("azi", "kk", "kk-KZ", "Ази"),
    ("azi", "el", "el-GR", "Άζι"),
    ("hasenpfeffer", "pl", "pl-PL", "Hasenpfeffer"),
    ("hasenpfeffer", "de", "de-DE", "Hasenpfeffer"),
]


@pytest.fixture
def open_in(browser: Browser) -> Iterator[Opener]:
    """Opens a page in a new context whose browser speaks ``locale``."""
    contexts: list[tuple[BrowserContext, list[str]]] = []

    def open_page(locale: str) -> Page:
        context = browser.new_context(locale=locale, viewport=DESKTOP)
        contexts.append((context, watch_policy_violations(context)))
        return context.new_page()

    yield open_page
    for context, violations in contexts:
        context.close()
        assert not violations, f"Content-Security-Policy violations: {violations}"


def rules(page: Page, game: str) -> Locator:
    return page.locator(f"#rules[data-game='{game}']")


def first_heading_in(page: Page, server: LiveServer, game: str, language: str) -> str:
    """The first heading of docs/rules/<game>.<language>.md, as served."""
    text = page.request.get(f"{server.base}/rules/{game}.{language}.md").text()
    found = re.search(r"^#\s+(.*)$", text, re.M)
    assert found, f"{game}.{language}.md has no heading"
    return found.group(1).strip()


@pytest.mark.parametrize("game, language, locale, title_word", PAGES)
def test_the_rules_open_in_the_browsers_language(open_in: Opener, server: LiveServer, game: str,
                                                 language: str, locale: str, title_word: str) -> None:
    page = open_in(locale)
    page.goto(f"{server.base}/#/rules/{game}")
    page_rules = rules(page, game)
    expect(page_rules).to_have_attribute("lang", language)
    title = first_heading_in(page, server, game, language)
    expect(page_rules.get_by_role("heading", level=1)).to_have_text(title)
    assert title_word in title
    expect(page_rules.locator(".rules-missing")).to_have_count(0)
    languages = page_rules.get_by_role("navigation", name=message(language, "rules.languages"))
    links = languages.get_by_role("link")
    expect(links).to_have_text(LANGUAGES_OF[game])
    expect(page_rules.locator(f"a[aria-current][hreflang='{language}']")).to_have_count(1)
    text = page_rules.inner_text()
    assert not re.search(r"\b(?:HZ|AZ|HP)-\d", text), "a rule number is shown"
    assert "1 ..." not in text, "the paragraph about rule numbers is shown"
    assert page_rules.locator("table").count() > 0 and page_rules.locator("li").count() > 0
    assert not missing_glyphs(page_rules), "characters drawn as boxes (a font is missing)"
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        laid_out(page)
        assert not serious_violations(page, f"rules {game} {language}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"rules-{game}-{language}-phone.png"))


def test_a_language_picked_on_the_page_is_kept(open_in: Opener, server: LiveServer) -> None:
    page = open_in("ru-RU")
    page.goto(f"{server.base}/#/rules/azi")
    expect(rules(page, "azi")).to_have_attribute("lang", "ru")
    rules(page, "azi").get_by_role("link", name="ქართული").click()
    expect(rules(page, "azi")).to_have_attribute("lang", "ka")
    page.goto(f"{server.base}/#/rules/hazari")
    expect(rules(page, "hazari")).to_have_attribute("lang", "en")
    page.goto(f"{server.base}/#/rules/azi")
    expect(rules(page, "azi")).to_have_attribute("lang", "ka")
    page.reload()
    expect(rules(page, "azi")).to_have_attribute("lang", "ka")
    rules(page, "azi").get_by_role("link", name="English").click()
    expect(rules(page, "azi")).to_have_attribute("lang", "en")
    # The interface stays Russian (the rules' language is chosen apart from it).
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(rules(page, "azi").get_by_role("heading", level=1)).to_have_text(
        message("ru", "rules.howToPlay", game=message("ru", "api.azi")))
    expect(rules(page, "azi").locator(".rules-missing")).to_have_count(0)


def test_a_page_not_written_in_the_readers_language_says_so(open_in: Opener,
                                                            server: LiveServer) -> None:
    page = open_in("ru-RU")
    page.goto(f"{server.base}/#/rules/hazari")
    page_rules = rules(page, "hazari")
    expect(page_rules).to_have_attribute("lang", "en")
    expect(page_rules.get_by_role("heading", level=1)).to_have_text(
        message("ru", "rules.howToPlay", game=message("ru", "api.hazari")))
    expect(page_rules.locator(".rules-missing")).to_have_text(
        message("ru", "words.rulesNotWrittenIn", missing="Русский", shown="English"))
    # A later language of the browser that the page has is preferred to English.
    other = open_in("ru-RU")
    other.add_init_script("Object.defineProperty(navigator, 'languages', {get: () => ['ru-RU', 'de-DE']})")
    other.goto(f"{server.base}/#/rules/hasenpfeffer")
    expect(rules(other, "hasenpfeffer")).to_have_attribute("lang", "de")
    expect(rules(other, "hasenpfeffer").locator(".rules-missing")).to_have_text(
        message("ru", "words.rulesNotWrittenIn", missing="Русский", shown="Deutsch"))


def test_an_unknown_language_in_the_link_changes_nothing(open_in: Opener, server: LiveServer) -> None:
    page = open_in("el-GR")
    page.goto(f"{server.base}/#/rules/azi/xx")
    expect(rules(page, "azi")).to_have_attribute("lang", "el")
    page.goto(f"{server.base}/#/rules/azi")
    expect(rules(page, "azi")).to_have_attribute("lang", "el")
