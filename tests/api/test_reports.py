"""Players' reports (``POST /api/reports``) on both databases: recorded with the match context the
server knows, listed for the operators, rate-limited per reporter, and bad reports refused."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient
from support import Client
from support.accounts import admin_of, error_of, unique
from support.azi import AziTable
from support.played_matches import app_client


@pytest.fixture
def http(database_url: str) -> Iterator[TestClient]:
    with app_client(database_url, reports_per_window=2) as client:
        yield client


def test_a_report_is_recorded_with_its_match_context_and_shown_to_operators(http: TestClient) -> None:
    admin = admin_of(http)
    with ExitStack() as stack:
        table = AziTable(http, stack, 3, {}, prefix=unique("Table"))
        state = table.start()
        reporter, reported = table.players[0], table.players[2]
        response = http.post("/api/reports", headers=reporter.auth, json={
            "player_id": reported.id, "room_id": table.room_id, "note": "  keeps   insulting ",
            "chat": {"text": "you are all idiots", "at": "2026-12-02T18:00:00Z"}})
        assert response.status_code == 201, response.text
        bare = http.post("/api/reports", headers=table.players[1].auth,
                         json={"player_id": reported.id, "room_id": table.room_id})
        assert bare.status_code == 201, bare.text
    listed = http.get("/api/admin/reports", headers=admin.auth).json()["reports"]
    first = next(report for report in listed if report["id"] == response.json()["id"])
    assert first["reporter"] == {"id": reporter.id, "name": reporter.name}
    assert first["reported"] == {"id": reported.id, "name": reported.name}
    assert (first["room_id"], first["seat"]) == (table.room_id, 2)
    assert first["match_id"] == state["room"]["match_id"]
    assert first["chat"] == {"text": "you are all idiots", "at": "2026-12-02T18:00:00Z"}
    assert first["note"] == "keeps insulting"
    second = next(report for report in listed if report["id"] == bare.json()["id"])
    assert second["chat"] is None and second["note"] is None and second["seat"] == 2


def test_reports_are_rate_limited_per_reporter(http: TestClient) -> None:
    owner, target, other = (Client(http, unique(name)) for name in ("Owner", "Target", "Other"))
    room_id = owner.create_room("hazari")
    body = {"player_id": target.id, "room_id": room_id}
    with target.connected(room_id):
        sent = [http.post("/api/reports", headers=owner.auth, json=body) for _ in range(2)]
        assert [response.status_code for response in sent] == [201, 201]
        limited = http.post("/api/reports", headers=owner.auth, json=body)
        assert error_of(limited) == (429, "report/rate_limited")
        assert int(limited.headers["Retry-After"]) > 0
        assert http.post("/api/reports", headers=other.auth, json=body).status_code == 201


def test_bad_reports_are_refused(http: TestClient) -> None:
    admin = admin_of(http)
    owner, target = Client(http, unique("Owner")), Client(http, unique("Target"))
    room_id = owner.create_room("hazari")
    before = len(http.get("/api/admin/reports", headers=admin.auth, params={"limit": 500}).json()["reports"])
    with owner.connected(room_id):
        cases = [
            ({"player_id": owner.id, "room_id": room_id}, (400, "report/self")),
            ({"player_id": "nosuchplayer", "room_id": room_id}, (404, "player/not_found")),
            ({"player_id": target.id, "room_id": "nosuchroom"}, (404, "room/not_found")),
            ({"player_id": target.id, "room_id": room_id}, (400, "report/not_in_room")),
            ({"player_id": target.id, "room_id": room_id, "note": "x" * 501}, (422, "request/invalid")),
            ({"player_id": target.id, "room_id": room_id, "chat": {"text": ""}}, (422, "request/invalid")),
        ]
        for body, expected in cases:
            assert error_of(http.post("/api/reports", headers=owner.auth, json=body)) == expected, body
        assert error_of(http.post("/api/reports", json={"player_id": target.id, "room_id": room_id})) == \
            (401, "auth/missing_token")
    after = http.get("/api/admin/reports", headers=admin.auth, params={"limit": 500}).json()["reports"]
    assert len(after) == before
