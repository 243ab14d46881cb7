"""The operator's console (``/api/admin``): live rooms, closing a room, removing a player,
suspensions, the maintenance notice, pausing new rooms, the audit log and players' reports. Every
call needs the admin role (``cardroom admin grant NAME``); every change writes its audit row in the
transaction of its own write."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from app.api.deps import AdminDep, RoomsDep, StoreDep
from app.api.errors import error_responses
from app.api.schemas import NoticeCreate, PauseChange, PlayerRemoval, Reason
from app.api.sockets import CLOSE_REMOVED, CLOSE_SUSPENDED
from app.api.ws import REMOVED, SUSPENDED, end_player_sockets, notice_frame
from app.db import operators
from app.db.ids import now
from app.db.operators import Audit
from app.rooms.frames import encode_frame
from app.rooms.manager import RoomManager
from app.rooms.room import Room

router = APIRouter(prefix="/api/admin", tags=["operators"])

ADMIN_ONLY = {401: "`auth/missing_token` or `auth/bad_token`",
              403: "`admin/required`: the player does not hold the admin role (or `auth/suspended`)"}
LIST_LIMIT = Annotated[int, Query(ge=1, le=500, description="how many, newest first")]


def _answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return error_responses(401, 403, *statuses, meanings=ADMIN_ONLY)


def _phase(room: Room) -> str:
    if room.state is None:
        return "waiting"
    return str(room.engine.view(room.state, None).get("phase", "playing"))


def live_room(rooms: RoomManager, room: Room) -> dict[str, Any]:
    created = rooms.created_at.get(room.id)
    public = room.public_json()
    return {"id": room.id, "game": room.engine.name, "status": room.status, "phase": _phase(room),
            "private": room.private, "owner": room.owner_id, "match_id": room.match_id,
            "seats": [{key: seat.get(key) for key in ("seat", "player_id", "name", "bot", "connected")}
                      for seat in public["seats"]],
            "spectators": sum(conn.player_id is None for conn in room.connections),
            "created_at": None if created is None else created.isoformat() + "Z",
            "age_seconds": None if created is None else int((now() - created).total_seconds()),
            "node": rooms.node_id}


@router.get("/rooms", responses=_answers())
async def list_live_rooms(_admin: AdminDep, rooms: RoomsDep) -> dict[str, Any]:
    """Every room this node holds that has not finished, public and private, oldest first, and
    the node's state: new rooms paused or not, the maintenance notice."""
    live = [live_room(rooms, room) for room in rooms.rooms.values() if room.status != "finished"]
    live.sort(key=lambda entry: entry["created_at"] or "")
    return {"node": rooms.node_id, "paused": rooms.paused, "notice": rooms.notice, "rooms": live}


@router.post("/rooms/{room_id}/close", responses=_answers(404, 409))
async def close_room(room_id: str, body: Reason, admin: AdminDep, rooms: RoomsDep) -> dict[str, Any]:
    """Close the room: one not started at once; an Azi match by its rules' close, which returns the
    pot of a game in play to those who put it in (every chip in the ledger); a Hazari or
    Hasenpfeffer match is stopped where it is (match status ``closed``, no result, not rated).
    A closed room: 409 ``room/finished``, nothing changes."""
    room = rooms.get(room_id)
    await room.close_by_operator(Audit(admin.id, "close_room", body.reason, room_id=room.id,
                                       detail={"game": room.engine.name, "match_id": room.match_id,
                                               "status": room.status}).row())
    _tell_room(room, "An operator has closed this table.")
    return live_room(rooms, room)


@router.post("/rooms/{room_id}/remove", responses=_answers(404, 409))
async def remove_player(room_id: str, body: PlayerRemoval, admin: AdminDep,
                        rooms: RoomsDep) -> dict[str, Any]:
    """Take a player off the room: he loses his seat as a player who leaves would (during a match
    the autopilot plays it), may not come back, and his sockets to the room are closed (4410,
    ``room/removed``)."""
    room = rooms.get(room_id)
    await room.remove_player(body.player_id, Audit(admin.id, "remove_player", body.reason,
                                                   player_id=body.player_id, room_id=room.id).row())
    end_player_sockets(rooms, body.player_id, CLOSE_REMOVED, "room/removed", REMOVED, only=room)
    return live_room(rooms, room)


@router.post("/players/{player_id}/suspend", status_code=204, responses=_answers(404, 409))
async def suspend_player(player_id: str, body: Reason, admin: AdminDep, store: StoreDep,
                         rooms: RoomsDep) -> Response:
    """Suspend a player: his sign-ins and every call with his tokens are refused (403
    ``auth/suspended``) and his room sockets are closed (4403). An admin cannot be suspended
    (409 ``admin/target_is_admin``); nor can a player already suspended."""
    await operators.suspend(store.sessions, Audit(admin.id, "suspend_player", body.reason,
                                                  player_id=player_id))
    end_player_sockets(rooms, player_id, CLOSE_SUSPENDED, "auth/suspended", SUSPENDED)
    return Response(status_code=204)


@router.post("/players/{player_id}/lift", status_code=204, responses=_answers(404, 409))
async def lift_suspension(player_id: str, body: Reason, admin: AdminDep, store: StoreDep) -> Response:
    """Lift a player's suspension; 409 ``admin/not_suspended`` when there is none."""
    await operators.lift(store.sessions, Audit(admin.id, "lift_suspension", body.reason, player_id=player_id))
    return Response(status_code=204)


@router.put("/notice", responses=_answers())
async def post_notice(body: NoticeCreate, admin: AdminDep, store: StoreDep,
                      rooms: RoomsDep) -> dict[str, Any]:
    """Show a maintenance notice at every table: sent at once to every connection as
    ``{"type": "notice", "code": "operator/notice", "text", "at"}`` and to each one that connects
    until it is cleared."""
    notice = {"text": body.text, "at": now().isoformat() + "Z"}
    await store.record_audit(Audit(admin.id, "post_notice", body.reason, detail={"text": body.text}).row())
    rooms.notice = notice
    _broadcast(rooms, notice_frame(notice))
    return notice


@router.delete("/notice", status_code=204, responses=_answers())
async def clear_notice(body: Reason, admin: AdminDep, store: StoreDep, rooms: RoomsDep) -> Response:
    """Take the notice down: every connection gets the notice message with ``text`` null."""
    await store.record_audit(Audit(admin.id, "clear_notice", body.reason).row())
    rooms.notice = None
    _broadcast(rooms, notice_frame(None))
    return Response(status_code=204)


@router.put("/pause", responses=_answers())
async def pause_new_rooms(body: PauseChange, admin: AdminDep, store: StoreDep,
                          rooms: RoomsDep) -> dict[str, Any]:
    """``paused`` true: new rooms are refused (409 ``room/creation_paused``) until it is set false;
    rooms already made go on."""
    await store.record_audit(Audit(admin.id, "pause_rooms" if body.paused else "resume_rooms",
                                   body.reason).row())
    rooms.paused = body.paused
    return {"paused": rooms.paused}


@router.get("/audit", responses=_answers())
async def read_audit_log(_admin: AdminDep, store: StoreDep, limit: LIST_LIMIT = 100) -> dict[str, Any]:
    """Operators' actions, newest first: who (``actor``; the command line for grants), what
    (``action``), on whom or which room, why and when."""
    return {"entries": await operators.audit_log(store.sessions, limit)}


@router.get("/reports", responses=_answers())
async def read_reports(_admin: AdminDep, store: StoreDep, limit: LIST_LIMIT = 100) -> dict[str, Any]:
    """Players' reports, newest first, with the match context the server recorded."""
    return {"reports": await operators.reports(store.sessions, limit)}


def _broadcast(rooms: RoomManager, frame: str) -> None:
    for room in list(rooms.rooms.values()):
        for conn in list(room.connections):
            conn.push(frame)


def _tell_room(room: Room, text: str) -> None:
    frame = encode_frame({"type": "notice", "code": "operator/closed", "text": text})
    for conn in list(room.connections):
        conn.push(frame)
