"""A person plays Azi in the browser (the 4-card variant): creates the room in the lobby, adds two
random bots, starts, discards, bets or calls, plays cards (only the legal ones can be pressed),
reloads in the middle of a deal, and plays on until a game in which they played a card has been
settled, with its chips shown."""

from __future__ import annotations

import time

import pytest
from browser_support import (
    add_bots,
    create_room_in_lobby,
    dismiss_messages,
    expect_error,
    hand,
    my_decision_taken,
    open_lobby,
    phase,
    shoot,
    start,
    turns,
    version,
)
from live import LiveServer
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

MAX_GAMES = 8


class Person:
    """Plays whatever the page offers: the first card to discard, the smallest bet, a call, the
    first playable card, a declined buy-in. Remembers what it did."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.did: list[str] = []
        self.played_in_game: set[int] = set()
        self.amount_refused = False
        self.illegal_tried = False
        self.reloaded = False

    def game_number(self) -> int:
        text = self.page.locator(".phase-line").first.inner_text()
        return int(text.split()[1].rstrip(":,")) if text.startswith("Game ") else 0

    def step(self) -> bool:
        """One decision if the page offers one; False if there is none now."""
        page = self.page
        if page.locator(".table-page").get_attribute("data-my-turn") != "1":
            return False
        counter = turns(page)
        if page.locator("#azi-discard").count():
            page.locator(".hand-row .card").first.click()
            expect(page.locator("#azi-discard")).to_be_enabled()
            page.locator("#azi-discard").click()
            self.did.append("discard")
        elif page.locator("#azi-bet").count() or page.locator("#azi-raise").count():
            kind = "bet" if page.locator("#azi-bet").count() else "raise"
            if not self.amount_refused:
                self.refuse_amount(kind)
                return True
            if kind == "bet":
                box = page.locator("#azi-bet-amount")
                box.fill(box.get_attribute("min") or "")
                page.locator("#azi-bet").click()
            else:
                page.locator("#azi-call").click()
            self.did.append(kind if kind == "bet" else "call")
        elif page.locator("#azi-call").count():
            page.locator("#azi-call").click()
            self.did.append("call")
        elif page.locator(".hand-row .card.playable").count():
            if not self.illegal_tried:
                self.try_illegal_card()
            game = self.game_number()
            page.locator(".hand-row .card.playable").first.click()
            self.did.append("play")
            self.played_in_game.add(game)
        elif page.locator("#azi-decline").count():
            page.locator("#azi-decline").click()
            self.did.append("decline")
        else:
            return False
        my_decision_taken(page, counter)
        return True

    def refuse_amount(self, kind: str) -> None:
        """An amount under the allowed range is sent as typed; the server refuses it."""
        box = self.page.locator(f"#azi-{kind}-amount")
        low = int(box.get_attribute("min") or "0")
        box.fill(str(low - 1))
        self.page.locator(f"#azi-{kind}").click()
        expect_error(self.page, "action/bet_below_minimum" if kind == "bet" else "action/raise_too_small")
        self.amount_refused = True

    def try_illegal_card(self) -> None:
        """A card that may not be played now cannot be pressed: nothing is sent."""
        blocked = self.page.locator(".hand-row .card[aria-disabled='true']")
        if blocked.count():
            before = version(self.page)
            blocked.first.click(force=True)
            self.page.wait_for_timeout(300)
            assert version(self.page) == before
            assert self.page.locator(".hand-row .card[aria-disabled='true']").count() >= 1
            self.illegal_tried = True


def settled_game(page: Page) -> int:
    text = page.locator("#azi-last-game").inner_text() if page.locator("#azi-last-game").count() else ""
    return int(text.split()[1].rstrip(":")) if text else 0


def test_azi_games_in_the_browser(page: Page, server: LiveServer) -> None:
    open_lobby(page, server, "Aziz")
    create_room_in_lobby(page, "azi", {"hand_size": 4, "stake": 10})
    expect(page.locator(".seat")).to_have_count(6)
    add_bots(page, 2, level="random")
    expect(page.locator(".seat .bot-badge")).to_have_count(2)
    expect(page.locator(".seat.bot").first).to_contain_text("random")
    start(page)
    expect(page.locator(".seat")).to_have_count(3)
    expect(page.locator("#azi-trump")).to_contain_text("Trump:")
    expect(page.locator("#azi-pot")).to_contain_text("Pot 30")

    person = Person(page)
    # The discard of the 4-card variant, then a reload: the table comes back as it was.
    expect(page.locator("#azi-discard")).to_be_visible()
    assert len(hand(page)) == 4
    shoot(page, "azi-discard")
    person.step()
    expect(page.locator(".hand-row .card")).to_have_count(3)
    kept = hand(page)
    page.reload()
    expect(page.locator(".hand-row .card")).to_have_count(3)
    assert hand(page) == kept
    expect(page.locator("#azi-trump")).to_contain_text("Trump:")

    # The owner may close the table only between games; in a deal the server says no.
    page.locator("#azi-close").click()
    expect_error(page, "table/not_between_games")

    deadline = time.monotonic() + 90
    shot_betting = False
    while time.monotonic() < deadline:
        if page.locator(".table-page").get_attribute("data-status") == "finished":
            break
        if not shot_betting and page.locator("#azi-call, #azi-bet").count():
            dismiss_messages(page)
            shoot(page, "azi-betting")
            shot_betting = True
        if person.step():
            continue
        settled = settled_game(page)
        if settled and settled in person.played_in_game:
            break
        assert person.game_number() <= MAX_GAMES or settled < MAX_GAMES, "no game with a played card"
        page.wait_for_timeout(60)
    settled = settled_game(page)
    assert settled in person.played_in_game, (person.did, settled)
    assert "play" in person.did and "discard" in person.did
    assert person.amount_refused

    result = page.locator("#azi-last-game")
    expect(result).to_contain_text(f"Game {settled}:")
    expect(result).to_contain_text("won the pot")
    page.wait_for_function("() => document.querySelectorAll('#azi-chips tbody tr').length >= 3")
    dismiss_messages(page)
    assert phase(page) in {"game_over", "needs_deal", "discard", "betting", "play", "azi_buy_in",
                           "match_over"}
    shoot(page, "azi-end")
