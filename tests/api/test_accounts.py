"""Accounts a player keeps: claiming a guest account with a password, signing in from another browser,
names unique ignoring case once claimed, revoking every token, and the sign-in rate limit."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import select, text
from starlette.testclient import TestClient
from support import Client, query
from support.accounts import PASSWORD, claim, http, sign_in, unique
from support.played_matches import app_client

from app.api.signin_limit import SignInLimiter
from app.db import models

__all__ = ["http"]


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


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def limited(database_url: str, **settings: object) -> Iterator[tuple[TestClient, FakeClock]]:
    """The app with the sign-in limiter on a clock of the test's."""
    with app_client(database_url, **settings) as http:
        clock = FakeClock()
        state = http.app.state  # type: ignore[attr-defined]
        state.signin_limiter = SignInLimiter.from_settings(state.settings, clock)
        yield http, clock


@contextmanager
def from_address(http: TestClient, host: str) -> Iterator[None]:
    """Requests of ``http`` come from ``host`` meanwhile."""
    transport = http._transport  # type: ignore[attr-defined]
    before, transport.client = transport.client, (host, 50000)
    try:
        yield
    finally:
        transport.client = before


def retry_after(http: TestClient, name: str) -> int:
    refused = sign_in(http, name)
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"] == {
        "code": "auth/rate_limited",
        "message": f"too many failed sign-ins from here; try again in {refused.headers['Retry-After']} s"}
    return int(refused.headers["Retry-After"])


def test_failed_sign_ins_make_the_next_try_wait_ever_longer(database_url: str) -> None:
    with limited(database_url, signin_max_delay_seconds=5, signin_window_seconds=60) as (http, clock):
        name = unique("Guessed")
        claim(http, Client(http, name))
        assert [sign_in(http, name, "guess").status_code for _ in range(5)] == [401] * 5
        waits = []
        for _ in range(4):
            waits.append(retry_after(http, name))
            clock.now += waits[-1]
            assert sign_in(http, name, "guess").status_code == 401
        assert waits == [1, 2, 4, 5], "each failure doubles the wait, up to the longest"
        clock.now += 5
        assert sign_in(http, name).status_code == 201, "the right password, once the wait is over"
        assert sign_in(http, name, "guess").status_code == 401, "a sign-in clears the count"
        assert sign_in(http, name).status_code == 201

        for _ in range(5):
            sign_in(http, name, "guess")
        clock.now += 1 + 60 + 0.5
        assert [sign_in(http, name, "guess").status_code for _ in range(5)] == [401] * 5, \
            "failures are forgotten a window after the wait ended"


def test_a_stranger_elsewhere_cannot_lock_the_owner_out(database_url: str) -> None:
    with limited(database_url) as (http, _clock):
        name = unique("Owner")
        claim(http, Client(http, name))
        with from_address(http, "203.0.113.9"):
            for _ in range(12):
                sign_in(http, name, "guess")
            assert retry_after(http, name) >= 1
        assert sign_in(http, name).status_code == 201
        with from_address(http, "203.0.113.9"):
            assert sign_in(http, name).status_code == 429


def test_one_address_trying_many_names_is_slowed_down(database_url: str) -> None:
    with limited(database_url, signin_address_failures=3) as (http, clock):
        name = unique("Listed")
        claim(http, Client(http, name))
        with from_address(http, "198.51.100.7"):
            assert [sign_in(http, unique("Nobody"), "guess").status_code for _ in range(3)] == [401] * 3
            assert retry_after(http, name) == 1
            clock.now += 1
            assert sign_in(http, name).status_code == 201
        assert sign_in(http, name).status_code == 201
