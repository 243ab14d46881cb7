"""The operator's console through the real app and database (SQLite and PostgreSQL): the admin role,
every endpoint refused without it, closing rooms (an Azi game's pot returned, the ledger checked),
removing and suspending players, the maintenance notice, pausing new rooms, the audit log."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient
from support import Client, Message
from support.accounts import PASSWORD, admin_of, claim, closing, error_of, refusal, set_admin, sign_in, unique
from support.azi import AziTable, ledger_balances, match_transfers, table_accounts
from support.played_matches import app_client

from app.cli import main
from app.db import models
from app.db.ids import new_id
from app.db.ledger import player_account, pot_account

REASON = {"reason": "testing the console"}


@pytest.fixture
def http(database_url: str) -> Iterator[TestClient]:
    with app_client(database_url) as client:
        yield client


def audit_count(http: TestClient) -> int:
    portal = http.portal
    assert portal is not None
    return int(portal.call(_count, http, models.AuditEntry))


async def _count(http: TestClient, model: Any) -> int:
    async with http.app.state.store.sessions() as session:  # type: ignore[attr-defined]
        return int(await session.scalar(select(func.count()).select_from(model)) or 0)


def audit_entries(http: TestClient, admin: Client) -> list[Message]:
    response = http.get("/api/admin/audit", headers=admin.auth)
    assert response.status_code == 200, response.text
    entries: list[Message] = response.json()["entries"]
    return entries


def last_audit(http: TestClient, admin: Client) -> Message:
    return audit_entries(http, admin)[0]


def calls(room_id: str, player_id: str) -> list[tuple[str, str, Message | None]]:
    """Every admin endpoint, with a body it would take."""
    return [("GET", "/api/admin/rooms", None),
            ("POST", f"/api/admin/rooms/{room_id}/close", REASON),
            ("POST", f"/api/admin/rooms/{room_id}/remove", {"player_id": player_id, **REASON}),
            ("POST", f"/api/admin/players/{player_id}/suspend", REASON),
            ("POST", f"/api/admin/players/{player_id}/lift", REASON),
            ("PUT", "/api/admin/notice", {"text": "restart in 5 minutes", **REASON}),
            ("DELETE", "/api/admin/notice", REASON),
            ("PUT", "/api/admin/pause", {"paused": True, **REASON}),
            ("GET", "/api/admin/audit", None),
            ("GET", "/api/admin/reports", None)]


def test_every_admin_endpoint_refuses_a_guest_a_claimed_player_and_a_revoked_admin(http: TestClient) -> None:
    guest = Client(http, unique("Guest"))
    member = Client(http, unique("Member"))
    assert claim(http, member).status_code == 200
    revoked = Client(http, unique("Former"))
    set_admin(http, revoked)
    set_admin(http, revoked, admin=False)
    room_id = guest.create_room("hazari")
    before = audit_count(http)
    for caller in (guest, member, revoked):
        for method, path, body in calls(room_id, guest.id or ""):
            response = http.request(method, path, headers=caller.auth, json=body)
            assert error_of(response) == (403, "admin/required"), (caller.name, method, path)
        assert http.get("/api/sessions/me", headers=caller.auth).json()["admin"] is False
    for method, path, body in calls(room_id, guest.id or ""):
        assert error_of(http.request(method, path, json=body)) == (401, "auth/missing_token")
    assert audit_count(http) == before
    assert http.get(f"/api/rooms/{room_id}").json()["status"] == "open"


def test_the_command_line_grants_and_revokes_the_role_and_audits_both(
        http: TestClient, database_url: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from app.config import get_settings

    player = Client(http, unique("Operator"))
    assert claim(http, player).status_code == 200
    monkeypatch.setenv("CARDROOM_DATABASE_URL", database_url)
    get_settings.cache_clear()
    try:
        assert main(["admin", "grant", (player.name or "").upper(), "--reason", "new moderator"]) == 0
        assert http.get("/api/sessions/me", headers=player.auth).json()["admin"] is True
        assert main(["admin", "grant", player.name or ""]) == 2
        assert "already an admin" in capsys.readouterr().err
        granted = last_audit(http, player)
        assert granted["action"] == "grant_admin" and granted["reason"] == "new moderator"
        assert granted["actor"] == {"id": None, "name": "the server's command line"}
        assert granted["player"] == {"id": player.id, "name": player.name}
        assert main(["admin", "revoke", player.id or ""]) == 0
        assert main(["admin", "grant", "nobody by this name"]) == 2
    finally:
        get_settings.cache_clear()
    assert error_of(http.get("/api/admin/audit", headers=player.auth)) == (403, "admin/required")


def test_no_new_id_reads_as_an_option_on_the_command_line() -> None:
    ids = [new_id() for _ in range(5000)]
    assert all(len(id_) == 12 and id_[0].isalnum() and id_.replace("-", "").replace("_", "").isalnum()
               for id_ in ids)
    assert len(set(ids)) == len(ids)


def azi_mid_game(http: TestClient, stack: ExitStack) -> tuple[AziTable, Message]:
    """Two guests at an Azi table, the opening bet made and called: the pot holds both antes and
    both bets."""
    table = AziTable(http, stack, 2, {}, prefix=unique("Azi"))
    state = table.start()
    opener = state["view"]["to_act"][0]
    bet = next(entry for entry in state["legal"] if entry["kind"] == "bet") if opener == 0 else \
        next(entry for entry in table.state(opener)["legal"] if entry["kind"] == "bet")
    table.act(opener, {"kind": "bet", "amount": bet["min"]})
    state = table.act(1 - opener, {"kind": "call"})
    assert state["view"]["phase"] == "play", state["view"]
    return table, state


def test_closing_an_azi_room_mid_game_returns_every_chip_of_the_pot(http: TestClient) -> None:
    admin = admin_of(http)
    with ExitStack() as stack:
        table, state = azi_mid_game(http, stack)
        match_id = state["room"]["match_id"]
        ids = [player.id or "" for player in table.players]
        accounts = table_accounts(ids, match_id)
        during = ledger_balances(http, accounts)
        pot = -sum(during[player_account(pid)] - 1000 for pid in ids)
        assert during[pot_account(match_id)] == pot > 0
        response = http.post(f"/api/admin/rooms/{table.room_id}/close", headers=admin.auth,
                             json={"reason": "abusive table"})
        assert response.status_code == 200, response.text
        closed = table.wait(0, lambda m: m["room"]["status"] == "finished")
        assert closed["view"]["phase"] == "match_over"
        notice = table.players[1].until(lambda m: m["type"] == "notice")
        assert notice["code"] == "operator/closed" and notice["text"]
    after = ledger_balances(http, accounts)
    assert after[pot_account(match_id)] == 0
    assert [after[player_account(pid)] for pid in ids] == [1000, 1000]
    refunds = [row for row in match_transfers(http, match_id) if row["kind"] == "refund"]
    assert sum(row["amount"] for row in refunds) == pot
    assert all(row["source"] == pot_account(match_id) for row in refunds)
    assert table.chips() == [1000, 1000]
    match = http.get(f"/api/matches/{match_id}").json()
    assert match["status"] == "finished"
    assert match["actions"][-1]["action"] == {"kind": "close", "by": "operator"}
    entry = last_audit(http, admin)
    assert (entry["action"], entry["room_id"]) == ("close_room", table.room_id)
    assert entry["reason"] == "abusive table"
    assert entry["actor"]["id"] == admin.id
    count = audit_count(http)
    again = http.post(f"/api/admin/rooms/{table.room_id}/close", headers=admin.auth, json=REASON)
    assert error_of(again) == (409, "room/finished")
    assert audit_count(http) == count
    assert ledger_balances(http, accounts) == after


def test_closing_a_hazari_match_stops_it_and_an_unstarted_room_closes_at_once(http: TestClient) -> None:
    admin = admin_of(http)
    owner = Client(http, unique("Owner"))
    waiting = owner.create_room("hasenpfeffer")
    playing = owner.create_room("hazari")
    with owner.connected(playing):
        owner.send({"type": "sit", "seat": 0})
        for seat in (1, 2, 3):
            owner.send({"type": "add_bot", "seat": seat})
        owner.state_where(lambda m: m["room"]["seats"][3]["bot"])
        owner.send({"type": "start"})
        started = owner.state_where(lambda m: m["view"]["phase"] == "arranging")
        closed = http.post(f"/api/admin/rooms/{playing}/close", headers=admin.auth, json=REASON)
        assert closed.status_code == 200, closed.text
        owner.state_where(lambda m: m["room"]["status"] == "finished")
        owner.act({"kind": "up", "groups": []})
        assert owner.error()["code"] == "room/closed"
    assert http.post(f"/api/admin/rooms/{waiting}/close", headers=admin.auth, json=REASON).status_code == 200
    assert http.get(f"/api/rooms/{waiting}").json()["status"] == "finished"
    match = http.get(f"/api/matches/{started['room']['match_id']}").json()
    assert match["status"] == "closed" and match["result"] is None
    assert [entry["room_id"] for entry in audit_entries(http, admin)[:2]] == [waiting, playing]
    live = http.get("/api/admin/rooms", headers=admin.auth).json()
    assert {waiting, playing}.isdisjoint(room["id"] for room in live["rooms"])


def test_the_live_rooms_list_shows_players_game_phase_age_and_node(http: TestClient) -> None:
    admin = admin_of(http)
    owner = Client(http, unique("Owner"))
    room_id = owner.create_room("hazari", private=True)
    with owner.connected(room_id):
        owner.send({"type": "sit", "seat": 1})
        owner.state_where(lambda m: m["room"]["seats"][1]["player_id"] == owner.id)
        live = http.get("/api/admin/rooms", headers=admin.auth).json()
    room = next(room for room in live["rooms"] if room["id"] == room_id)
    assert (room["game"], room["status"], room["phase"]) == ("hazari", "open", "waiting")
    assert room["private"] is True
    assert room["seats"][1] == {"seat": 1, "player_id": owner.id, "name": owner.name, "bot": False,
                                "connected": True}
    assert room["age_seconds"] >= 0 and room["node"] == live["node"] and live["node"]
    assert live["paused"] is False and live["notice"] is None


def test_a_removed_player_loses_his_seat_and_his_socket_and_cannot_come_back(http: TestClient) -> None:
    admin = admin_of(http)
    owner, other = Client(http, unique("Owner")), Client(http, unique("Rude"))
    room_id = owner.create_room("azi")
    with owner.connected(room_id), other.connected(room_id):
        other.send({"type": "sit", "seat": 1})
        other.state_where(lambda m: m["room"]["seats"][1]["player_id"] == other.id)
        response = http.post(f"/api/admin/rooms/{room_id}/remove", headers=admin.auth,
                             json={"player_id": other.id, "reason": "insults"})
        assert response.status_code == 200, response.text
        assert response.json()["seats"][1]["player_id"] is None
        assert other.ws is not None
        frames, code = closing(other.ws)
        assert code == 4410 and refusal(frames)["code"] == "room/removed"
        owner.state_where(lambda m: m["room"]["seats"][1]["player_id"] is None)
    with http.websocket_connect(f"/ws/rooms/{room_id}?token={other.token}") as ws:
        frames, code = closing(ws)
    assert code == 4410
    assert other.http.get(f"/api/players/{other.id}").json()["chips"] == 1000
    entry = last_audit(http, admin)
    assert (entry["action"], entry["player"]["id"], entry["room_id"]) == ("remove_player", other.id, room_id)
    count = audit_count(http)
    again = http.post(f"/api/admin/rooms/{room_id}/remove", headers=admin.auth,
                      json={"player_id": other.id, **REASON})
    assert error_of(again) == (400, "room/player_not_here")
    assert audit_count(http) == count


def test_a_player_removed_during_an_azi_game_is_played_for_by_the_autopilot(http: TestClient) -> None:
    admin = admin_of(http)
    with ExitStack() as stack:
        table, state = azi_mid_game(http, stack)
        removed = table.players[1]
        response = http.post(f"/api/admin/rooms/{table.room_id}/remove", headers=admin.auth,
                             json={"player_id": removed.id, **REASON})
        assert response.status_code == 200, response.text
        seat = table.players[0].state_where(lambda m: m["room"]["seats"][1]["autopilot"])["room"]["seats"][1]
        assert seat["player_id"] == removed.id
        assert removed.ws is not None
        assert closing(removed.ws)[1] == 4410


def test_a_suspended_player_is_closed_refused_and_restored_when_lifted(http: TestClient) -> None:
    admin = admin_of(http)
    player = Client(http, unique("Cheat"))
    assert claim(http, player).status_code == 200
    room_id = Client(http, unique("Owner")).create_room("hazari")
    with player.connected(room_id):
        response = http.post(f"/api/admin/players/{player.id}/suspend", headers=admin.auth,
                             json={"reason": "collusion"})
        assert response.status_code == 204, response.text
        assert player.ws is not None
        frames, code = closing(player.ws)
    assert code == 4403 and refusal(frames)["code"] == "auth/suspended"
    assert error_of(sign_in(http, player.name or "")) == (403, "auth/suspended")
    assert error_of(http.get("/api/sessions/me", headers=player.auth)) == (403, "auth/suspended")
    assert error_of(http.post("/api/rooms", headers=player.auth, json={"game": "hazari"})) == \
        (403, "auth/suspended")
    with http.websocket_connect(f"/ws/rooms/{room_id}?token={player.token}") as ws:
        assert closing(ws)[1] == 4403
    count = audit_count(http)
    twice = http.post(f"/api/admin/players/{player.id}/suspend", headers=admin.auth, json=REASON)
    assert error_of(twice) == (409, "admin/already_suspended")
    assert audit_count(http) == count
    assert http.post(f"/api/admin/players/{player.id}/lift", headers=admin.auth,
                     json={"reason": "appeal accepted"}).status_code == 204
    assert sign_in(http, player.name or "", PASSWORD).status_code == 201
    assert http.get("/api/sessions/me", headers=player.auth).status_code == 200
    assert error_of(http.post(f"/api/admin/players/{player.id}/lift", headers=admin.auth, json=REASON)) == \
        (409, "admin/not_suspended")
    actions = [entry["action"] for entry in audit_entries(http, admin)[:2]]
    assert actions == ["lift_suspension", "suspend_player"]
    assert audit_count(http) == count + 1


def test_bad_input_is_refused_and_changes_nothing(http: TestClient) -> None:
    admin, other = admin_of(http), admin_of(http)
    guest = Client(http, unique("Guest"))
    room_id = guest.create_room("hazari")
    count = audit_count(http)
    refusals = [
        (http.post("/api/admin/rooms/nosuchroom/close", headers=admin.auth, json=REASON),
         (404, "room/not_found")),
        (http.post("/api/admin/rooms/nosuchroom/remove", headers=admin.auth,
                   json={"player_id": guest.id, **REASON}), (404, "room/not_found")),
        (http.post(f"/api/admin/players/{other.id}/suspend", headers=admin.auth, json=REASON),
         (409, "admin/target_is_admin")),
        (http.post(f"/api/admin/players/{other.id}/suspend", headers=guest.auth, json=REASON),
         (403, "admin/required")),
        (http.post("/api/admin/players/nosuchplayer/suspend", headers=admin.auth, json=REASON),
         (404, "player/not_found")),
        (http.post(f"/api/admin/rooms/{room_id}/close", headers=admin.auth, json={"reason": ""}),
         (422, "request/invalid")),
        (http.post(f"/api/admin/players/{guest.id}/suspend", headers=admin.auth, json={"reason": "   "}),
         (422, "request/invalid")),
        (http.put("/api/admin/notice", headers=admin.auth, json={"text": "", **REASON}),
         (422, "request/invalid")),
        (http.put("/api/admin/pause", headers=admin.auth, json={"paused": "yes", **REASON}),
         (422, "request/invalid")),
    ]
    for response, expected in refusals:
        assert error_of(response) == expected, response.text
    assert audit_count(http) == count
    assert http.get(f"/api/rooms/{room_id}").json()["status"] == "open"
    assert http.get("/api/sessions/me", headers=other.auth).json()["admin"] is True
    live = http.get("/api/admin/rooms", headers=admin.auth).json()
    assert live["paused"] is False and live["notice"] is None


def test_the_maintenance_notice_reaches_connected_and_new_clients_until_cleared(http: TestClient) -> None:
    admin = admin_of(http)
    owner, late = Client(http, unique("Owner")), Client(http, unique("Late"))
    room_id = owner.create_room("hazari")
    with owner.connected(room_id):
        response = http.put("/api/admin/notice", headers=admin.auth,
                            json={"text": "Restart in 5 minutes", "reason": "upgrade"})
        assert response.status_code == 200, response.text
        notice = owner.until(lambda m: m["type"] == "notice")
        assert notice == {"type": "notice", "code": "operator/notice", "text": "Restart in 5 minutes",
                          "at": response.json()["at"]}
        with late.connected(room_id):
            shown = [m for m in late.received if m["type"] == "notice"]
            assert [m["text"] for m in shown] == ["Restart in 5 minutes"]
        assert http.request("DELETE", "/api/admin/notice", headers=admin.auth,
                            json={"reason": "done"}).status_code == 204
        assert owner.until(lambda m: m["type"] == "notice")["text"] is None
    late.received = []
    with late.connected(room_id):
        late.send({"type": "stand"})
        late.error()
    assert [m for m in late.received if m["type"] == "notice"] == []
    actions = [entry["action"] for entry in audit_entries(http, admin)[:2]]
    assert actions == ["clear_notice", "post_notice"]
    assert audit_entries(http, admin)[1]["detail"] == {"text": "Restart in 5 minutes"}


def test_pausing_new_rooms_refuses_room_creation_until_resumed(http: TestClient) -> None:
    admin = admin_of(http)
    player = Client(http, unique("Host"))
    assert http.put("/api/admin/pause", headers=admin.auth, json={"paused": True, **REASON}).json() == \
        {"paused": True}
    try:
        refused = http.post("/api/rooms", headers=player.auth, json={"game": "azi"})
        assert error_of(refused) == (409, "room/creation_paused")
        assert http.get("/api/admin/rooms", headers=admin.auth).json()["paused"] is True
    finally:
        resumed = http.put("/api/admin/pause", headers=admin.auth, json={"paused": False, **REASON})
        assert resumed.status_code == 200
    assert http.post("/api/rooms", headers=player.auth, json={"game": "azi"}).status_code == 201
    assert [entry["action"] for entry in audit_entries(http, admin)[:2]] == ["resume_rooms", "pause_rooms"]
