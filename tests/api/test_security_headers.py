"""The headers that keep the browser client safe (Content-Security-Policy, nosniff, no Referer, no
framing) on every HTTP answer, and a client with no inline script or style for the policy to block."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from support import PROJECT_DIR

PAGES = ["/", "/index.html", "/js/app.js", "/css/main.css", "/api/health", "/api/games", "/openapi.json"]


def directives(policy: str) -> dict[str, str]:
    return {name: value.strip() for name, _, value in
            (part.strip().partition(" ") for part in policy.split(";") if part.strip())}


@pytest.mark.parametrize("path", PAGES)
def test_every_answer_carries_the_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-frame-options"] == "DENY"
    policy = directives(response.headers["content-security-policy"])
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"
    assert policy["connect-src"] == "'self' ws://testserver wss://testserver"


def test_an_odd_host_is_not_written_into_the_policy(client: TestClient) -> None:
    response = client.get("/", headers={"Host": "evil.example; script-src *"})
    assert directives(response.headers["content-security-policy"])["connect-src"] == "'self'"
    bracketed = client.get("/", headers={"Host": "[::1]:8000"})
    assert "ws://[::1]:8000" in bracketed.headers["content-security-policy"]


def test_the_api_pages_keep_their_scripts(client: TestClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200 and "content-security-policy" not in response.headers
    assert response.headers["x-content-type-options"] == "nosniff"


class InlineCode(HTMLParser):
    """Inline scripts, style elements and attributes, and event-handler attributes in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if tag == "script" and "src" not in names or tag == "style":
            self.found.append(f"<{tag}> at line {self.getpos()[0]}")
        self.found += [f"{name}= on <{tag}>" for name in names if name == "style" or name.startswith("on")]


@pytest.mark.parametrize("page", sorted((PROJECT_DIR / "frontend").glob("*.html")), ids=lambda p: p.name)
def test_the_client_pages_hold_no_inline_code(page: Path) -> None:
    parser = InlineCode()
    parser.feed(page.read_text())
    assert parser.found == []


def test_the_client_scripts_write_no_inline_code() -> None:
    pattern = re.compile(r"""innerHTML|insertAdjacentHTML|setAttribute\(\s*["'](style|on)|eval\(|new Func""")
    offending = [f"{path.name}:{number}" for path in (PROJECT_DIR / "frontend" / "js").glob("*.js")
                 for number, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert offending == []
