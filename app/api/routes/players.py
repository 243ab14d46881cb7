"""Players: guests, claiming an account, profiles with statistics and ratings, and a player's whole
history as NDJSON."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse

from app.api.deps import PlayerDep, SettingsDep, StoreDep
from app.api.errors import ApiError, error_responses
from app.api.limits import Limit, client_address, too_many
from app.api.routes.matches import FILTERS, check_known, history_filter
from app.api.schemas import AccountClaim, LanguageChoice, PlayerCreate, PlayerCreated, PlayerPublic
from app.db import accounts
from app.db.history import stream_matches
from app.db.ratings import player_ratings, rating_history
from app.db.stats import player_stats

router = APIRouter(prefix="/api/players", tags=["players"])

CLAIM_ERRORS = {"account/already_claimed": 409, "account/name_taken": 409, "player/not_found": 404}


@router.post("", status_code=201, response_model=PlayerCreated, responses=error_responses(409, 429))
async def create_player(body: PlayerCreate, request: Request, store: StoreDep,
                        settings: SettingsDep) -> PlayerCreated | JSONResponse:
    """A guest account. Keep ``token``: it is the player's only credential. The name of a claimed
    account (compared ignoring case) is refused. One address makes at most
    ``CARDROOM_GUESTS_PER_HOUR`` guests an hour; more are refused with 429 and ``Retry-After``."""
    guest_limit: Limit = request.app.state.guest_limit
    wait = await guest_limit.take(client_address(request))
    if wait is not None:
        return too_many("player/too_many_guests", f"this address has made {settings.guests_per_hour} guest "
                        "accounts in the last hour, the most it may", wait)
    async with store.sessions() as session:
        if await accounts.name_is_claimed(session, body.name):
            raise ApiError(409, "player/name_taken", f"the name {body.name!r} belongs to a claimed "
                                                     "account; choose another")
    player, token = await store.create_player(body.name, settings.starting_chips)
    chips = await store.chips(player.id)
    return PlayerCreated(id=player.id, name=player.name, token=token, chips=chips)


@router.post("/{player_id}/top-up", response_model=PlayerPublic, responses=error_responses(401, 403, 404))
async def top_up_player(player_id: str, player: PlayerDep, store: StoreDep,
                        settings: SettingsDep) -> PlayerPublic:
    """A player holding fewer chips than the smallest buy-in (setting ``CARDROOM_TOPUP_BELOW``) gets
    back to the starting chips, at most once per ``CARDROOM_TOPUP_PERIOD_HOURS``, and not while
    he holds a seat at a chip table (``chips/at_table``). Of concurrent requests one only is
    granted."""
    if player.id != player_id:
        raise ApiError(403, "auth/not_yours", "a player can only top up their own chips")
    await store.top_up(player.id, to=settings.starting_chips, below=settings.topup_below,
                       period=timedelta(hours=settings.topup_period_hours))
    return await read_player(player_id, store)


@router.post("/{player_id}/claim", response_model=PlayerPublic,
             responses=error_responses(401, 403, 404, 409))
async def claim_account(player_id: str, body: AccountClaim, player: PlayerDep,
                        store: StoreDep) -> PlayerPublic:
    """The guest keeps their account: a password (8 characters or more) to sign in with from any
    browser (``POST /api/sessions``), and optionally another ``name``. Claimed names are unique,
    ignoring case. The token in use stays valid."""
    if player.id != player_id:
        raise ApiError(403, "auth/not_yours", "a player can only claim their own account")
    name = body.name or player.name
    try:
        await accounts.claim(store.sessions, player_id, name, await accounts.hash_password(body.password))
    except accounts.AccountError as error:
        raise ApiError(CLAIM_ERRORS.get(error.code, 400), error.code, error.message) from error
    return await read_player(player_id, store)


@router.put("/{player_id}/language", status_code=204, responses=error_responses(401, 403, 422))
async def choose_language(player_id: str, body: LanguageChoice, player: PlayerDep,
                          store: StoreDep) -> Response:
    """The interface language the player chose; a claimed account brings it to every browser it
    signs in from (``POST /api/sessions`` answers it as ``language``)."""
    if player.id != player_id:
        raise ApiError(403, "auth/not_yours", "a player can only choose their own language")
    await accounts.set_language(store.sessions, player_id, body.language)
    return Response(status_code=204)


@router.get("/{player_id}", response_model=PlayerPublic, responses=error_responses(404))
async def read_player(player_id: str, store: StoreDep) -> PlayerPublic:
    """The profile: chips, statistics per game, whether the account is claimed, the rating per game
    and the rating after each of the last 100 rated matches (newest first)."""
    player = await store.get_player(player_id)
    if player is None:
        raise ApiError(404, "player/not_found", f"there is no player {player_id!r}")
    chips = await store.chips(player.id)
    async with store.sessions() as session:
        stats = await player_stats(session, player.id)
        ratings = await player_ratings(session, player.id)
        history = await rating_history(session, player.id)
    return PlayerPublic(id=player.id, name=player.name, chips=chips, stats=stats,
                        claimed=player.claimed_at is not None, ratings=ratings, rating_history=history)


async def _ndjson(batches: AsyncIterator[list[dict[str, Any]]]) -> AsyncIterator[str]:
    """One chunk per batch, one JSON object per line."""
    async for batch in batches:
        yield "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in batch)


@router.get("/{player_id}/matches.ndjson", response_class=StreamingResponse,
            responses={200: {"content": {"application/x-ndjson": {}}}, **error_responses(404)})
async def stream_player_matches(
        player_id: str, request: Request, store: StoreDep, settings: SettingsDep,
        game: Annotated[str | None, Query(max_length=20)] = None,
        opponent: Annotated[str | None, Query(max_length=64)] = None,
        result: Annotated[str | None, Query(description="'won' or 'lost'")] = None,
        since: Annotated[str | None, Query(description="finished at or after (ISO 8601)")] = None,
        until: Annotated[str | None, Query(description="finished before (ISO 8601)")] = None,
        rated: Annotated[str | None, Query(description="'true' or 'false'")] = None,
) -> StreamingResponse:
    """Every finished match of the player, newest first, one summary (as in ``GET /api/matches``)
    per line, read from the database a batch at a time. Takes the filters of ``GET /api/matches``."""
    check_known(request, [name for name in FILTERS if name != "player"])
    wanted = await history_filter(store, {"player": player_id, "game": game, "opponent": opponent,
                                          "result": result, "since": since, "until": until,
                                          "rated": rated})
    batches = stream_matches(store.sessions, wanted, settings.history_stream_batch)
    return StreamingResponse(_ndjson(batches), media_type="application/x-ndjson")
