"""Rooms: creating one, and the list of public rooms still open or playing."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from app.api.deps import PlayerDep, RoomsDep, SettingsDep
from app.api.errors import ApiError, error_responses
from app.api.routes.matches import check_known, parse_game, parse_limit
from app.api.schemas import RoomCreate, RoomPublic
from app.rooms.lobby import RoomFilter, decode_room_cursor, page_of_rooms

router = APIRouter(prefix="/api/rooms", tags=["rooms"])

STATUSES = ("open", "playing")
DEFAULT_PAGE = 50
NEXT_PAGE = {"Link": {"description": "on every page but the last: `</api/rooms?...&cursor=...>; "
                                     "rel=\"next\"`, the address of the next page",
                      "schema": {"type": "string"}}}


@router.post("", status_code=201, response_model=RoomPublic, responses=error_responses(401))
async def create_room(body: RoomCreate, player: PlayerDep, rooms: RoomsDep) -> RoomPublic:
    """Options not given take their defaults (see ``GET /api/games``)."""
    room = await rooms.create(player.id, body.game, body.options, body.private)
    return RoomPublic.model_validate(room.public_json())


def parse_free_seats(raw: str | None) -> int | None:
    if raw is None:
        return None
    if not raw.isdigit() or not 1 <= int(raw) <= 10:
        raise ApiError(400, "request/bad_filter", f"free_seats must be a whole number from 1 to 10, "
                                                  f"got {raw!r}")
    return int(raw)


def room_filter(game: str | None, status: str | None, free_seats: str | None) -> RoomFilter:
    if status is not None and status not in STATUSES:
        raise ApiError(400, "request/bad_filter", f"status must be 'open' or 'playing', got {status!r}")
    return RoomFilter(game=parse_game(game), status=status, free_seats=parse_free_seats(free_seats))


@router.get("", response_model=list[RoomPublic],
            responses={200: {"headers": NEXT_PAGE}, **error_responses()})
async def list_rooms(
        request: Request, response: Response, rooms: RoomsDep, settings: SettingsDep,
        game: Annotated[str | None, Query(max_length=20)] = None,
        status: Annotated[str | None, Query(description="'open' (not started) or 'playing'")] = None,
        free_seats: Annotated[str | None, Query(description="at least this many empty seats")] = None,
        limit: Annotated[str | None, Query(description=f"1 to 100, default {DEFAULT_PAGE}")] = None,
        cursor: Annotated[str | None, Query(max_length=200, description="from the 'next' link")] = None,
) -> list[RoomPublic]:
    """Public rooms not finished, newest first, a page at a time. When more follow, the ``Link``
    header holds the address of the next page (``rel="next"``)."""
    check_known(request, ("game", "status", "free_seats", "limit", "cursor"))
    count = parse_limit(limit, min(DEFAULT_PAGE, settings.rooms_page_max), settings.rooms_page_max)
    wanted = room_filter(game, status, free_seats)
    after = decode_room_cursor(cursor) if cursor is not None else None
    page, next_cursor = page_of_rooms(await rooms.public_listing(), wanted, count, after)
    if next_cursor is not None:
        following = request.url.include_query_params(cursor=next_cursor)
        response.headers["Link"] = f'<{following.path}?{following.query}>; rel="next"'
    return [RoomPublic.model_validate(room) for room in page]


@router.get("/{room_id}", response_model=RoomPublic, responses=error_responses(404))
async def read_room(room_id: str, rooms: RoomsDep) -> RoomPublic:
    return RoomPublic.model_validate(await rooms.public_room(room_id))
