"""What the browser tests do as a person would: name oneself, create a room, add bots, start; and
the screenshots each test leaves under ``test-artifacts/screenshots/``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, ConsoleMessage, FloatRect, Locator, Page, expect

from app.languages import CATALOG_DIR
from support.live import PROJECT, LiveClient, LiveServer

SHOTS = PROJECT / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
NARROWEST = 360
WAIT_MS = 20_000
MEASURE_TRIES = 5

SERVER_SETTINGS = {"bot_delay": "0.05", "reveal_pause": "0.2", "seed_wait": "3"}

expect.set_options(timeout=WAIT_MS)

REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline code"}`);
});"""


def watch_policy_violations(context: BrowserContext) -> list[str]:
    """Every Content-Security-Policy violation in the context's pages from now on (the browser's own
    console report, and the page's ``securitypolicyviolation`` events)."""
    violations: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        text = message.text
        reported = "Content Security Policy" in text or text.startswith("CSP violation")
        if message.type == "error" and reported:
            violations.append(text)

    context.add_init_script(REPORT_VIOLATIONS)
    context.on("console", on_console)
    return violations


def browser_server(folder: Path, **settings: str) -> LiveServer:
    """``cardroom serve`` in test mode on a free port, with a fresh SQLite database in ``folder``
    (started by ``with``)."""
    return LiveServer(f"sqlite+aiosqlite:///{folder / 'cardroom.db'}", folder / "server.log",
                      **{**SERVER_SETTINGS, **settings})


def laid_out(page: Page) -> None:
    """Waits until the page has drawn two frames since now: a new viewport's layout is done."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def shoot(page: Page, name: str) -> list[Path]:
    """A full-page screenshot at 1280x800 and one at 390x844, each size checked by axe-core (no
    serious or critical finding); the viewport is set back after."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    paths = []
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        laid_out(page)
        path = SHOTS / f"{name}-{label}.png"
        page.screenshot(path=str(path), full_page=True)
        paths.append(path)
        violations = serious_violations(page, f"{name} {label}")
        assert not violations, violations
    page.set_viewport_size(DESKTOP)
    assert_no_sideways_scroll(page, name)
    return paths


def assert_no_sideways_scroll(page: Page, name: str) -> None:
    """On the narrowest phone (360 px) the page itself never scrolls sideways (wide tables scroll
    inside their own box)."""
    page.set_viewport_size({"width": NARROWEST, "height": 740})
    laid_out(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size(DESKTOP)
    assert width <= NARROWEST, f"{name}: the page is {width} px wide on a {NARROWEST} px screen"


def in_view(page: Page, selector: str, what: str, size: str) -> None:
    """The element's whole box lies inside the viewport, the page being at its top (measured in one
    step of the page, so that a redraw in between cannot lose the element)."""
    box = page.evaluate("""s => { const node = document.querySelector(s); if (!node) return null;
      const r = node.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height,
      right: window.innerWidth, bottom: window.innerHeight}; }""", selector)
    assert box and box["width"] > 0 and box["height"] > 0, f"{what} is not shown ({size})"
    assert box["x"] >= 0 and box["y"] >= 0, f"{what} starts outside the screen at {size}: {box}"
    assert box["x"] + box["width"] <= box["right"] + 0.5, f"{what} is cut at the right at {size}: {box}"
    assert box["y"] + box["height"] <= box["bottom"] + 0.5, f"{what} is below the fold at {size}: {box}"


def open_lobby(page: Page, server: LiveServer, name: str) -> dict[str, Any]:
    """Opens the lobby, chooses a name; returns the guest saved in localStorage."""
    page.goto(f"{server.base}/")
    page.get_by_role("textbox", name="Name").fill(name)
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#who")).to_contain_text(name)
    return saved_player(page)


def seated_in_new_room(page: Page, server: LiveServer, name: str, game: str,
                       options: dict[str, Any], buy_in: int | None = None) -> str:
    """A room made through the API for a new player named ``name``; the page opens its link and sits
    at seat 0 (at a chip table bringing ``buy_in``, by default what the page offers). Returns the
    room's id."""
    player = open_lobby(page, server, name)
    room = server.post("/api/rooms", {"game": game, "options": options}, token=player["token"])
    page.goto(f"{server.base}/#/room/{room['id']}")
    page.locator(".seat[data-seat='0']").get_by_role("button", name="Sit here").click()
    if game in CHIP_GAMES:
        bring_chips(page, buy_in)
    expect(page.locator(".seat.mine")).to_have_attribute("data-seat", "0")
    return str(room["id"])


CHIP_GAMES = ("azi",)


def bring_chips(page: Page, amount: int | None = None) -> None:
    """Answers the buy-in dialog of a chip table: ``amount`` chips, or the amount it offers; waits
    until it has closed (the player is seated)."""
    dialog = page.locator("#buy-in")
    expect(dialog).to_be_visible()
    if amount is not None:
        dialog.get_by_role("spinbutton", name="Chips to bring").fill(str(amount))
    dialog.locator("#buy-in-send").click()
    expect(dialog).to_have_count(0)


def confirm_big_bet(page: Page) -> bool:
    """Confirms the confirmation the last bet, call or raise opened (it opens as the button is
    pressed), if it opened one."""
    if not page.locator("#bet-confirm").count():
        return False
    page.locator("#bet-confirm-confirm").click()
    expect(page.locator("#bet-confirm")).to_have_count(0)
    return True


def saved_player(page: Page) -> dict[str, Any]:
    raw = page.evaluate("window.localStorage.getItem('cardroom.player')")
    assert raw, "no player in localStorage"
    player: dict[str, Any] = json.loads(raw)
    return player


def create_room_in_lobby(page: Page, game: str, options: dict[str, Any] | None = None,
                         private: bool = False) -> str:
    """Fills the lobby's form; returns the new room's id once the table shows it seated."""
    page.get_by_label("Game", exact=True).select_option(game)
    if options:
        page.get_by_label("Custom").check()
        expect(page.locator("#options-drawer")).to_have_attribute("open", "")
    for name, value in (options or {}).items():
        field = page.locator(f"[data-option={name}]")
        if field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(json.dumps(value))
        else:
            field.fill(str(value))
    if private:
        page.get_by_label("Private (not listed; share the link)").check()
    page.get_by_role("button", name="Create room").click()
    if game in CHIP_GAMES:
        bring_chips(page)
    expect(page.locator(".seat.mine")).to_be_visible()
    return page.url.split("#/room/")[1]


def add_bots(page: Page, count: int, level: str = "strong") -> None:
    if level != "strong":
        page.get_by_label("Bot level").select_option(level)
    for _ in range(count):
        before = version(page)
        page.locator(".seat.empty").first.get_by_role("button", name="Add a bot").click()
        wait_version_after(page, before)


def start(page: Page) -> None:
    page.locator("#start-button").click()
    expect(page.locator(".table-page")).not_to_have_attribute("data-phase", "waiting")


def version(page: Page) -> int:
    return int(page.locator(".table-page").get_attribute("data-version") or -1)


def phase(page: Page) -> str:
    return page.locator(".table-page").get_attribute("data-phase") or ""


def wait_version_after(page: Page, before: int, timeout: float = WAIT_MS) -> None:
    page.wait_for_function(
        "v => { const t = document.querySelector('.table-page');"
        " return t && Number(t.dataset.version) > v; }",
        arg=before, timeout=timeout)


def visible_box(locator: Locator) -> FloatRect:
    """The element's box once it is visible. A state that arrives between finding the element and
    measuring it draws the table anew and detaches it (its box is then None): measure the new one."""
    for _ in range(MEASURE_TRIES):
        locator.wait_for(state="visible", timeout=WAIT_MS)
        box = locator.bounding_box()
        if box is not None:
            return box
    raise AssertionError(f"{locator} was drawn anew {MEASURE_TRIES} times while being measured")


def drag(page: Page, source: Locator, target: Locator) -> None:
    """Drags ``source`` onto ``target`` with the mouse (HTML drag and drop), both in view."""
    source.evaluate("node => node.scrollIntoView({block: 'center'})")
    start_box, end_box = visible_box(source), visible_box(target)
    page.mouse.move(start_box["x"] + 8, start_box["y"] + 8)
    page.mouse.down()
    page.mouse.move(start_box["x"] + 24, start_box["y"] + 24, steps=4)
    page.mouse.move(end_box["x"] + end_box["width"] / 2, end_box["y"] + end_box["height"] / 2, steps=8)
    page.mouse.up()


def my_decision_taken(page: Page, turns: str | None) -> None:
    """Waits until the page no longer awaits this seat's decision, or a new one began (its turn
    counter moved): the action just sent has been applied."""
    page.wait_for_function(
        "t => { const r = document.querySelector('.table-page');"
        " return r.dataset.myTurn !== '1' || r.dataset.turns !== t; }", arg=turns, timeout=WAIT_MS)


def turns(page: Page) -> str | None:
    return page.locator(".table-page").get_attribute("data-turns")


def hand(page: Page, scope: str = ".hand-row") -> list[str]:
    return [card.get_attribute("data-card") or "" for card in page.locator(f"{scope} .card").all()]


def until(predicate: Callable[[], bool], timeout: float = 20, step: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(step)


def expect_error(page: Page, code: str) -> None:
    """The server's refusal is shown in the message area with its code."""
    expect(page.locator(f"#messages .message.error[data-code='{code}']").last).to_be_visible()


def dismiss_messages(page: Page) -> None:
    """Closes every message with its own button."""
    while page.locator("#messages .dismiss").count():
        page.locator("#messages .dismiss").first.click()
    expect(page.locator("#messages .message")).to_have_count(0)


AXE_VERSION = "4.14.1"
AXE_DIR = PROJECT / "test-artifacts" / "axe"
SERIOUS = ("serious", "critical")


def axe_source() -> str | None:
    """axe-core's ``axe.min.js``, fetched once with npm into ``test-artifacts/axe`` (never committed);
    None, with a notice, on a machine without npm outside CI."""
    script = AXE_DIR / "package" / "axe.min.js"
    if not script.exists():
        if shutil.which("npm") is None:
            if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
                raise AssertionError("npm is needed in CI to fetch axe-core for the accessibility checks")
            print("\nNOTICE: no npm to fetch axe-core; the accessibility checks are skipped")
            return None
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        command = ["npm", "pack", f"axe-core@{AXE_VERSION}", "--pack-destination", str(AXE_DIR)]
        packed = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
        with tarfile.open(AXE_DIR / packed.stdout.strip().splitlines()[-1]) as archive:
            archive.extract("package/axe.min.js", AXE_DIR, filter="data")
    return script.read_text()


def serious_violations(page: Page, name: str) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now (the script is evaluated
    through the driver, so the page's Content-Security-Policy stays as it is)."""
    source = axe_source()
    if source is None:
        return []
    page.evaluate(source)
    found = page.evaluate("async () => (await axe.run(document)).violations"
                          ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
                          " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))")
    return [f"{name}: {item['id']} ({item['impact']}) {item['help']} at {item['nodes']}"
            for item in found if item["impact"] in SERIOUS]


MISSING_GLYPHS = """node => {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 48;
  const pen = canvas.getContext("2d");
  pen.font = `32px ${getComputedStyle(node).fontFamily}`;
  const drawn = (character) => {
    pen.clearRect(0, 0, 48, 48);
    pen.fillText(character, 4, 36);
    return pen.getImageData(0, 0, 48, 48).data.join();
  };
  const box = drawn("\\u0378");
  return [...new Set(node.textContent)].filter((character) => character.trim() && drawn(character) === box);
}"""


def missing_glyphs(locator: Locator) -> list[str]:
    """The characters of the element's text that no installed font draws: each is drawn in the
    element's fonts and compared with an unassigned code point, which every font draws as its box."""
    found: list[str] = locator.evaluate(MISSING_GLYPHS)
    return found


def catalog(code: str) -> dict[str, Any]:
    """The client's message catalog of language ``code`` (frontend/i18n/<code>.json)."""
    loaded: dict[str, Any] = json.loads((CATALOG_DIR / f"{code}.json").read_text(encoding="utf-8"))
    return loaded


def message(code: str, key: str, **params: str) -> str:
    """A message of the catalog of ``code`` with its parameters filled in, as the page shows it."""
    text: str = catalog(code)[key]
    for name, value in params.items():
        text = text.replace(f"{{{name}}}", value)
    return text


def wait_finished(client: LiveClient, timeout: float = 60) -> str:
    state = client.state_where(lambda m: m["room"]["status"] == "finished", timeout)
    match_id: str = state["room"]["match_id"]
    return match_id


def fill_with_bots(owner: LiveClient, seats: range) -> None:
    for seat in seats:
        owner.send({"type": "add_bot", "seat": seat, "level": "random"})
        owner.state_where(lambda m, s=seat: m["room"]["seats"][s]["name"] is not None)


def bots_only(server: LiveServer, owner: LiveClient, game: str, options: dict[str, Any], seats: int) -> str:
    room = server.post("/api/rooms", {"game": game, "options": {**options, "turn_seconds": 0},
                                      "private": True}, owner.token)
    owner.connect(room["id"])
    fill_with_bots(owner, range(seats))
    owner.send({"type": "start"})
    match_id = wait_finished(owner)
    owner.close()
    return match_id


def place(page: Page, groups: list[list[str]], first: int = 0) -> None:
    """Taps each group's cards, then the group's "Place in" button (groups from G``first + 1``)."""
    for index, group in enumerate(groups, start=first):
        for card in group:
            page.locator(f".hand-box [data-card='{card}']").click()
        page.get_by_role("button", name=f"Place in G{index + 1}").click()
        expect(page.locator(f"[data-group='{index + 1}'] .card")).to_have_count(len(group))


# Dealer seat 3: packets of three go to seats 0, 1, 2, 3, 0, 1, 2, 3; the 25th card is the widow.
HANDS = {
    0: ["JK", "JS", "9H", "10H", "9D", "9C"],
    1: ["AH", "KH", "QH", "JH", "AS", "KS"],
    2: ["QS", "10S", "9S", "AD", "KD", "QD"],
    3: ["JD", "10D", "AC", "KC", "QC", "10C"],
}
WIDOW = "JC"


def fixed_deck() -> list[str]:
    deck: list[str] = []
    for packet in range(2):
        for seat in range(4):
            deck += HANDS[seat][3 * packet:3 * packet + 3]
    return [*deck, WIDOW]
