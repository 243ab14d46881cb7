"""The table chat as two people use it, each in a browser of his own: lines both ways, markup shown
as the text it is, the character counter, a reaction shown at the sender's seat, and mute (kept in
the browser). With the chat open the hand and the controls stay in view at a desktop and a phone size."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect
from support.browser import (
    DESKTOP,
    PHONE,
    SHOTS,
    add_bots,
    in_view,
    laid_out,
    open_lobby,
    seated_in_new_room,
    start,
    until,
)
from support.hazari import GROUPS, SEAT_ONE_WINS, hand_text
from support.live import LiveClient, LiveServer

MARKUP = "<b>bold?</b> <img src=x onerror=alert(1)>"


def test_two_players_chat_react_and_mute(page: Page, browser: Browser, server: LiveServer) -> None:
    room_id = seated_in_new_room(page, server, "Ana", "hazari", {})
    friend_context = browser.new_context(viewport=DESKTOP)
    try:
        friend = friend_context.new_page()
        open_lobby(friend, server, "Ben")
        friend.goto(f"{server.base}/#/room/{room_id}")
        friend.locator(".seat[data-seat='1']").get_by_role("button", name="Sit here").click()
        expect(friend.locator(".seat.mine")).to_have_attribute("data-seat", "1")

        page.locator("#chat-toggle").click()
        page.locator("#chat-input").fill(MARKUP)
        expect(page.locator("#chat-counter")).to_have_text(f"{len(MARKUP)}/200")
        page.locator("#chat-send").click()
        expect(page.locator("#chat-log")).to_contain_text(MARKUP)

        expect(friend.locator("#chat-toggle")).to_have_text("Chat (1 new)")
        friend.locator("#chat-toggle").click()
        line = friend.locator(".chat-line").last
        expect(line.locator(".chat-text")).to_have_text(MARKUP)
        assert line.locator("b, img").count() == 0, "markup in a chat line was interpreted"
        friend.locator("#chat-input").fill("hello Ana")
        friend.locator("#chat-input").press("Enter")
        expect(page.locator("#chat-log")).to_contain_text("hello Ana")
        expect(page.locator(".chat-line").last.locator(".chat-name")).to_have_text("Ben")

        friend.locator("#chat-input").fill("x" * 201)
        expect(friend.locator("#chat-counter")).to_have_text("201/200")
        expect(friend.locator("#chat-send")).to_be_disabled()
        expect(friend.locator("#chat-refusal")).to_have_text("At most 200 characters.")
        friend.locator("#chat-input").fill("")

        friend.get_by_role("button", name="Well played").click()
        bubble = page.locator(".seat[data-seat='1'] .seat-reaction")
        expect(bubble).to_contain_text("Well played")
        expect(page.locator(".seat[data-seat='0'] .seat-reaction")).to_have_count(0)

        page.get_by_role("button", name="Mute Ben").first.click()
        expect(page.locator("#chat-log")).not_to_contain_text("hello Ana")
        expect(page.locator("#chat-muted")).to_contain_text("Unmute Ben")
        friend.locator("#chat-input").fill("can you hear me?")
        friend.locator("#chat-send").click()
        expect(friend.locator("#chat-log")).to_contain_text("can you hear me?")
        friend.get_by_role("button", name="Oops").click()
        expect(friend.locator(".chat-line").last).to_contain_text("Oops")
        page.reload()
        page.locator("#chat-toggle").click()
        expect(page.locator("#chat-log")).to_contain_text(MARKUP)
        expect(page.locator("#chat-log")).not_to_contain_text("can you hear me?")
        expect(page.locator(".seat[data-seat='1'] .seat-reaction")).to_have_count(0)
        page.get_by_role("button", name="Unmute Ben").click()
        expect(page.locator("#chat-log")).to_contain_text("can you hear me?")

        add_bots(page, 2)
        start(page)
        expect(page.locator(".dock .hand, .dock .groups").first).to_be_visible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            laid_out(page)
            page.screenshot(path=str(SHOTS / f"table-chat-{label}.png"))
            in_view(page, "#dock", "the dock with the chat open", label)
            in_view(page, "#chat-input", "the chat's input", label)
    finally:
        friend_context.close()


def test_a_spectator_reads_the_chat_and_is_told_he_may_not_write(page: Page, browser: Browser,
                                                                  server: LiveServer) -> None:
    room_id = seated_in_new_room(page, server, "Cleo", "hasenpfeffer", {})
    watcher_context = browser.new_context(viewport=PHONE)
    try:
        watcher = watcher_context.new_page()
        open_lobby(watcher, server, "Dan")
        watcher.goto(f"{server.base}/#/room/{room_id}")
        page.locator("#chat-toggle").click()
        page.locator("#chat-input").fill("welcome, watchers")
        page.locator("#chat-send").click()
        watcher.locator("#chat-toggle").click()
        expect(watcher.locator("#chat-log")).to_contain_text("welcome, watchers")
        expect(watcher.locator("#chat-note")).to_have_text(
            "At this table only the players write in the chat.")
        expect(watcher.locator("#chat-input")).to_be_hidden()
    finally:
        watcher_context.close()


def test_the_replay_shows_the_chat_in_time_with_the_steps(page: Page, server: LiveServer) -> None:
    players = [LiveClient(server, f"Replayer {seat}") for seat in range(4)]
    room = server.post("/api/rooms", {"game": "hazari", "private": True, "options": {
        "target": 300, "decks": [SEAT_ONE_WINS], "first_dealer": 0}}, token=players[0].token)
    try:
        for seat, player in enumerate(players):
            player.connect(room["id"])
            player.send({"type": "sit", "seat": seat})
            player.state_where(lambda m, s=seat, p=player: m["room"]["seats"][s]["player_id"] == p.id)
        players[0].send({"type": "chat", "text": "before the start"})
        players[0].send({"type": "start"})
        for player in players:
            state = player.state_where(lambda m: m["view"]["phase"] == "arranging")
            player.send({"type": "act", "action": {"kind": "up", "groups": GROUPS[hand_text(state)]}})
        final = players[0].state_where(lambda m: m["room"]["status"] == "finished")
        players[1].send({"type": "chat", "text": "<i>gg</i>"})
        players[0].until(lambda m: m["type"] == "chat" and m["text"] == "<i>gg</i>")
    finally:
        for player in players:
            player.close()
    match_id = final["room"]["match_id"]
    until(lambda: len(server.get(f"/api/matches/{match_id}")["chat"]) == 1)
    page.goto(f"{server.base}/#/replay/{match_id}/0")
    expect(page.locator("#replay-chat")).to_contain_text("Nothing said yet.")
    page.locator("#replay-last").click()
    expect(page.locator("#replay-chat .chat-text")).to_have_text(["<i>gg</i>"])
    expect(page.locator("#replay-chat")).not_to_contain_text("before the start")
