"""Accounts, operators and refused sockets through the HTTP API."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from app.db import operators
from support import Client, Message
from support.played_matches import app_client

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


def set_admin(http: TestClient, player: Client, admin: bool = True) -> None:
    portal = http.portal
    assert portal is not None and player.id is not None
    portal.call(operators.set_admin, http.app.state.store.sessions, player.id, admin, "in a test")  # type: ignore[attr-defined]


def admin_of(http: TestClient) -> Client:
    admin = Client(http, unique("Admin"))
    set_admin(http, admin)
    return admin


def error_of(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def closing(ws: WebSocketTestSession) -> tuple[list[Message], int]:
    """Every frame until the server closes the socket, and the close code."""
    frames: list[Message] = []
    while True:
        try:
            frames.append(ws.receive_json())
        except WebSocketDisconnect as closed:
            return frames, closed.code


def refusal(frames: list[Message]) -> Message:
    errors = [frame for frame in frames if frame["type"] == "error"]
    assert errors, frames
    return errors[-1]
