"""Words for people and the rules in the product: every error code the server can send has a
sentence; a refusal shows the sentence with the code folded away, and goes once its decision has
passed; options read as labelled choices; each game has a rules page (no rule numbers), reachable
from the lobby and the table; the guided first deal can be skipped and stays skipped; focus stays on
a control after Add bot and Start; "Older matches" is hidden when nothing is older; the connection
badge is readable; axe-core finds nothing serious on these pages."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from support.azi import azi_deck_for
from support.browser import (
    DESKTOP,
    PHONE,
    add_bots,
    create_room_in_lobby,
    laid_out,
    open_lobby,
    seated_in_new_room,
    serious_violations,
    start,
)
from support.live import PROJECT, LiveServer

pytestmark = pytest.mark.browser

CODE = re.compile(r'"((?:action|room|table|options|chips|wallet|auth|account|player|match|message|server|'
                  r'request|fairness|limit)/[a-z_]+)"')
CODE_LIKE = re.compile(r"\b[a-z]+/[a-z_]+\b|\b(?:HZ|AZ|HP)-\d|later_wins|joint_winners|per_player"
                       r"|[0-9a-f]{12}")


def server_codes() -> set[str]:
    """Every error code written in the server's source."""
    return {code for path in (PROJECT / "app").rglob("*.py") for code in CODE.findall(path.read_text())}


def module(page: Page, server: LiveServer, name: str, script: str, arg: object = None) -> object:
    page.goto(f"{server.base}/#/rules")
    return page.evaluate(
        f"async (arg) => {{ const m = await import('/js/{name}.js'); return ({script})(m, arg); }}", arg)


def test_every_server_code_has_a_sentence_without_codes(page: Page, server: LiveServer) -> None:
    codes = sorted(server_codes())
    assert len(codes) > 100
    sentences = module(page, server, "words",
                       "(m, codes) => codes.map((c) => [c, m.hasSentence(c), m.sentenceFor(c)])", codes)
    assert isinstance(sentences, list)
    missing = [code for code, known, _ in sentences if not known]
    assert not missing, f"codes without a sentence: {missing}"
    for code, _, sentence in sentences:
        assert not CODE_LIKE.search(sentence), f"{code}: {sentence!r}"


def test_option_words_and_rule_numbers(page: Page, server: LiveServer) -> None:
    summary = module(page, server, "words",
                     "(m) => [m.optionsSummary('hazari', {target: 1000, tie_rule: 'later_wins',"
                     " match_tie: 'joint_winners'}),"
                     " m.optionsSummary('azi', {raise_cap: 'per_player', stake: 10}),"
                     " m.withoutRuleNumbers('naming trump needs a suit (HP-7, there is no no-trump)')]")
    assert summary == [
        "Match length: 1,000 points \u00b7 Equal groups in a round: The later one wins"
        " \u00b7 A tie at the end: They win together",
        "How bids are counted: Per player, the opening bet included \u00b7 Stake (ante): 10 chips",
        "naming trump needs a suit (there is no no-trump)",
    ]


@pytest.mark.parametrize("game, title, term", [
    ("hazari", "Hazari", "Colour run"), ("azi", "Azi", "Six on the scene"),
    ("hasenpfeffer", "Hasenpfeffer", "widow"),
])
def test_a_rules_page_per_game(page: Page, server: LiveServer, game: str, title: str, term: str) -> None:
    page.goto(f"{server.base}/")
    page.get_by_role("navigation", name="Rules").get_by_role("link", name=title).click()
    rules = page.locator(f"#rules[data-game='{game}']")
    expect(rules.get_by_role("heading", level=1)).to_have_text(f"How to play {title}")
    expect(rules.locator("table").first).to_be_visible()
    expect(rules).to_contain_text(term)
    text = rules.inner_text()
    assert not re.search(r"\b(?:HZ|AZ|HP)-\d", text), "a rule number is shown"
    assert "rule numbers" not in text
    assert rules.locator("strong").count() > 0 and rules.locator("li").count() > 0
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        laid_out(page)
        assert not serious_violations(page, f"rules {game}")


def test_the_table_in_words(page: Page, server: LiveServer) -> None:
    open_lobby(page, server, "Wanda")
    expect(page.get_by_label("Classic")).to_be_checked()
    page.get_by_label("Game", exact=True).select_option("hazari")
    page.get_by_label("Quick game").check()
    expect(page.locator("[data-option='target']")).to_have_value("500")
    page.get_by_label("Classic").check()
    expect(page.locator("[data-option='target']")).to_have_value("1000")
    assert not serious_violations(page, "lobby")

    # Focus stays on a control after Create room, Add bot and Start.
    create_room_in_lobby(page, "hazari", {"target": 5})
    page.wait_for_function("() => document.activeElement !== document.body")
    page.locator(".seat.empty").first.get_by_role("button", name="Add a bot").focus()
    add_bots(page, 3)
    page.wait_for_function("() => document.activeElement !== document.body")
    assert page.evaluate("document.activeElement.id") == "start-button"
    assert not serious_violations(page, "table before the start")
    page.locator("#start-button").focus()
    start(page)
    page.wait_for_function("() => document.activeElement !== document.body")

    # Options read as labelled choices in the room's drawer; no key, code or hash in sight.
    details = page.locator("#room-details")
    expect(details).not_to_have_attribute("open", "")
    page.get_by_text("Room details").click()
    expect(page.locator("#room-options")).to_contain_text("Equal groups in a round")
    expect(page.locator("#room-options")).to_contain_text("The later one wins")
    assert not CODE_LIKE.search(page.locator(".table-page").inner_text())

    # The connection badge is readable (contrast of at least 4.5:1).
    ratio = page.evaluate("""() => {
      const rgb = (s) => s.match(/\\d+/g).slice(0, 3).map(Number).map(v => v / 255)
        .map(c => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      const lum = (s) => { const [r, g, b] = rgb(s); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
      const style = getComputedStyle(document.getElementById('conn-status'));
      const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05); }""")
    assert ratio >= 4.5, ratio

    # The guide: shown once, skipped, and not shown again after a reload.
    expect(page.locator("#guide")).to_contain_text("Tip 1 of 4")
    page.locator("#guide-next").click()
    expect(page.locator("#guide")).to_contain_text("Tip 2 of 4")
    page.locator("#guide-skip").click()
    expect(page.locator("#guide")).to_have_count(0)

    # The ranking help beside the arrangement, with an example of each combination and the count.
    page.get_by_text("Which group is stronger?").click()
    help_body = page.locator("#table-help .help-body")
    expect(help_body.locator(".ranking li")).to_have_count(6)
    expect(help_body).to_contain_text("+95 = 10+10+10")
    assert not serious_violations(page, "Hazari arranging")
    page.get_by_role("link", name="Rules of Hazari").click()
    expect(page.locator("#rules h1")).to_have_text("How to play Hazari")
    page.go_back()
    expect(page.locator(".hand-box .card")).to_have_count(13)
    expect(page.locator("#guide")).to_have_count(0)


def test_a_refusal_in_words_cleared_when_its_decision_passes(page: Page, server: LiveServer) -> None:
    # Seat 1 holds the button, so the page's player (seat 0) opens the betting.
    deck = azi_deck_for({0: "6H 7S 8D", 1: "AH KH QH"}, 1, 2)
    seated_in_new_room(page, server, "Rafi", "azi", {"turn_seconds": 0, "first_dealer": 1, "decks": [deck]})
    add_bots(page, 1)
    start(page)
    # An amount below the minimum bet is refused.
    expect(page.locator("#azi-bet")).to_be_visible()
    page.evaluate("""() => { const box = document.querySelector('#azi-bet-amount');
      box.value = '1'; box.dispatchEvent(new Event('input')); }""")
    page.locator("#azi-bet").click()
    message = page.locator("#messages .message.error").last
    expect(message).to_be_visible()
    shown = message.locator(".message-text").inner_text()
    assert not CODE_LIKE.search(shown), shown
    assert not CODE_LIKE.search(message.inner_text()), "the details line is not folded away"
    message.get_by_text("Details").click()
    expect(message.locator("code")).to_have_text(re.compile(r"^action/"))
    # The decision passes (the smallest bet is accepted): the refusal goes.
    page.get_by_role("button", name="Min").first.click()
    page.locator("#azi-bet").click()
    expect(page.locator("#messages .message.error")).to_have_count(0)


def test_older_matches_hidden_when_nothing_is_older(page: Page, server: LiveServer) -> None:
    open_lobby(page, server, "Nils")
    page.get_by_role("link", name="My matches").click()
    expect(page.locator("#match-list")).to_contain_text("No matches yet.")
    expect(page.get_by_role("button", name="Older matches")).to_be_hidden()
    page.get_by_role("link", name="Profile").click()
    expect(page.locator("#profile-name")).to_have_text("Nils")
    assert not serious_violations(page, "profile")
    names = page.evaluate("[...document.querySelectorAll("
                          "'[role=region], section[aria-labelledby], section[aria-label]')]"
                          ".map(n => n.getAttribute('aria-label') || document.getElementById("
                          "n.getAttribute('aria-labelledby')).textContent)")
    assert len(names) == len(set(names)), names


def test_the_rules_reader_builds_nodes_and_never_markup(page: Page, server: LiveServer) -> None:
    source = ("# Game\n\nSome **bold**, *soft* and `code` <img src=x onerror=alert(1)>.\n\n"
              "## Cards (HZ-2)\n- one\n- two\n  more\n\n1. first\n2. second\n\n"
              "| a | b |\n| --- | --- |\n| <b>x</b> | **y** |\n")
    drawn = module(page, server, "rules", """(m, text) => {
        const box = document.createElement('div');
        box.append(...m.renderMarkdown(m.forPlayers(text)));
        return { tags: [...box.children].map((n) => n.tagName), html: box.innerHTML,
                 strong: box.querySelectorAll('strong').length, code: box.querySelector('code').textContent,
                 items: [...box.querySelectorAll('li')].map((li) => li.textContent),
                 cells: [...box.querySelectorAll('td')].map((td) => td.textContent) };
    }""", source)
    assert isinstance(drawn, dict)
    assert drawn["tags"] == ["H2", "P", "H3", "UL", "OL", "DIV"]
    assert "<img" not in drawn["html"] and "&lt;img" in drawn["html"] and "<b>" not in drawn["html"]
    assert drawn["strong"] == 2 and drawn["code"] == "code"
    assert drawn["items"] == ["one", "two more", "first", "second"]
    assert drawn["cells"] == ["<b>x</b>", "y"]
    assert "HZ-2" not in drawn["html"] and "Cards" in drawn["html"]


def test_words_come_from_the_catalog_with_plural_forms(page: Page, server: LiveServer) -> None:
    """The words module's sentences, option words and money words are the catalog's: chip counts
    take the plural form of their number and the language's digits; a code the catalog does not
    know gets its area's sentence; under the pseudo-locale every one of them is accented."""
    script = """(m) => ({
        chips: [m.chipsText(1), m.chipsText(1000), m.amountText(12345)],
        money: [m.MONEY.wallet({ wallet: 1 }), m.MONEY.atTable({ stack: 2500 }),
                m.MONEY.buyInSend({ amount: 1 }), m.MONEY.buyInSend({ amount: null }),
                m.MONEY.confirm({ kind: 'raise', amount: 60, put: 50, stack: 1, allIn: true }).text],
        chat: [m.CHAT.open({ unread: 3 }), m.CHAT.tooLong({ max: 200 })],
        option: [m.choiceLabel('hazari', 'target', 1), m.choiceLabel('hazari', 'turn_seconds', 0),
                 m.choiceLabel('azi', 'bet_limit', 'pot')],
        codes: [m.sentenceFor('room/not_found'), m.hasSentence('room/no_such_thing'),
                m.sentenceFor('room/no_such_thing'), m.sentenceFor('name/empty')],
        reaction: m.REACTIONS.oops.label,
    })"""
    words = module(page, server, "words", script)
    assert words == {
        "chips": ["1 chip", "1,000 chips", "12,345"],
        "money": ["Wallet 1 chip", "2,500 chips at the table", "Sit down with 1 chip", "Sit down",
                  "Raise to 60, putting in all your 1 chip (all in)?"],
        "chat": ["Chat (3 new)", "At most 200 characters."],
        "option": ["1 point", "No clock", "Never more than the pot"],
        "codes": ["This room does not exist (any more).", False, "The room refused that.", None],
        "reaction": "Oops",
    }
    page.goto(f"{server.base}/?lang=en-XA#/rules")
    pseudo = page.evaluate("""async () => { const m = await import('/js/words.js');
        return [m.chipsText(2), m.sentenceFor('room/not_found'), m.OPERATOR.reportSend,
                m.ALERTS.control, m.PRESET_WORDS.quick.label]; }""")
    assert isinstance(pseudo, list)
    for text in pseudo:
        assert text.startswith("\u27e6") and text.endswith("\u27e7"), text
    page.evaluate("window.localStorage.removeItem('cardroom.language')")
