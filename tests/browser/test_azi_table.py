"""A person plays Azi in the browser (the 4-card variant): opens a room with a fixed first deal, adds
two strong bots, starts, discards, reloads in the middle of the deal, sends a refused opening bet,
bets, calls, plays cards (only the legal ones can be pressed) until the game is settled, with its
chips shown.

The deal is fixed so that the path does not depend on the shuffle nor on the bots' choices: the
person sits after the button and opens the betting; bot 1 holds the four highest trumps, so it never
folds and wins the game, in which the person plays cards."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from support.azi import azi_deck_for
from support.browser import (
    add_bots,
    confirm_big_bet,
    dismiss_messages,
    expect_error,
    hand,
    my_decision_taken,
    phase,
    seated_in_new_room,
    shoot,
    start,
    turns,
    version,
)
from support.live import LiveServer

pytestmark = pytest.mark.browser

BUTTON = 2
FIRST_DEAL = {0: "6H 8H 7S 8S", 1: "AH KH QH JH", 2: "6D 7D 8D 7H"}
MAX_DECISIONS = 40
MY_TURN_OR_SETTLED = (
    "() => { const t = document.querySelector('.table-page');"
    " return t.dataset.myTurn === '1' || t.dataset.status === 'finished'"
    " || document.querySelector('#azi-last-game') !== null; }")


class Person:
    """Plays whatever the page offers: the first card to discard, the smallest bet, a call (confirmed
    when the page asks, for a big one), the first playable card, a declined buy-in. Remembers what it
    did."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.did: list[str] = []
        self.played_in_game: set[int] = set()
        self.amount_refused = False
        self.illegal_tried = False
        self.blocked_card: str | None = None
        self.version_before = 0

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
                box.fill(box.get_attribute("data-min") or "")
                page.locator("#azi-bet").click()
            else:
                page.locator("#azi-call").click()
                confirm_big_bet(page)
            self.did.append(kind if kind == "bet" else "call")
        elif page.locator("#azi-call").count():
            page.locator("#azi-call").click()
            confirm_big_bet(page)
            self.did.append("call")
        elif page.locator(".hand-row .card.playable").count():
            tried = not self.illegal_tried and self.try_illegal_card()
            game = self.game_number()
            page.locator(".hand-row .card.playable").first.click()
            self.did.append("play")
            self.played_in_game.add(game)
            if tried:
                self.nothing_sent_for_the_blocked_card(counter)
                return True
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
        low = int(box.get_attribute("data-min") or "0")
        box.fill(str(low - 1))
        self.page.locator(f"#azi-{kind}").click()
        expect_error(self.page, "action/bet_below_minimum" if kind == "bet" else "action/raise_too_small")
        self.amount_refused = True

    def try_illegal_card(self) -> bool:
        """Presses a card that may not be played now, if there is one; the page must send nothing."""
        blocked = self.page.locator(".hand-row .card[aria-disabled='true']")
        if not blocked.count():
            return False
        dismiss_messages(self.page)
        self.blocked_card = blocked.first.get_attribute("data-card")
        self.version_before = version(self.page)
        # A press as a person makes it, on the card in view; Playwright's own click refuses an
        # element marked aria-disabled, and forcing it skips the wait for the card to be drawn.
        expect(blocked.first).to_be_visible()
        blocked.first.dispatch_event("click")
        self.illegal_tried = True
        return True

    def nothing_sent_for_the_blocked_card(self, counter: str | None) -> None:
        """The server answers in order: once the legal card's state is here, an answer to a frame
        sent for the blocked card would be here too. There is none, and the blocked card is still
        in the hand."""
        my_decision_taken(self.page, counter)
        assert version(self.page) > self.version_before
        expect(self.page.locator("#messages .message.error")).to_have_count(0)
        assert self.blocked_card in hand(self.page)


def settled_game(page: Page) -> int:
    text = page.locator("#azi-last-game").inner_text() if page.locator("#azi-last-game").count() else ""
    return int(text.split()[1].rstrip(":")) if text else 0


def open_room(page: Page, server: LiveServer) -> None:
    """The room is created for the page's player through the API (test mode's fixed deck and
    button); the page opens its link and sits at seat 0."""
    options = {"hand_size": 4, "stake": 10, "first_dealer": BUTTON,
               "decks": [azi_deck_for(FIRST_DEAL, BUTTON, 3)]}
    seated_in_new_room(page, server, "Aziz", "azi", options)


def test_azi_games_in_the_browser(page: Page, server: LiveServer) -> None:
    open_room(page, server)
    expect(page.locator(".seat")).to_have_count(6)
    add_bots(page, 2, level="strong")
    expect(page.locator(".seat .bot-badge")).to_have_count(2)
    expect(page.locator(".seat.bot").first).to_contain_text("strong")
    start(page)
    expect(page.locator(".seat")).to_have_count(3)
    expect(page.locator("#azi-trump")).to_contain_text("Trump:")
    expect(page.locator("#azi-pot")).to_contain_text("Pot 30")

    person = Person(page)
    # The discard of the 4-card variant, then a reload: the table comes back as it was.
    expect(page.locator("#azi-discard")).to_be_visible()
    expect(page.locator(".hand-row .card")).to_have_count(4)
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

    shot_betting = False
    for _ in range(MAX_DECISIONS):
        page.wait_for_function(MY_TURN_OR_SETTLED)
        if settled_game(page) or page.locator(".table-page").get_attribute("data-status") == "finished":
            break
        if not shot_betting and page.locator("#azi-call, #azi-bet").count():
            dismiss_messages(page)
            shoot(page, "azi-betting")
            shot_betting = True
        assert person.step(), f"the page awaits a decision it offers no control for: {person.did}"
    assert settled_game(page) == 1 and 1 in person.played_in_game, person.did
    assert person.amount_refused and person.did[:2] == ["discard", "bet"]
    assert "play" in person.did
    settled = 1

    result = page.locator("#azi-last-game")
    expect(result).to_contain_text(f"Game {settled}:")
    expect(result).to_contain_text("won the pot")
    page.wait_for_function("() => document.querySelectorAll('#azi-chips tbody tr').length >= 3")
    dismiss_messages(page)
    assert phase(page) in {"game_over", "needs_deal", "discard", "betting", "play", "azi_buy_in",
                           "match_over"}
    shoot(page, "azi-end")
