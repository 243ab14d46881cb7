"""Browser tests: the real server in a subprocess on a free port, and Debian's Chromium driven by
Playwright (pytest-playwright's fixtures, launched with the flags below).

Outside CI a machine without ``/usr/bin/chromium`` skips these tests with a printed notice; with
``CI=true`` they must run (``make test`` installs Chromium first).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, BrowserType, Playwright, sync_playwright
from support import installed
from support.browser import browser_server, watch_policy_violations
from support.live import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def chromium() -> Path:
    return installed(CHROMIUM, "Chromium", "browser", "browser")


@pytest.fixture(scope="session")
def base_url() -> str | None:
    """Replaces pytest-playwright's own fixture (defined in a class, which this pytest warns
    about); the tests open full addresses of their server."""
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any], chromium: Path,
                             tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Chromium, with a runtime folder of the run's own: its sound library makes one where
    ``XDG_RUNTIME_DIR`` points, else a ``pulse-*`` folder in the temporary folder that outlives it."""
    runtime = tmp_path_factory.mktemp("browser-runtime")
    runtime.chmod(0o700)
    return {**browser_type_launch_args, "executable_path": str(chromium), "args": CHROMIUM_FLAGS,
            "env": {**os.environ, "XDG_RUNTIME_DIR": str(runtime)}}


@pytest.fixture(scope="session")
def browser_context_args() -> dict[str, Any]:
    return {"viewport": DESKTOP}


# pytest-playwright keeps one Playwright for the whole session; its event loop then stays the
# running loop of this thread after the browser tests, and every later test that calls
# asyncio.run() fails. So here Playwright and Chromium live for one test module each.


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    driver = sync_playwright().start()
    yield driver
    driver.stop()


@pytest.fixture(scope="module")
def browser_type(playwright: Playwright, browser_name: str) -> BrowserType:
    found: BrowserType = getattr(playwright, browser_name)
    return found


@pytest.fixture(scope="module")
def launch_browser(browser_type_launch_args: dict[str, Any],
                   browser_type: BrowserType) -> Callable[..., Browser]:
    def launch(**options: Any) -> Browser:
        return browser_type.launch(**{**browser_type_launch_args, **options})
    return launch


@pytest.fixture
def context(context: BrowserContext) -> Iterator[BrowserContext]:
    """pytest-playwright's context, failing the test if its pages broke the server's
    Content-Security-Policy (a blocked script or style is a client that no longer works)."""
    violations = watch_policy_violations(context)
    yield context
    assert not violations, f"Content-Security-Policy violations: {violations}"


@pytest.fixture(scope="module")
def browser(launch_browser: Callable[..., Browser]) -> Iterator[Browser]:
    launched = launch_browser()
    yield launched
    launched.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, chromium: Path) -> Iterator[LiveServer]:
    with browser_server(tmp_path_factory.mktemp("browser-server")) as live:
        yield live
