"""Match history: the filtered list of finished matches, and one match in full."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from app.api.deps import SettingsDep, StoreDep
from app.api.errors import ApiError, error_responses
from app.api.schemas import MatchPage
from app.db import models
from app.db.history import HistoryFilter, list_matches, match_detail
from app.db.store import Store
from app.games.registry import ENGINES

router = APIRouter(prefix="/api/matches", tags=["matches"])

FILTERS = ("player", "game", "opponent", "result", "since", "until", "rated")
RESULTS = ("won", "lost")
BOOLEANS = {"true": True, "1": True, "false": False, "0": False}


def check_known(request: Request, allowed: Collection[str]) -> None:
    unknown = sorted(set(request.query_params) - set(allowed))
    if unknown:
        raise ApiError(400, "request/unknown_filter",
                       f"unknown query parameter(s) {unknown}; this call takes {sorted(allowed)}")


def parse_limit(raw: str | None, default: int, maximum: int) -> int:
    if raw is None:
        return default
    try:
        limit = int(raw)
    except ValueError:
        limit = 0
    if not 1 <= limit <= maximum:
        raise ApiError(400, "request/bad_limit", f"limit must be a whole number from 1 to {maximum}, "
                                                 f"got {raw!r}")
    return limit


def parse_moment(name: str, raw: str | None) -> datetime | None:
    """An ISO 8601 timestamp; one without an offset is taken as UTC. Stored times are naive UTC."""
    if raw is None:
        return None
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError as error:
        raise ApiError(400, "request/bad_filter", f"{name} must be an ISO 8601 timestamp such as "
                                                  f"'2026-01-31T18:00:00Z', got {raw!r}") from error
    if moment.tzinfo is None:
        return moment
    try:
        return moment.astimezone(UTC).replace(tzinfo=None)
    except OverflowError as error:
        raise ApiError(400, "request/bad_filter", f"{name} {raw!r} falls outside the years 1 to 9999 "
                                                  "once moved to UTC") from error


def parse_game(raw: str | None) -> str | None:
    if raw is not None and raw not in ENGINES:
        raise ApiError(400, "request/unknown_game", f"unknown game {raw!r}; choose one of {sorted(ENGINES)}")
    return raw


async def require_player(store: Store, player_id: str, what: str) -> None:
    async with store.sessions() as session:
        if await session.get(models.Player, player_id) is None:
            raise ApiError(404, "player/not_found", f"there is no player {player_id!r} ({what})")


async def history_filter(store: Store, params: dict[str, str | None]) -> HistoryFilter:
    """The filters of the query string, checked; raises :class:`ApiError` naming what is wrong."""
    player, opponent, result = params.get("player"), params.get("opponent"), params.get("result")
    if (opponent is not None or result is not None) and player is None:
        raise ApiError(400, "request/bad_filter", "opponent and result are relative to a player: "
                                                  "give player too")
    if result is not None and result not in RESULTS:
        raise ApiError(400, "request/bad_filter", f"result must be 'won' or 'lost', got {result!r}")
    rated = params.get("rated")
    if rated is not None and rated.lower() not in BOOLEANS:
        raise ApiError(400, "request/bad_filter", f"rated must be 'true' or 'false', got {rated!r}")
    since, until = parse_moment("since", params.get("since")), parse_moment("until", params.get("until"))
    if since is not None and until is not None and since > until:
        raise ApiError(400, "request/bad_range", f"since ({params['since']}) is after until "
                                                 f"({params['until']})")
    for name, player_id in (("player", player), ("opponent", opponent)):
        if player_id is not None:
            await require_player(store, player_id, name)
    return HistoryFilter(player=player, game=parse_game(params.get("game")), opponent=opponent,
                         result=result, since=since, until=until,
                         rated=None if rated is None else BOOLEANS[rated.lower()])


@router.get("", response_model=MatchPage, responses=error_responses(404))
async def list_match_history(
        request: Request, store: StoreDep, settings: SettingsDep,
        player: Annotated[str | None, Query(max_length=64, description="a player id")] = None,
        game: Annotated[str | None, Query(max_length=20)] = None,
        opponent: Annotated[str | None, Query(max_length=64, description="matches where both played")] = None,
        result: Annotated[str | None, Query(description="'won' or 'lost', for player")] = None,
        since: Annotated[str | None, Query(description="finished at or after (ISO 8601)")] = None,
        until: Annotated[str | None, Query(description="finished before (ISO 8601)")] = None,
        rated: Annotated[str | None, Query(description="'true' or 'false'")] = None,
        limit: Annotated[str | None, Query(description="1 to 100, default 20")] = None,
        before: Annotated[str | None, Query(max_length=200, description="the 'next' of a page")] = None,
) -> MatchPage:
    """Finished matches, newest first. Pass ``next`` of one page as ``before`` to get the following
    page; a match that finishes meanwhile shows on a fresh first page only."""
    check_known(request, (*FILTERS, "limit", "before"))
    count = parse_limit(limit, 20, settings.history_max_limit)
    wanted = await history_filter(store, {"player": player, "game": game, "opponent": opponent,
                                          "result": result, "since": since, "until": until,
                                          "rated": rated})
    async with store.sessions() as session:
        matches, cursor = await list_matches(session, wanted, limit=count, before=before)
    return MatchPage(matches=matches, next=cursor)


@router.get("/{match_id}", responses=error_responses(404))
async def read_match(match_id: str, store: StoreDep) -> dict[str, Any]:
    """Everything needed to replay a finished match: options, first dealer, stacks, every deck, the
    whole log, each deal's points, the result and the ratings it moved. Of a match the operator
    archived, ``archived`` is true and its decks and log are gone (null decks, no actions)."""
    async with store.sessions() as session:
        detail = await match_detail(session, match_id)
    if detail is None:
        raise ApiError(404, "match/not_found", f"there is no match {match_id!r}")
    return detail
