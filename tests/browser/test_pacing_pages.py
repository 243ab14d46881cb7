"""The table keeps its pace, measured in the page: Hazari's rounds come at least the reveal pause
apart and the totals move with each; a deal's result stays until Next deal is pressed; a completed
Hasenpfeffer trick stays, with who took it, at least the pause before a bot plays the next card; and
no bot seat counts down. At a desktop and a phone size, from fixed decks and dealers; the server
runs with a shorter reveal pause than the default, which the tests measure."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from support.browser import (
    DESKTOP,
    PHONE,
    SHOTS,
    add_bots,
    browser_server,
    in_view,
    laid_out,
    seated_in_new_room,
    start,
    version,
    wait_version_after,
)
from support.hasenpfeffer import hp_deck
from support.live import LiveServer

from app.games.cards import card_texts, standard_deck

pytestmark = pytest.mark.browser

PAUSE = 2.0
DEAL_PAUSE = 600
# Bots that take their time, so that the page has drawn each state before the next one comes.
BOT_DELAY = 0.3
# How much later than the server sent it the page may draw a state, more than the state after it
# (a busy machine holds up the browser now and then). Without a pause the gaps are a bot's delay,
# well below the pause less this.
JITTER_MS = 1000
# How long a finished deal's result is watched staying before Next deal is pressed, in seconds.
WATCHED = 2
SIZES = {"desktop": DESKTOP, "phone": PHONE}

HAZARI_DECK = card_texts(random.Random(11).sample(standard_deck(), 52))
# Dealer 3: the person (seat 0) passes and leads 9H to the first trick; seat 1 holds four hearts
# above it and must follow suit, so a bot takes the trick and leads the next, whatever the bots bid.
HASENPFEFFER_DECK = hp_deck({0: "9H 10H 9D 10D 9C 10C", 1: "AH KH QH JH AS KS",
                             2: "JK QS 10S 9S AD KD", 3: "QD JD AC KC QC JC"}, "JS", 3)

WATCH_ROUNDS = """() => {
  const seen = { rounds: [], result: null, next: null };
  window.pacing = seen;
  const look = () => {
    const table = document.querySelector('.table-page');
    if (!table) return;
    const rows = [...document.querySelectorAll('#hz-rounds tbody tr')];
    const last = seen.rounds.length ? seen.rounds[seen.rounds.length - 1].count : 0;
    if (seen.result === null && rows.length > last) {
      seen.rounds.push({ count: rows.length, at: performance.now(),
        won: rows.map((row) => [Number(row.dataset.winner), Number(row.dataset.points)]),
        totals: [...document.querySelectorAll('#hz-scores tr.total td')]
          .map((cell) => Number(cell.textContent)) });
    }
    if (seen.result === null && document.querySelector('#hz-deal-result')) seen.result = performance.now();
    if (seen.result !== null && seen.next === null && table.dataset.phase === 'arranging') {
      seen.next = performance.now();
    }
  };
  new MutationObserver(look).observe(document.getElementById('main'), { childList: true, subtree: true });
}"""

WATCH_TRICKS = """() => {
  const seen = [];
  window.tricks = seen;
  const look = () => {
    // The trick in play, not the one just taken while it moves off over it.
    const trick = document.querySelector('.felt-centre ol.trick:not(.motion-collect)');
    const cards = trick ? [...trick.querySelectorAll('[data-card]')].map((node) => node.dataset.card) : [];
    const taken = document.querySelector('#hp-trick-winner');
    const winner = taken ? taken.textContent : null;
    const botToAct = document.querySelectorAll('.seat.bot.to-act').length;
    const botTimers = document.querySelectorAll('.seat.bot [role=timer]').length;
    const myTimer = document.querySelectorAll('.seat.mine [role=timer]').length;
    const table = document.querySelector('.table-page');
    const phase = table ? table.dataset.phase : null;
    const key = JSON.stringify([cards, winner, botToAct, botTimers, myTimer, phase]);
    if (!seen.length || seen[seen.length - 1].key !== key) {
      seen.push({ key, cards, winner, botToAct, botTimers, myTimer, phase, at: performance.now() });
    }
  };
  new MutationObserver(look).observe(document.getElementById('main'), { childList: true, subtree: true });
}"""


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory, chromium: Path) -> Iterator[LiveServer]:
    """A server whose reveal pause is long enough to measure, whose bots are not hurried and whose
    deal pause never runs out during a test."""
    with browser_server(tmp_path_factory.mktemp("pacing-server"), reveal_pause=str(PAUSE),
                        deal_pause_seconds=str(DEAL_PAUSE), bot_delay=str(BOT_DELAY)) as live:
        yield live


def seconds_to_next_deal(page: Page) -> int:
    text = page.locator("#dock .next-deal-timer").inner_text()
    found = re.search(r"(\d+) s$", text)
    assert found, text
    return int(found.group(1))


def result_stays_until_next_deal(page: Page, shown: str, size: str, name: str) -> float:
    """The finished deal's result (``shown``) and the Next deal button stay while the page's own
    countdown to the next deal runs down ``WATCHED`` seconds; then Next deal is pressed. Returns the
    moment of the press (the page's clock)."""
    button = page.get_by_role("button", name="Next deal")
    expect(button).to_be_enabled()
    phase = page.locator(".table-page").get_attribute("data-phase")
    first = seconds_to_next_deal(page)
    assert DEAL_PAUSE - WATCHED <= first <= DEAL_PAUSE, first
    page.wait_for_function(
        "s => { const n = document.querySelector('#dock .next-deal-timer');"
        " return n && Number(n.textContent.match(/(\\d+) s$/)[1]) <= s; }", arg=first - WATCHED)
    expect(page.locator(shown)).to_be_visible()
    expect(page.locator(".table-page")).to_have_attribute("data-phase", phase or "")
    page.evaluate("window.scrollTo(0, 0)")
    laid_out(page)
    in_view(page, "#next-deal", "the Next deal button", size)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-next-deal-{size}.png"))
    pressed: float = page.evaluate("performance.now()")
    button.click()
    return pressed


@pytest.mark.parametrize("size", list(SIZES))
def test_hazari_rounds_come_a_pause_apart_and_the_result_waits_for_next_deal(
        page: Page, paced: LiveServer, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    seated_in_new_room(page, paced, "Rani", "hazari", {"decks": [HAZARI_DECK], "first_dealer": 0})
    add_bots(page, 3)
    page.evaluate(WATCH_ROUNDS)
    start(page)
    expect(page.locator(".hand-box .card")).to_have_count(13)
    page.get_by_role("button", name="Suggest").click()
    expect(page.locator("#hz-verdict")).to_contain_text("Valid arrangement")
    page.get_by_role("button", name="Up", exact=True).click()

    expect(page.locator("#hz-deal-result")).to_be_visible(timeout=30_000)
    pressed = result_stays_until_next_deal(page, "#hz-deal-result", size, "hazari")
    expect(page.locator(".table-page")).to_have_attribute("data-phase", "arranging")
    expect(page.locator(".hand-box .card")).to_have_count(13)
    expect(page.locator("#hz-deal-result")).to_have_count(0)
    seen: dict[str, Any] = page.evaluate("window.pacing")

    rounds = seen["rounds"]
    assert [entry["count"] for entry in rounds] == [1, 2, 3, 4], "each round is shown on its own"
    gaps = [later["at"] - earlier["at"] for earlier, later in zip(rounds, rounds[1:], strict=False)]
    assert all(gap >= PAUSE * 1000 - JITTER_MS for gap in gaps), gaps
    assert rounds[-1]["at"] - rounds[0]["at"] >= 3 * PAUSE * 1000 - JITTER_MS, gaps
    for entry in rounds:
        expected = [sum(points for winner, points in entry["won"] if winner == seat) for seat in range(4)]
        assert entry["totals"] == expected, entry
    assert sum(rounds[-1]["totals"]) == 360
    assert seen["next"] is not None and seen["next"] > pressed, "the next deal came before Next deal"


def lead_first_trick(page: Page, server: LiveServer, name: str, options: dict[str, Any]) -> None:
    """A Hasenpfeffer room from the fixed deck, the person with three bots and the centre of the
    table watched; the person passes in the auction and leads 9H to the first trick."""
    seated_in_new_room(page, server, name, "hasenpfeffer",
                       {"decks": [HASENPFEFFER_DECK], "first_dealer": 3, **options})
    add_bots(page, 3)
    page.evaluate(WATCH_TRICKS)
    start(page)
    pass_button = page.locator("#hp-bidding [data-bid='pass']")
    expect(pass_button).not_to_have_attribute("aria-disabled", "true")
    before = version(page)
    pass_button.click()
    wait_version_after(page, before)
    lead = page.locator(".hand-row .card.playable[data-card='9H']")
    expect(lead).to_be_visible(timeout=30_000)
    before = version(page)
    lead.click()
    wait_version_after(page, before)


def bot_leads(tricks: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each completed trick a bot took (four cards and who took it, when first shown) with what
    the centre showed next, when that is a lead of one card."""
    pairs = []
    for index, done in enumerate(tricks):
        if len(done["cards"]) != 4 or not done["winner"] or done["winner"].endswith(" you"):
            continue
        if index and tricks[index - 1]["cards"] == done["cards"]:
            continue
        after = next((entry for entry in tricks[index + 1:] if entry["cards"] != done["cards"]), None)
        if after is not None and len(after["cards"]) == 1:
            pairs.append((done, after))
    return pairs


@pytest.mark.parametrize("size", list(SIZES))
def test_a_finished_trick_stays_a_pause_before_a_bot_plays_and_the_deal_waits_for_next_deal(
        page: Page, paced: LiveServer, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    lead_first_trick(page, paced, "Hugo", {"target": 10})
    # The rest of the deal: the person plays a card the page offers whenever it is his turn.
    while True:
        page.wait_for_function(
            "() => document.querySelector('.table-page').dataset.phase === 'needs_deal'"
            " || document.querySelectorAll('.hand-row .card.playable').length > 0", timeout=60_000)
        if page.locator(".table-page").get_attribute("data-phase") == "needs_deal":
            break
        before = version(page)
        page.locator(".hand-row .card.playable").first.click()
        wait_version_after(page, before)

    expect(page.locator("#hp-trick-winner")).to_be_visible()
    expect(page.locator(".felt-centre ol.trick [data-card]")).to_have_count(4)
    pressed = result_stays_until_next_deal(page, "#hp-scores tbody tr >> nth=0", size, "hasenpfeffer")
    expect(page.locator(".table-page")).to_have_attribute("data-phase", "bidding")
    expect(page.locator(".felt-centre ol.trick")).to_have_count(0)
    tricks: list[dict[str, Any]] = page.evaluate("window.tricks")
    scored = max(index for index, entry in enumerate(tricks) if entry["phase"] == "needs_deal")
    dealt_again = next(entry["at"] for entry in tricks[scored:] if entry["phase"] == "bidding")

    led = bot_leads(tricks)
    assert led, f"no bot led a trick: {tricks}"
    assert led[0][0]["cards"][0] == "9H" and led[0][0]["winner"].startswith("Trick won by Bot")
    gaps = [after["at"] - done["at"] for done, after in led]
    assert all(gap >= PAUSE * 1000 - JITTER_MS for gap in gaps), gaps
    assert dealt_again > pressed, "the next deal came before Next deal"


def test_a_bot_seat_shows_no_countdown(page: Page, paced: LiveServer) -> None:
    """With a turn timer on, the person's seat counts down on his turn; a bot's seat, waiting the
    pause after a trick before it leads, never does."""
    lead_first_trick(page, paced, "Tomas", {"turn_seconds": 60})
    page.wait_for_function("() => window.tricks.some((t, i) => i > 0 && t.cards.length === 1"
                           " && window.tricks[i - 1].cards.length === 4)")
    tricks: list[dict[str, Any]] = page.evaluate("window.tricks")
    assert any(entry["myTimer"] for entry in tricks), "the person's seat never counted down"
    assert any(entry["botToAct"] for entry in tricks), "no bot was seen to act"
    assert not any(entry["botTimers"] for entry in tricks), [e for e in tricks if e["botTimers"]]
