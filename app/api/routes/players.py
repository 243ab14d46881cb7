"""Guest players."""

from __future__ import annotations

from datetime import timedelta

from fastapi import APIRouter

from app.api.deps import PlayerDep, SettingsDep, StoreDep
from app.api.errors import ApiError
from app.api.schemas import PlayerCreate, PlayerCreated, PlayerPublic
from app.db.store import player_account

router = APIRouter(prefix="/api/players", tags=["players"])


@router.post("", status_code=201, response_model=PlayerCreated)
async def create_player(body: PlayerCreate, store: StoreDep, settings: SettingsDep) -> PlayerCreated:
    """A guest account. Keep ``token``: it is the player's only credential."""
    player, token = await store.create_player(body.name, settings.starting_chips)
    chips = await store.balance(player_account(player.id))
    return PlayerCreated(id=player.id, name=player.name, token=token, chips=chips)


@router.post("/{player_id}/top-up", response_model=PlayerPublic)
async def top_up_player(player_id: str, player: PlayerDep, store: StoreDep,
                        settings: SettingsDep) -> PlayerPublic:
    """A player holding fewer chips than the smallest stake (setting ``CARDROOM_TOPUP_BELOW``) gets
    back to the starting chips, at most once per ``CARDROOM_TOPUP_PERIOD_HOURS``."""
    if player.id != player_id:
        raise ApiError(403, "auth/not_yours", "a player can only top up their own chips")
    await store.top_up(player.id, to=settings.starting_chips, below=settings.topup_below,
                       period=timedelta(hours=settings.topup_period_hours))
    return await read_player(player_id, store)


@router.get("/{player_id}", response_model=PlayerPublic)
async def read_player(player_id: str, store: StoreDep) -> PlayerPublic:
    player = await store.get_player(player_id)
    if player is None:
        raise ApiError(404, "player/not_found", f"there is no player {player_id!r}")
    chips = await store.balance(player_account(player.id))
    stats = await store.player_stats(player.id)
    return PlayerPublic(id=player.id, name=player.name, chips=chips, stats=stats)
