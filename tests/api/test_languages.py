"""The interface language on the server's side: the first page's ``<html lang>`` from
``Accept-Language``, and the choice a player keeps with his account."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from support import Client
from support.accounts import claim, http, sign_in, unique

from app.languages import LANGUAGES, best_language, catalog_languages

__all__ = ["http"]


@pytest.mark.parametrize(("header", "available", "chosen"), [
    ("bn-BD,bn;q=0.9,en;q=0.8", ("en", "bn"), "bn"),
    ("en-US,en;q=0.9,ka;q=0.8", ("en", "ka"), "en"),
    ("fr-FR,ka;q=0.5,ru;q=0.7", ("en", "ka", "ru"), "ru"),
    ("de;q=0, pl", ("en", "de", "pl"), "pl"),
    ("kk-KZ", ("en", "ru"), "en"),
    ("*", ("en", "ru"), "en"),
    ("el;q=abc, hi", ("en", "el", "hi"), "hi"),
    ("", ("en",), "en"),
])
def test_the_best_language_for_a_header(header: str, available: tuple[str, ...], chosen: str) -> None:
    assert best_language(header, available) == chosen


def test_the_first_page_is_in_the_language_the_browser_asks_for(http: TestClient) -> None:
    for code in catalog_languages():
        page = http.get("/", headers={"Accept-Language": f"{code}-XX, en;q=0.5"})
        assert page.status_code == 200 and f'<html lang="{code}">' in page.text
        assert page.headers["vary"] == "Accept-Language"
    assert '<html lang="en">' in http.get("/index.html", headers={"Accept-Language": "fr"}).text
    assert catalog_languages()[0] == "en" and set(catalog_languages()) <= set(LANGUAGES)


def test_a_claimed_account_keeps_its_language(http: TestClient) -> None:
    name = unique("Lang")
    player = Client(http, name)
    assert http.get("/api/sessions/me", headers=player.auth).json()["language"] is None
    claim(http, player)
    assert http.put(f"/api/players/{player.id}/language", headers=player.auth,
                    json={"language": "ka"}).status_code == 204
    assert http.get("/api/sessions/me", headers=player.auth).json()["language"] == "ka"
    assert sign_in(http, name).json()["language"] == "ka"


def test_a_refused_choice_changes_nothing(http: TestClient) -> None:
    player, other = Client(http, unique("Lang")), Client(http, unique("Other"))
    http.put(f"/api/players/{player.id}/language", headers=player.auth, json={"language": "pl"})
    tries = [
        (player.auth, {"language": "xx"}, 422, "request/invalid"),
        (player.auth, {"language": "en-XA"}, 422, "request/invalid"),
        (player.auth, {"language": "pl", "extra": 1}, 422, "request/invalid"),
        (other.auth, {"language": "ru"}, 403, "auth/not_yours"),
        ({}, {"language": "ru"}, 401, "auth/missing_token"),
        ({"Authorization": "Bearer nope"}, {"language": "ru"}, 401, "auth/bad_token"),
    ]
    for headers, body, status, code in tries:
        response = http.put(f"/api/players/{player.id}/language", headers=headers, json=body)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), response.text
    assert http.get("/api/sessions/me", headers=player.auth).json()["language"] == "pl"
