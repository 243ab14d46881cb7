"""Rooms: creating one, and the list of public rooms still open or playing."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import PlayerDep, RoomsDep
from app.api.schemas import RoomCreate, RoomPublic

router = APIRouter(prefix="/api/rooms", tags=["rooms"])


@router.post("", status_code=201, response_model=RoomPublic)
async def create_room(body: RoomCreate, player: PlayerDep, rooms: RoomsDep) -> RoomPublic:
    """Options not given take their defaults (see ``GET /api/games``)."""
    room = await rooms.create(player.id, body.game, body.options, body.private)
    return RoomPublic.model_validate(room.public_json())


@router.get("", response_model=list[RoomPublic])
async def list_rooms(rooms: RoomsDep) -> list[RoomPublic]:
    return [RoomPublic.model_validate(room.public_json()) for room in rooms.public_rooms()]


@router.get("/{room_id}", response_model=RoomPublic)
async def read_room(room_id: str, rooms: RoomsDep) -> RoomPublic:
    return RoomPublic.model_validate(rooms.get(room_id).public_json())
