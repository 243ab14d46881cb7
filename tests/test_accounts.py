"""Accounts a player keeps: claiming a guest account with a password, signing in from another browser,
names unique ignoring case once claimed, revoking every token, and the sign-in rate limit."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select, text
from starlette.testclient import TestClient
from support import Client, query
from test_replays import app_client

from app.api import deps
from app.db import models

PASSWORD = "a long secret"


@pytest.fixture
def http(database_url: str) -> Iterator[TestClient]:
    with app_client(database_url) as client:
        yield client


def unique(name: str) -> str:
    return f"{name} {random.Random().randrange(10**8)}"


def claim(http: TestClient, player: Client, password: str = PASSWORD, **extra: Any) -> Any:
    return http.post(f"/api/players/{player.id}/claim", headers=player.auth,
                     json={"password": password, **extra})


def sign_in(http: TestClient, name: str, password: str = PASSWORD) -> Any:
    return http.post("/api/sessions", json={"name": name, "password": password})


def works(http: TestClient, player_id: str, token: str) -> bool:
    """Whether ``token`` is accepted (a top-up is refused for a full purse, but only once signed in)."""
    response = http.post(f"/api/players/{player_id}/top-up", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code in (400, 401), response.text
    return response.status_code == 400



def test_a_guest_claims_the_account_and_signs_in_from_another_browser(
        http: TestClient, database_url: str) -> None:
    name = unique("Keeper")
    guest = Client(http, name)
    response = claim(http, guest)
    assert response.status_code == 200, response.text
    assert response.json()["claimed"] is True and response.json()["name"] == name
    assert http.get(f"/api/players/{guest.id}").json()["claimed"] is True

    elsewhere = sign_in(http, name.upper())
    assert elsewhere.status_code == 201, elsewhere.text
    body = elsewhere.json()
    assert body["id"] == guest.id and body["name"] == name and body["chips"] == 1000
    assert body["token"] != guest.token
    assert works(http, guest.id, body["token"]) and works(http, guest.id, str(guest.token))

    stored = query(database_url, select(models.Player.password_hash).where(models.Player.id == guest.id))
    assert stored[0][0].startswith("$argon2id$")
    dump = str(query(database_url, text("SELECT * FROM players"))) + str(
        query(database_url, text("SELECT * FROM tokens")))
    assert PASSWORD not in dump and body["token"] not in dump and str(guest.token) not in dump
    tokens = query(database_url, select(models.Token.token_hash).where(models.Token.player_id == guest.id))
    assert len(tokens) == 2 and all(len(row[0]) == 64 for row in tokens)


def test_claimed_names_are_unique_ignoring_case(http: TestClient) -> None:
    name = unique("Unique")
    first = Client(http, name)
    assert claim(http, first).status_code == 200
    response = http.post("/api/players", json={"name": name.swapcase()})
    assert response.status_code == 409 and response.json()["error"]["code"] == "player/name_taken"

    twin = Client(http, unique("Twin"))
    response = claim(http, twin, name=f"  {name.upper()} ")
    assert response.status_code == 409 and response.json()["error"]["code"] == "account/name_taken"
    assert http.get(f"/api/players/{twin.id}").json()["claimed"] is False
    other = unique("Renamed")
    response = claim(http, twin, name=other)
    assert response.status_code == 200 and response.json()["name"] == other
    assert sign_in(http, other.lower()).json()["id"] == twin.id


def test_claim_refusals(http: TestClient) -> None:
    player, stranger = Client(http, unique("Claimer")), Client(http, unique("Stranger"))
    cases = [
        (player, {"password": "short"}, 422, "request/invalid"),
        (player, {"password": PASSWORD, "colour": "red"}, 422, "request/invalid"),
        (player, {"password": PASSWORD, "name": "   "}, 422, "request/invalid"),
        (player, {}, 422, "request/invalid"),
    ]
    for who, body, status, code in cases:
        response = http.post(f"/api/players/{player.id}/claim", headers=who.auth, json=body)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), body
    response = http.post(f"/api/players/{player.id}/claim", headers=stranger.auth,
                         json={"password": PASSWORD})
    assert response.status_code == 403 and response.json()["error"]["code"] == "auth/not_yours"
    response = http.post(f"/api/players/{player.id}/claim", json={"password": PASSWORD})
    assert response.status_code == 401 and response.json()["error"]["code"] == "auth/missing_token"
    assert claim(http, player).status_code == 200
    response = claim(http, player, password="another password")
    assert response.status_code == 409 and response.json()["error"]["code"] == "account/already_claimed"
    assert sign_in(http, player.name or "").status_code == 201
    assert sign_in(http, player.name or "", "another password").status_code == 401


def test_wrong_passwords_and_unknown_names_are_refused_alike(http: TestClient) -> None:
    name = unique("Careful")
    player = Client(http, name)
    claim(http, player)
    guest = Client(http, unique("Guest"))
    for attempt in ({"name": name, "password": "not the password"},
                    {"name": unique("Nobody"), "password": PASSWORD},
                    {"name": guest.name, "password": PASSWORD}):
        response = http.post("/api/sessions", json=attempt)
        assert response.status_code == 401, attempt
        assert response.json()["error"] == {"code": "auth/wrong_password",
                                            "message": "no claimed account has that name and password"}
    response = http.post("/api/sessions", json={"name": name})
    assert response.status_code == 422 and response.json()["error"]["code"] == "request/invalid"


def test_signing_out_everywhere_revokes_every_token(http: TestClient) -> None:
    name = unique("Leaver")
    player = Client(http, name)
    claim(http, player)
    second = sign_in(http, name).json()["token"]
    response = http.delete("/api/sessions", headers={"Authorization": f"Bearer {second}"})
    assert response.status_code == 204 and response.content == b""
    assert not works(http, str(player.id), str(player.token))
    assert not works(http, str(player.id), second)
    response = http.delete("/api/sessions", headers=player.auth)
    assert response.status_code == 401 and response.json()["error"]["code"] == "auth/bad_token"
    with http.websocket_connect(f"/ws/rooms/nowhere?token={player.token}") as ws:
        assert ws.receive_json()["code"] in ("auth/bad_token", "room/not_found")
    fresh = sign_in(http, name).json()["token"]
    assert works(http, str(player.id), fresh)

    guest = Client(http, unique("Guest"))
    response = http.delete("/api/sessions", headers=guest.auth)
    assert response.status_code == 409 and response.json()["error"]["code"] == "account/not_claimed"
    assert works(http, str(guest.id), str(guest.token))
    assert http.delete("/api/sessions").json()["error"]["code"] == "auth/missing_token"


def test_a_revoked_token_cannot_open_a_room_socket(http: TestClient) -> None:
    owner = Client(http, unique("Owner"))
    room_id = owner.create_room("hazari", private=True)
    name = unique("Revoked")
    player = Client(http, name)
    claim(http, player)
    http.delete("/api/sessions", headers=player.auth)
    with http.websocket_connect(f"/ws/rooms/{room_id}?token={player.token}") as ws:
        assert ws.receive_json()["code"] == "auth/bad_token"
    fresh = sign_in(http, name).json()["token"]
    with http.websocket_connect(f"/ws/rooms/{room_id}?token={fresh}") as ws:
        assert ws.receive_json()["type"] == "state"


class SteppedClock:
    """Stands for the ``time`` module of the sign-in limiter: its ``monotonic()`` moves only when
    the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_sign_in_is_rate_limited_per_name_and_per_address(fresh_sqlite_url: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    clock = SteppedClock()
    monkeypatch.setattr(deps, "time", clock)
    with app_client(fresh_sqlite_url, signin_max_failures=3, signin_window_seconds=1.0) as http:
        name = unique("Targeted")
        claim(http, Client(http, name))
        for _ in range(3):
            assert sign_in(http, name, "guess").status_code == 401
        limited = sign_in(http, name)
        assert limited.status_code == 429 and limited.json()["error"]["code"] == "auth/rate_limited"
        assert 1 <= int(limited.headers["Retry-After"]) <= 1
        clock.now += 1.05
        assert sign_in(http, name).status_code == 201

        for _ in range(3):
            assert sign_in(http, unique("Nobody"), "guess").status_code == 401
        elsewhere = sign_in(http, name)
        assert elsewhere.status_code == 429, "the same address is limited whatever the name"
        clock.now += 1.05
        assert sign_in(http, name).status_code == 201


def test_the_default_limit_is_five_failures_a_minute(client: TestClient) -> None:
    name = unique("Default")
    claim(client, Client(client, name))
    codes = [sign_in(client, name, "guess").status_code for _ in range(6)]
    assert codes == [401] * 5 + [429]
    assert 50 <= int(sign_in(client, name).headers["Retry-After"]) <= 60
