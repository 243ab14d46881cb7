"""Signing in to a claimed account from another browser, and signing out everywhere."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from app.api.deps import EverywhereDep, LimiterDep, PlayerDep, StoreDep, suspended
from app.api.errors import ApiError, error_responses
from app.api.limits import client_address, too_many
from app.api.schemas import PlayerCreated, SessionCreate, SessionPlayer
from app.db import accounts

router = APIRouter(prefix="/api/sessions", tags=["accounts"])


SIGN_IN_ANSWERS = error_responses(401, 403, 429, meanings={
    401: "`auth/wrong_password`: no claimed account has that name and password",
    403: "`auth/suspended`: an operator has suspended the account",
    429: "`auth/rate_limited`: too many failed sign-ins for this name from this address, or from this "
         "address; nothing was checked"})


@router.post("", status_code=201, response_model=PlayerCreated, responses=SIGN_IN_ANSWERS)
async def sign_in(body: SessionCreate, request: Request, store: StoreDep,
                  limiter: LimiterDep) -> PlayerCreated | JSONResponse:
    """A new token for the claimed account with this name (ignoring case) and password. Failures are
    counted per name and client address, and per address: past ``CARDROOM_SIGNIN_MAX_FAILURES`` (or
    ``CARDROOM_SIGNIN_ADDRESS_FAILURES``) each failure doubles the wait before the next try from that
    address, during which sign-ins are answered 429 with ``Retry-After``. Other addresses are not
    slowed down."""
    name_key, address = accounts.name_key(body.name), client_address(request)
    wait = await limiter.retry_after(name_key, address)
    if wait > 0:
        return too_many("auth/rate_limited", "too many failed sign-ins from here", wait)
    async with store.sessions() as session:
        player = await accounts.claimed_player(session, body.name)
    matches = await accounts.password_matches(player.password_hash if player else None, body.password)
    if player is None or not matches:
        await limiter.failed(name_key, address)
        raise ApiError(401, "auth/wrong_password", "no claimed account has that name and password")
    await limiter.succeeded(name_key, address)
    if await store.is_suspended(player.id):
        raise suspended()
    token = await accounts.issue_token(store.sessions, player.id)
    chips = await store.chips(player.id)
    return PlayerCreated(id=player.id, name=player.name, token=token, chips=chips, language=player.language)


@router.delete("", status_code=204, responses=error_responses(401, 409, meanings={
    401: "`auth/missing_token` or `auth/bad_token`",
    409: "`account/not_claimed`: a guest account cannot sign out everywhere"}))
async def sign_out_everywhere(player: PlayerDep, store: StoreDep, everywhere: EverywhereDep) -> Response:
    """Revoke every token of the calling player, the one sent included, and close at once every room
    socket opened with one of them (close code 4401, `auth/revoked`), on every server of a cluster.
    Only for claimed accounts: a guest would lose their account for good."""
    if player.claimed_at is None:
        raise ApiError(409, "account/not_claimed", "claim the account with a password first "
                                                   "(POST /api/players/{id}/claim), or you could never "
                                                   "sign in again")
    await everywhere.check()
    await everywhere.revoke(await accounts.revoke_tokens(store.sessions, player.id))
    return Response(status_code=204)


@router.get("/me", response_model=SessionPlayer, responses=error_responses(401, 403))
async def read_me(player: PlayerDep, store: StoreDep) -> SessionPlayer:
    """Who the token belongs to, and whether that player may use the operator's console (``admin``)."""
    return SessionPlayer(id=player.id, name=player.name, chips=await store.chips(player.id),
                         claimed=player.claimed_at is not None, admin=player.admin,
                         language=player.language)
