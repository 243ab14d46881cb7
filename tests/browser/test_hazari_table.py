"""A person plays a whole Hazari deal in the browser: creates the room in the lobby, adds three
bots, starts, arranges the 13 cards on the page (tapping, dragging, keys), sees an out-of-order
arrangement refused by the server, reloads mid-arrangement, calls up, watches the four rounds and
the deal's points, then finds the match in the history."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from support.browser import (
    add_bots,
    create_room_in_lobby,
    drag,
    expect_error,
    hand,
    open_lobby,
    place,
    shoot,
    start,
)
from support.live import LiveServer

from app.games.cards import card_texts, parse_cards
from app.games.hazari.arrangements import order_problems, split_groups, valid_splits
from app.games.hazari.combos import category_name, key_of

pytestmark = pytest.mark.browser


def a_valid_arrangement(cards: list[str]) -> list[list[str]]:
    """One valid arrangement of the hand, worked out by the engine's own enumeration."""
    parsed = parse_cards(cards)
    split = valid_splits(parsed)[0]
    return [list(card_texts(group)) for group in split_groups(parsed, split)]


def out_of_order(groups: list[list[str]]) -> list[list[str]]:
    """The same groups with the three triples reordered so that the order check fails."""
    for order in ((2, 1, 0), (1, 0, 2), (0, 2, 1), (2, 0, 1), (1, 2, 0)):
        wrong = [groups[i] for i in order] + [groups[3]]
        if order_problems([parse_cards(group) for group in wrong]):
            return wrong
    raise AssertionError(f"every order of {groups} is valid")


def group_cards(page: Page, index: int) -> list[str]:
    return hand(page, f"[data-group='{index + 1}']")


def combination_names(groups: list[list[str]]) -> list[str]:
    return [category_name(key_of(parse_cards(group))) for group in groups]


def test_a_whole_hazari_deal_in_the_browser(page: Page, server: LiveServer) -> None:
    open_lobby(page, server, "Hema")
    create_room_in_lobby(page, "hazari", {"target": 5})
    expect(page.locator("#room-options")).to_contain_text("Match length5 points")
    add_bots(page, 3)
    expect(page.locator(".seat.bot")).to_have_count(3)
    expect(page.locator(".seat .bot-badge")).to_have_count(3)
    start(page)
    expect(page.locator(".hand-box .card")).to_have_count(13)
    expect(page.locator("#fairness-line")).to_contain_text("your browser's seed is in")
    cards = hand(page, ".hand-box")
    assert len(set(cards)) == 13

    # Tapping, dragging and keys move cards between the hand and the groups.
    expect(page.locator(".felt-centre")).to_contain_text("3 of 4 up")
    first, second, third = cards[:3]
    drag(page, page.locator(f".hand-box [data-card='{first}']"), page.locator("[data-group='1']"))
    assert group_cards(page, 0) == [first]
    page.locator(f".hand-box [data-card='{second}']").focus()
    page.keyboard.press("Enter")
    expect(page.locator(f"[data-card='{second}']")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("2")
    assert group_cards(page, 1) == [second]
    page.locator(f".hand-box [data-card='{third}']").click()
    page.get_by_role("button", name="Place in G1").click()
    assert group_cards(page, 0) == [first, third]
    page.get_by_role("button", name="Clear").click()
    expect(page.locator(".hand-box .card")).to_have_count(13)

    # "Suggest" fills in the strong bot's arrangement, which the page shows as valid.
    page.get_by_role("button", name="Suggest").click()
    expect(page.locator(".hand-box .card")).to_have_count(0)
    expect(page.locator("#hz-verdict")).to_contain_text("Valid arrangement")
    page.get_by_role("button", name="Clear").click()

    # An out-of-order arrangement: the page says why, and the server refuses "up".
    groups = a_valid_arrangement(cards)
    wrong = out_of_order(groups)
    place(page, wrong)
    problems = order_problems([parse_cards(group) for group in wrong])
    expect(page.locator("#hz-verdict")).to_contain_text("Not in descending order")
    expect(page.locator("#hz-verdict")).to_contain_text("outranks")
    assert len(problems) == page.locator("#hz-verdict").inner_text().count("outranks")
    page.get_by_role("button", name="Up", exact=True).click()
    expect_error(page, "action/bad_order")
    expect(page.locator(".table-page")).to_have_attribute("data-phase", "arranging")

    # Rearranged correctly; each group names its combination as the engine does.
    page.get_by_role("button", name="Clear").click()
    place(page, groups[:2])
    page.reload()
    expect(page.locator("[data-group='2'] .card")).to_have_count(3)
    assert [group_cards(page, 0), group_cards(page, 1)] == groups[:2]
    expect(page.locator(".hand-box .card")).to_have_count(7)
    place(page, groups[2:], first=2)
    names = [page.locator(f"[data-group='{i + 1}'] .combo").get_attribute("data-combo") for i in range(4)]
    assert names == combination_names(groups)
    expect(page.locator("#hz-verdict")).to_contain_text("Valid arrangement")
    shoot(page, "hazari-arranging")
    page.get_by_role("button", name="Up", exact=True).click()

    # The four rounds come one by one; then the deal is scored and (target 5) the match ends.
    expect(page.locator(".rounds tbody tr")).to_have_count(4, timeout=30_000)
    expect(page.locator(".table-page")).to_have_attribute("data-status", "finished")
    expect(page.locator("#hz-deal-result")).to_contain_text("Deal 1 points")
    expect(page.locator("#match-over")).to_contain_text("Match over")
    match_id = page.locator("#match-over a").first.get_attribute("href").split("/")[2]
    match = server.get(f"/api/matches/{match_id}")
    points = match["deals"][0]["points"]
    assert sum(points) == 360
    for value in points:
        expect(page.locator("#hz-scores tbody tr").first).to_contain_text(str(value))
    for number, row in enumerate(page.locator(".rounds tbody tr").all(), start=1):
        expect(row).to_contain_text(str(number))
    shoot(page, "hazari-end")

    # The history: the match in the list, then its deals with their points.
    page.get_by_role("link", name="See this match in the history").click()
    expect(page.locator("#match-deals tbody tr")).to_have_count(1)
    for value in points:
        expect(page.locator("#match-deals tbody tr").first).to_contain_text(str(value))
    page.get_by_role("link", name="My matches").click()
    expect(page.locator("#match-list .match-item")).to_have_count(1)
    expect(page.locator("#match-list")).to_contain_text("Hazari")
    expect(page.locator("#match-list")).to_contain_text("Won by")
    shoot(page, "history")

