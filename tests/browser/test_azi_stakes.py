"""Safe stakes at Azi in the browser: the player chooses the chips he brings to the table (out of
range or not a whole number is refused in words and seats nobody, and so is a buy-in the server
refuses), plays a game from a fixed deck and leaves; the header then shows his wallet equal to his
balance, and the ledger in the server's database is exact to the chip. A bet of more than a quarter
of the stack asks first: Cancel sends nothing, Confirm sends the bet.

The server waits for the player between games (a long deal pause), so that he can leave then; his
cards are the three highest trumps and he opens the betting, so the game ends the same way (he
wins it) whatever the bot does."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from support.azi import azi_deck_for
from support.browser import (
    add_bots,
    bring_chips,
    browser_server,
    confirm_big_bet,
    my_decision_taken,
    open_lobby,
    saved_player,
    seated_in_new_room,
    shoot,
    start,
    turns,
    version,
)
from support.live import LiveServer

pytestmark = pytest.mark.browser

BUTTON = 1
DECK = azi_deck_for({0: "AH KH QH", 1: "6D 7D 8H"}, BUTTON, 2)
OPTIONS = {"stake": 10, "turn_seconds": 0, "first_dealer": BUTTON, "decks": [DECK]}
STARTING = 1000
INTO_POT = ("ante", "bet", "call", "raise", "buy_in")
OUT_OF_POT = ("payout", "refund")
MAX_DECISIONS = 12
MY_TURN_OR_SETTLED = (
    "() => { const t = document.querySelector('.table-page');"
    " return t.dataset.myTurn === '1' || document.querySelector('#azi-last-game') !== null; }")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, chromium: Path) -> Iterator[LiveServer]:
    """A server whose next game waits for the players (or ten minutes): time to leave between games."""
    with browser_server(tmp_path_factory.mktemp("stakes-server"), deal_pause_seconds="600") as live:
        yield live


def rows(server: LiveServer, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Rows read straight from the live server's database."""
    path = server.env["CARDROOM_DATABASE_URL"].split(":///", 1)[1]
    with sqlite3.connect(path) as db:
        return db.execute(sql, args).fetchall()


def seats_taken(server: LiveServer, room_id: str) -> list[str]:
    return [seat["player_id"] for seat in server.get(f"/api/rooms/{room_id}")["seats"] if seat["player_id"]]


def new_room(page: Page, server: LiveServer, name: str) -> tuple[dict[str, Any], str]:
    """A new player in the lobby and an Azi room of his own (made through the API), which the lobby
    lists with its stake and buy-in range; then open in the page."""
    player = open_lobby(page, server, name)
    room = server.post("/api/rooms", {"game": "azi", "options": OPTIONS}, token=player["token"])
    page.get_by_role("button", name="Refresh").click()
    expect(page.locator(f"[data-room='{room['id']}'] .stakes")).to_have_text(
        "Stake 10 chips \u00b7 buy-in 200 to 1,000 chips")
    page.goto(f"{server.base}/#/room/{room['id']}")
    expect(page.locator(".seat")).to_have_count(6)
    return player, str(room["id"])


def sit_here(page: Page, seat: int = 0) -> None:
    page.locator(f".seat[data-seat='{seat}']").get_by_role("button", name="Sit here").click()
    expect(page.locator("#buy-in")).to_be_visible()


def play_the_game(page: Page) -> list[str]:
    """Opens with 40, calls (confirming a big call), plays the first playable card, until the game
    is settled. Returns what the page did."""
    did: list[str] = []
    for _ in range(MAX_DECISIONS):
        page.wait_for_function(MY_TURN_OR_SETTLED)
        if page.locator("#azi-last-game").count():
            return did
        counter = turns(page)
        if page.locator("#azi-bet").count():
            page.locator("#azi-bet-amount").fill("40")
            page.locator("#azi-bet").click()
            did.append("bet")
        elif page.locator("#azi-call").count():
            page.locator("#azi-call").click()
            did.append("confirmed call" if confirm_big_bet(page) else "call")
        else:
            page.locator(".hand-row .card.playable").first.click()
            did.append("play")
        my_decision_taken(page, counter)
    raise AssertionError(f"the game did not end: {did}")


def test_a_chosen_buy_in_comes_back_to_the_wallet_and_the_ledger_is_exact(page: Page,
                                                                          server: LiveServer) -> None:
    player, room_id = new_room(page, server, "Bea")
    sit_here(page)
    dialog = page.locator("#buy-in")
    expect(dialog.get_by_role("heading")).to_have_text("How many chips do you bring?")
    expect(dialog.locator("#buy-in-wallet")).to_have_text("Your wallet: 1,000 chips")
    expect(dialog).to_contain_text("This table takes from 200 to 1,000 chips.")
    amount = dialog.get_by_role("spinbutton", name="Chips to bring")
    expect(amount).to_be_focused()
    expect(amount).to_have_value("1000")
    expect(dialog.get_by_role("slider", name="Chips to bring (slider)")).to_have_value("1000")
    amount.fill("400")
    expect(dialog.get_by_role("slider")).to_have_value("400")
    expect(dialog.locator("#buy-in-send")).to_have_text("Sit down with 400 chips")
    shoot(page, "azi-buy-in")
    bring_chips(page)
    mine = page.locator(".seat.mine")
    expect(mine).to_contain_text("You bring 400 chips")
    expect(page.locator("#my-chips")).to_have_text("Wallet 600 chips")
    expect(page.locator("#my-table-chips")).to_have_text("400 chips at the table")
    expect(page.locator("[data-focus='stand']")).to_be_focused()

    add_bots(page, 1)
    expect(page.locator(".seat.bot")).to_contain_text("Brings 1,000 chips")
    start(page)
    expect(page.locator("#my-table-chips")).to_have_text("390 chips at the table")
    expect(page.locator("#my-chips")).to_have_text("Wallet 600 chips")
    did = play_the_game(page)
    assert did[0] == "bet", did
    expect(page.locator("#azi-last-game")).to_contain_text("You won the pot")

    page.get_by_role("button", name="Leave the table").click()
    expect(page.locator(".table-page")).to_have_attribute("data-status", "finished")
    match_id = server.get(f"/api/rooms/{room_id}")["match_id"]
    match = server.get(f"/api/matches/{match_id}")
    balance = server.get(f"/api/players/{player['id']}")["chips"]
    expect(page.locator("#my-table-chips")).to_have_count(0)
    expect(page.locator("#my-chips")).to_have_text(f"Wallet {balance:,} chips")
    shoot(page, "azi-left")

    # The session took at most the buy-in, and gave back what was left of the stack.
    net = match["result"]["totals"][0]
    assert match["stacks"] == [400, 1000]
    assert net > 0 and balance == STARTING + net
    account, pot, bot = f"player:{player['id']}", f"pot:{match_id}", f"bot:{match_id}:1"
    transfers = rows(server, "SELECT source, target, amount, kind FROM chip_transfers "
                             "WHERE source IN (?, ?, ?) OR target IN (?, ?, ?)",
                     account, pot, bot, account, pot, bot)
    into_pot = sum(amount for _, target, amount, _ in transfers if target == pot)
    out_of_pot = sum(amount for source, _, amount, _ in transfers if source == pot)
    assert into_pot == out_of_pot > 0, transfers
    grants = sum(amount for _, target, amount, kind in transfers if target == account and kind == "grant")
    payouts = sum(amount for _, target, amount, kind in transfers if target == account and kind in OUT_OF_POT)
    stakes = sum(amount for source, _, amount, kind in transfers if source == account and kind in INTO_POT)
    assert grants == STARTING
    assert {kind for source, _, _, kind in transfers if source == account} <= set(INTO_POT)
    assert grants + payouts - stakes == balance
    assert rows(server, "SELECT chips FROM players WHERE id = ?", player["id"]) == [(balance,)]
    bot_in = sum(amount for _, target, amount, _ in transfers if target == bot)
    bot_out = sum(amount for source, _, amount, _ in transfers if source == bot)
    assert bot_in - bot_out == STARTING + match["result"]["totals"][1]
    assert (balance - STARTING) + (bot_in - bot_out - STARTING) == 0, "chips were created or lost"


def test_a_big_bet_asks_first(page: Page, server: LiveServer) -> None:
    seated_in_new_room(page, server, "Cleo", "azi", OPTIONS, buy_in=400)
    player = saved_player(page)
    add_bots(page, 1)
    start(page)
    expect(page.locator("#azi-bet")).to_be_visible()
    before = version(page)
    bet_button = page.locator("#azi-bet")

    page.locator("#azi-bet-amount").fill("200")
    bet_button.click()
    dialog = page.get_by_role("dialog", name="Confirm your bet")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Bet 200 of your 390 chips?")
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    shoot(page, "azi-confirm-bet")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#azi-bet")).to_be_focused()

    # All in: the words say so; Escape cancels too.
    page.locator("#azi-bet-amount").fill("390")
    bet_button.click()
    all_in = page.get_by_role("dialog", name="Bet all your chips?")
    expect(all_in).to_contain_text("Bet all your 390 chips (all in)?")
    page.keyboard.press("Escape")
    expect(all_in).to_have_count(0)
    expect(page.locator("#azi-bet")).to_be_focused()
    assert version(page) == before and page.locator(".table-page").get_attribute("data-my-turn") == "1"

    # A bet of a quarter of the stack or less goes at once; here, 200 after the confirmation.
    page.locator("#azi-bet-amount").fill("200")
    bet_button.click()
    counter = turns(page)
    page.get_by_role("dialog", name="Confirm your bet").get_by_role("button", name="Bet 200").click()
    my_decision_taken(page, counter)
    expect(page.locator("#messages .message.error")).to_have_count(0)
    bets = rows(server, "SELECT amount FROM chip_transfers WHERE source = ? AND kind = 'bet'",
                f"player:{player['id']}")
    assert bets == [(200,)], "Cancel and Escape sent nothing; Confirm sent the bet once"


def test_a_buy_in_out_of_range_or_not_whole_seats_nobody(page: Page, server: LiveServer) -> None:
    _, room_id = new_room(page, server, "Dora")
    sit_here(page, 2)
    dialog = page.locator("#buy-in")
    amount = dialog.get_by_role("spinbutton", name="Chips to bring")
    error = dialog.locator("#buy-in-error [role=alert]")
    for typed, words in (("150", "Choose from 200 to 1,000 chips: the table's smallest and largest buy-in."),
                         ("1500", "Choose from 200 to 1,000 chips: the table's smallest and largest buy-in."),
                         ("250.5", "Type a whole number of chips, from 200 to 1,000."),
                         ("", "Type a whole number of chips, from 200 to 1,000.")):
        amount.fill(typed)
        dialog.get_by_role("button", name=re.compile("^Sit down")).click()
        expect(error).to_have_text(words)
        expect(amount).to_have_attribute("aria-invalid", "true")
        expect(amount).to_be_focused()
    shoot(page, "azi-buy-in-refused")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(page.locator(".seat[data-seat='2']").get_by_role("button", name="Sit here")).to_be_focused()
    assert seats_taken(server, room_id) == []

    # An amount the server refuses: meanwhile, in another tab, the player sat at another chip table.
    sit_here(page, 2)
    token = saved_player(page)["token"]
    other = server.post("/api/rooms", {"game": "azi", "options": {"stake": 10}}, token=token)
    tab = page.context.new_page()
    tab.goto(f"{server.base}/#/room/{other['id']}")
    tab.locator(".seat[data-seat='0']").get_by_role("button", name="Sit here").click()
    bring_chips(tab, 300)
    expect(tab.locator("#my-table-chips")).to_have_text("300 chips at the table")
    tab.close()
    amount.fill("500")
    dialog.get_by_role("button", name="Sit down with 500 chips").click()
    expect(error.locator(".message-text")).to_have_text("You are already playing at another table.")
    expect(error.locator("code")).to_have_text("room/busy_elsewhere")
    expect(dialog).to_be_visible()
    assert seats_taken(server, room_id) == []
