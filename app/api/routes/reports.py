"""Reports from players: ``POST /api/reports`` records one, with its match context, for the operators."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.api.deps import PlayerDep, RoomsDep, SettingsDep, StoreDep
from app.api.errors import ApiError, error_responses
from app.api.limits import Limit, too_many
from app.api.schemas import ReportCreate, ReportCreated
from app.db import operators

router = APIRouter(prefix="/api/reports", tags=["operators"])


REPORT_ANSWERS = error_responses(401, 403, 404, 429, meanings={
    400: "`report/self`: a player cannot report himself; `report/not_in_room`: the player is neither "
         "seated nor connected in that room",
    404: "`player/not_found` or `room/not_found`",
    429: "`report/rate_limited`: this player has sent `CARDROOM_REPORTS_PER_WINDOW` reports within "
         "`CARDROOM_REPORT_WINDOW_SECONDS`"})


@router.post("", status_code=201, response_model=ReportCreated, responses=REPORT_ANSWERS)
async def create_report(body: ReportCreate, request: Request, player: PlayerDep, store: StoreDep,
                        rooms: RoomsDep, settings: SettingsDep) -> ReportCreated | JSONResponse:
    """Report another player of a room (optionally about one chat line, with a note). The server
    records the room's match and the reported player's seat."""
    if body.player_id == player.id:
        raise ApiError(400, "report/self", "you cannot report yourself")
    if await store.get_player(body.player_id) is None:
        raise ApiError(404, "player/not_found", f"there is no player {body.player_id!r}")
    room = rooms.get(body.room_id)
    seat = room.seat_of(body.player_id)
    if seat is None and not any(conn.player_id == body.player_id for conn in room.connections):
        raise ApiError(400, "report/not_in_room", "that player is neither seated nor connected in this room")
    limit: Limit = request.app.state.report_limit
    wait = await limit.take(player.id)
    if wait is not None:
        return too_many("report/rate_limited", f"you have sent {settings.reports_per_window} reports "
                        "recently, the most you may", wait)
    chat = body.chat
    note = " ".join(body.note.split()) if body.note else None
    report_id = await operators.add_report(store.sessions, operators.ReportInput(
        reporter_id=player.id, reported_id=body.player_id, room_id=room.id, match_id=room.match_id,
        seat=seat, chat_text=chat.text if chat else None,
        chat_at=_utc(chat.at) if chat else None, note=note or None))
    return ReportCreated(id=report_id)


def _utc(moment: datetime) -> datetime:
    """As the database keeps times: UTC without a zone."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
