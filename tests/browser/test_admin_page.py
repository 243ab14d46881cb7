"""The operator's console in Chromium: live tables listed, one closed with a reason and the audit
log showing it; at a table, the operators' notice as a banner and the Report buttons on another
person's seat and on his chat line, both reaching the operators' list of reports."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from support.browser import SHOTS, open_lobby, seated_in_new_room, serious_violations
from support.live import PROJECT, LiveServer

pytestmark = pytest.mark.browser
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def grant(server: LiveServer, player_id: str) -> None:
    done = subprocess.run([sys.executable, "-m", "app.cli", "admin", "grant", player_id], cwd=PROJECT,
                          env=server.env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def screenshots(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in SIZES.items():
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(SIZES["desktop"])


def admin_call(server: LiveServer, method: str, path: str, token: str,
               body: dict[str, object] | None = None) -> Any:
    response = httpx.request(method, f"{server.base}{path}", json=body, timeout=10,
                             headers={"Authorization": f"Bearer {token}"})
    assert response.status_code < 300, response.text
    return response.json() if response.content else None


def test_the_admin_page_lists_tables_closes_one_and_shows_the_audit_log(page: Page,
                                                                      server: LiveServer) -> None:
    admin = open_lobby(page, server, "Olga")
    expect(page.locator("#admin-link")).to_have_count(0)
    grant(server, admin["id"])
    owner = server.post("/api/players", {"name": "Piet"})
    room = server.post("/api/rooms", {"game": "hazari"}, token=owner["token"])
    page.reload()
    page.locator("#admin-link").click()
    row = page.locator(f"#admin-rooms tr[data-room='{room['id']}']")
    expect(row).to_contain_text("hazari")
    expect(row).to_contain_text("waiting")
    screenshots(page, "admin")
    row.get_by_role("button", name="Close table").click()
    page.locator("#close-dialog-reason").fill("spam table")
    page.locator("#close-dialog-confirm").click()
    expect(page.locator(".message.info")).to_contain_text("The table was closed.")
    expect(page.locator(f"#admin-rooms tr[data-room='{room['id']}']")).to_have_count(0)
    audit = page.locator("#admin-audit tbody tr").first
    expect(audit).to_contain_text("close_room")
    expect(audit).to_contain_text("spam table")
    expect(audit).to_contain_text("Olga")


def test_a_table_shows_the_notice_and_reports_another_player(page: Page, browser: Browser,
                                                             server: LiveServer) -> None:
    room_id = seated_in_new_room(page, server, "Rita", "hazari", {})
    other = browser.new_page()
    try:
        open_lobby(other, server, "Sven")
        other.goto(f"{server.base}/#/room/{room_id}")
        other.locator(".seat[data-seat='1']").get_by_role("button", name="Sit here").click()
        expect(page.locator(".seat[data-seat='1']")).to_contain_text("Sven")
        admin = server.post("/api/players", {"name": "Uma"})
        grant(server, admin["id"])
        admin_call(server, "PUT", "/api/admin/notice", admin["token"],
                   {"text": "Restart in 5 minutes", "reason": "upgrade"})
        banner = page.locator("#notice-banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Notice from the operators: Restart in 5 minutes")
        expect(other.locator("#notice-banner")).to_contain_text("Restart in 5 minutes")
        expect(page.locator(".seat[data-seat='0'] .report-button")).to_have_count(0)
        screenshots(page, "table-notice")
        page.locator(".seat[data-seat='1']").get_by_role("button", name="Report Sven").click()
        page.locator("#report-note").fill("rude in chat")
        page.locator("#report-send").click()
        expect(page.locator(".message.info").last).to_contain_text(
            "Thank you. Your report about Sven was sent to the operators.")
        admin_call(server, "DELETE", "/api/admin/notice", admin["token"], {"reason": "done"})
        expect(banner).to_be_hidden()

        # A chat line is reported with the line as it was said.
        other.locator("#chat-toggle").click()
        other.locator("#chat-input").fill("nobody wants you here")
        other.locator("#chat-send").click()
        page.locator("#chat-toggle").click()
        page.locator("#chat-input").fill("hello Sven")
        page.locator("#chat-send").click()
        line = page.locator(".chat-line", has_text="nobody wants you here")
        expect(line.get_by_role("button", name="Report this message from Sven")).to_be_visible()
        own = page.locator(".chat-line", has_text="hello Sven")
        expect(own).to_be_visible()
        expect(own.locator(".chat-report")).to_have_count(0)
        line.get_by_role("button", name="Report this message from Sven").click()
        expect(page.locator("#reported-line")).to_have_text("nobody wants you here")
        page.locator("#report-send").click()
        expect(page.locator(".message.info").last).to_contain_text(
            "Thank you. Your report about Sven was sent to the operators.")
        reports = admin_call(server, "GET", "/api/admin/reports", admin["token"])["reports"]
        about_line = [report for report in reports if report["chat"]]
        assert [(r["reporter"]["name"], r["reported"]["name"], r["room_id"], r["chat"]["text"])
                for r in about_line] == [("Rita", "Sven", room_id, "nobody wants you here")]
        assert any(r["note"] == "rude in chat" and r["chat"] is None for r in reports)
    finally:
        other.close()


def test_the_admin_page_suspends_lifts_removes_pauses_and_watches(page: Page, browser: Browser,
                                                                 server: LiveServer) -> None:
    ivo = browser.new_page()
    try:
        room_id = seated_in_new_room(ivo, server, "Ivo", "hazari", {})
        admin = open_lobby(page, server, "Greta")
        grant(server, admin["id"])
        page.reload()
        page.locator("#admin-link").click()
        row = page.locator(f"#admin-rooms tr[data-room='{room_id}']")
        expect(row).to_contain_text("1. Ivo")
        assert not serious_violations(page, "admin page")

        def confirm(dialog: str, reason: str) -> None:
            page.locator(f"#{dialog}-reason").fill(reason)
            page.locator(f"#{dialog}-confirm").click()

        # Suspended: his table tells him in words, and he stays out until it is lifted.
        row.get_by_role("button", name="Suspend").click()
        confirm("suspend-dialog", "abuse in chat")
        expect(page.locator(".message.info").last).to_contain_text("Ivo is suspended.")
        expect(ivo.locator(".message").last).to_contain_text("An operator has suspended this account.")
        audit = page.locator("#admin-audit tbody tr").first
        expect(audit).to_contain_text("suspend_player")
        expect(audit).to_contain_text("abuse in chat")
        audit.get_by_role("button", name="Lift").click()
        confirm("lift-dialog", "apologised")
        expect(page.locator(".message.info").last).to_contain_text("Ivo's suspension was lifted.")
        expect(page.locator("#admin-audit tbody tr").first).to_contain_text("apologised")
        ivo.reload()
        expect(ivo.locator(".seat[data-seat='0']")).to_contain_text("Ivo")

        # Removed from the table: told so, and the console no longer lists him there.
        row.get_by_role("button", name="Remove").click()
        confirm("remove-dialog", "blocking the table")
        expect(page.locator(".message.info").last).to_contain_text("Ivo was removed from the table.")
        expect(ivo.locator(".message").last).to_contain_text("An operator removed you from this table.")
        expect(row).not_to_contain_text("Ivo")

        # New tables paused: making one is refused with the reason's code; allowed again after.
        page.locator("#pause-rooms").click()
        confirm("pause-dialog", "upgrade at noon")
        expect(page.locator(".message.info").last).to_contain_text("New tables are paused.")
        expect(page.locator("#pause-rooms")).to_be_checked()
        refused = httpx.post(f"{server.base}/api/rooms", json={"game": "hazari"}, timeout=10,
                             headers={"Authorization": f"Bearer {admin['token']}"})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "room/creation_paused"
        page.locator("#pause-rooms").click()
        confirm("pause-dialog", "upgrade done")
        expect(page.locator(".message.info").last).to_contain_text("New tables can be made again.")

        # Watching opens the table as a spectator sees it.
        row.get_by_role("link", name="Watch").click()
        page.locator("#watch-dialog-confirm").click()
        expect(page.locator(".table-page")).to_have_attribute("data-seat", "")
        expect(page.locator(".seat.mine")).to_have_count(0)
    finally:
        ivo.close()
