"""What the route handlers need: the store, the rooms, the settings and the calling player."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from app.api.errors import ApiError
from app.api.everywhere import Everywhere
from app.api.signin_limit import SignInLimiter
from app.config import Settings
from app.db import models
from app.db.store import Store
from app.rooms.manager import RoomManager


def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def get_rooms(request: Request) -> RoomManager:
    rooms: RoomManager = request.app.state.rooms
    return rooms


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_everywhere(request: Request) -> Everywhere:
    everywhere: Everywhere = request.app.state.everywhere
    return everywhere


def get_signin_limiter(request: Request) -> SignInLimiter:
    limiter: SignInLimiter = request.app.state.signin_limiter
    return limiter


def has_control_character(text: str) -> bool:
    return any(ord(char) < 32 or ord(char) == 127 for char in text)


def reject_control_characters(request: Request) -> None:
    """No id, filter or cursor holds a control character (PostgreSQL cannot even store NUL): say which
    parameter has one instead of failing further in."""
    params = [*request.path_params.items(), *request.query_params.multi_items()]
    for name, value in params:
        if isinstance(value, str) and has_control_character(value):
            raise ApiError(400, "request/bad_character",
                           f"parameter {name!r} holds a control character ({value!r})")


def bearer_token(authorization: str | None) -> str:
    if not authorization:
        raise ApiError(401, "auth/missing_token", "send the header 'Authorization: Bearer <token>'")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "auth/bad_token", "the Authorization header must be 'Bearer <token>'")
    return token.strip()


async def current_player(store: Annotated[Store, Depends(get_store)],
                         authorization: Annotated[str | None, Header()] = None) -> models.Player:
    player = await store.player_by_token(bearer_token(authorization))
    if player is None:
        raise ApiError(401, "auth/bad_token", "that token belongs to no player")
    if await store.is_suspended(player.id):
        raise suspended()
    return player


def suspended() -> ApiError:
    return ApiError(403, "auth/suspended", "an operator has suspended this account")


async def admin_player(player: Annotated[models.Player, Depends(current_player)]) -> models.Player:
    """The calling player, who must hold the admin role (granted on the server's command line)."""
    if not player.admin:
        raise ApiError(403, "admin/required", "only an operator (a player with the admin role) may do this")
    return player


StoreDep = Annotated[Store, Depends(get_store)]
RoomsDep = Annotated[RoomManager, Depends(get_rooms)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
PlayerDep = Annotated[models.Player, Depends(current_player)]
AdminDep = Annotated[models.Player, Depends(admin_player)]
EverywhereDep = Annotated[Everywhere, Depends(get_everywhere)]
LimiterDep = Annotated[SignInLimiter, Depends(get_signin_limiter)]
