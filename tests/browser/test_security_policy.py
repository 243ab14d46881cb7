"""The client works under the server's Content-Security-Policy, and the browser tests notice a
violation of it (each test's context fails on one; see ``conftest.context``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect
from support.browser import until, watch_policy_violations
from support.live import LiveServer

pytestmark = pytest.mark.browser


def test_an_inline_script_is_blocked_and_reported(browser: Browser, server: LiveServer) -> None:
    context = browser.new_context()
    try:
        violations = watch_policy_violations(context)
        page = context.new_page()
        response = page.goto(f"{server.base}/")
        assert response is not None
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        expect(page.get_by_role("button", name="Play")).to_be_visible()
        assert violations == []
        page.evaluate("""() => {
            const script = document.createElement("script");
            script.textContent = "window.injected = true;";
            document.head.append(script);
        }""")
        until(lambda: bool(violations))
        assert page.evaluate("window.injected === undefined")
        assert any("script-src" in text for text in violations), violations
    finally:
        context.close()
