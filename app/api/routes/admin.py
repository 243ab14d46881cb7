"""The operator's console (``/api/admin``): live rooms, closing a room, removing a player,
suspensions, the maintenance notice, pausing new rooms, the audit log and players' reports. Every
call needs the admin role (``cardroom admin grant NAME``); every change writes its audit row in the
transaction of its own write. In a cluster each call acts on every node, or on the node that holds
the room, whichever node it reached (:mod:`app.api.everywhere`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from app.api.deps import AdminDep, EverywhereDep, RoomsDep, StoreDep
from app.api.errors import error_responses
from app.api.schemas import NoticeCreate, PauseChange, PlayerRemoval, Reason
from app.db import operators
from app.db.ids import now
from app.db.operators import Audit

router = APIRouter(prefix="/api/admin", tags=["operators"])

ADMIN_ONLY = {401: "`auth/missing_token` or `auth/bad_token`",
              403: "`admin/required`: the player does not hold the admin role (or `auth/suspended`)"}
LIST_LIMIT = Annotated[int, Query(ge=1, le=500, description="how many, newest first")]


def _answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return error_responses(401, 403, *statuses, meanings=ADMIN_ONLY)


@router.get("/rooms", responses=_answers())
async def list_live_rooms(_admin: AdminDep, rooms: RoomsDep, everywhere: EverywhereDep) -> dict[str, Any]:
    """Every room not finished, public and private, oldest first, each with the node that holds it
    (in a cluster, every node's rooms), and the node's state: new rooms paused or not, the
    maintenance notice."""
    return {"node": rooms.node_id, "paused": rooms.paused, "notice": rooms.notice,
            "rooms": await everywhere.live_rooms()}


@router.post("/rooms/{room_id}/close", responses=_answers(404, 409))
async def close_room(room_id: str, body: Reason, admin: AdminDep,
                     everywhere: EverywhereDep) -> dict[str, Any]:
    """Close the room: one not started at once; an Azi match by its rules' close, which returns the
    pot of a game in play to those who put it in (every chip in the ledger); a Hazari or
    Hasenpfeffer match is stopped where it is (match status ``closed``, no result, not rated).
    A closed room: 409 ``room/finished``, nothing changes. In a cluster the node that holds the room
    does it (503 ``cluster/no_answer`` if it does not answer in time)."""
    return await everywhere.close_room(room_id, admin.id, body.reason)


@router.post("/rooms/{room_id}/remove", responses=_answers(404, 409))
async def remove_player(room_id: str, body: PlayerRemoval, admin: AdminDep,
                        everywhere: EverywhereDep) -> dict[str, Any]:
    """Take a player off the room: he loses his seat as a player who leaves would (during a match
    the autopilot plays it), may not come back, and his sockets to the room are closed (4410,
    ``room/removed``). In a cluster the node that holds the room does it."""
    return await everywhere.remove_player(room_id, body.player_id, admin.id, body.reason)


@router.post("/players/{player_id}/suspend", status_code=204, responses=_answers(404, 409))
async def suspend_player(player_id: str, body: Reason, admin: AdminDep, store: StoreDep,
                         everywhere: EverywhereDep) -> Response:
    """Suspend a player: his sign-ins and every call with his tokens are refused (403
    ``auth/suspended``) and his room sockets are closed (4403), on every node. An admin cannot be
    suspended (409 ``admin/target_is_admin``); nor can a player already suspended."""
    await everywhere.check()
    await operators.suspend(store.sessions, Audit(admin.id, "suspend_player", body.reason,
                                                  player_id=player_id))
    await everywhere.end_player(player_id)
    return Response(status_code=204)


@router.post("/players/{player_id}/lift", status_code=204, responses=_answers(404, 409))
async def lift_suspension(player_id: str, body: Reason, admin: AdminDep, store: StoreDep) -> Response:
    """Lift a player's suspension; 409 ``admin/not_suspended`` when there is none."""
    await operators.lift(store.sessions, Audit(admin.id, "lift_suspension", body.reason, player_id=player_id))
    return Response(status_code=204)


@router.put("/notice", responses=_answers())
async def post_notice(body: NoticeCreate, admin: AdminDep, store: StoreDep,
                      everywhere: EverywhereDep) -> dict[str, Any]:
    """Show a maintenance notice at every table of every node: sent at once to every connection as
    ``{"type": "notice", "code": "operator/notice", "text", "at"}`` and to each one that connects
    until it is cleared."""
    notice = {"text": body.text, "at": now().isoformat() + "Z"}
    await everywhere.check()
    await store.record_audit(Audit(admin.id, "post_notice", body.reason, detail={"text": body.text}).row())
    await everywhere.show_notice(notice)
    return notice


@router.delete("/notice", status_code=204, responses=_answers())
async def clear_notice(body: Reason, admin: AdminDep, store: StoreDep, everywhere: EverywhereDep) -> Response:
    """Take the notice down: every connection gets the notice message with ``text`` null."""
    await everywhere.check()
    await store.record_audit(Audit(admin.id, "clear_notice", body.reason).row())
    await everywhere.show_notice(None)
    return Response(status_code=204)


@router.put("/pause", responses=_answers())
async def pause_new_rooms(body: PauseChange, admin: AdminDep, store: StoreDep,
                          everywhere: EverywhereDep) -> dict[str, Any]:
    """``paused`` true: new rooms are refused (409 ``room/creation_paused``) by every node until it
    is set false; rooms already made go on."""
    await everywhere.check()
    await store.record_audit(Audit(admin.id, "pause_rooms" if body.paused else "resume_rooms",
                                   body.reason).row())
    await everywhere.pause(body.paused)
    return {"paused": body.paused}


@router.get("/audit", responses=_answers())
async def read_audit_log(_admin: AdminDep, store: StoreDep, limit: LIST_LIMIT = 100) -> dict[str, Any]:
    """Operators' actions, newest first: who (``actor``; the command line for grants), what
    (``action``), on whom or which room, why and when."""
    return {"entries": await operators.audit_log(store.sessions, limit)}


@router.get("/reports", responses=_answers())
async def read_reports(_admin: AdminDep, store: StoreDep, limit: LIST_LIMIT = 100) -> dict[str, Any]:
    """Players' reports, newest first, with the match context the server recorded."""
    return {"reports": await operators.reports(store.sessions, limit)}

