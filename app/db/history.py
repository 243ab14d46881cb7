"""Match history: the list with its cursor, and one match in full."""

from __future__ import annotations

import base64
import binascii
from datetime import datetime
from typing import Any

from sqlalchemy import and_, exists, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import models
from app.games.base import Rejection

SECRET_ACTION_FIELDS = {"discard": "card"}
SECRET_DEAL_FIELDS = ("discard",)


class BadCursor(Rejection):
    code = "request/bad_cursor"


def encode_cursor(match: models.Match) -> str:
    raw = f"{match.started_at.isoformat()}|{match.id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        stamp, match_id = raw.split("|", 1)
        return datetime.fromisoformat(stamp), match_id
    except (binascii.Error, UnicodeDecodeError, ValueError) as error:
        raise BadCursor(f"{cursor!r} is not a cursor this server gave out") from error


def _seat_json(seat: models.MatchSeat) -> dict[str, Any]:
    return {"seat": seat.seat, "player_id": seat.player_id, "name": seat.name, "bot": seat.bot is not None}


def _stamp(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat() + "Z"


def _summary(match: models.Match, seats: list[models.MatchSeat]) -> dict[str, Any]:
    return {"id": match.id, "room_id": match.room_id, "game": match.game, "options": match.options,
            "status": match.status, "started_at": _stamp(match.started_at),
            "finished_at": _stamp(match.finished_at),
            "seats": [_seat_json(seat) for seat in seats], "result": match.result}


async def _seats_of(session: AsyncSession, match_ids: list[str]) -> dict[str, list[models.MatchSeat]]:
    rows = await session.scalars(
        select(models.MatchSeat).where(models.MatchSeat.match_id.in_(match_ids))
        .order_by(models.MatchSeat.match_id, models.MatchSeat.seat))
    seats: dict[str, list[models.MatchSeat]] = {match_id: [] for match_id in match_ids}
    for seat in rows:
        seats[seat.match_id].append(seat)
    return seats


async def list_matches(session: AsyncSession, *, player: str | None, game: str | None,
                       limit: int, before: str | None) -> tuple[list[dict[str, Any]], str | None]:
    """Newest first; ``before`` is the cursor of the last match of the previous page."""
    query = select(models.Match)
    if player is not None:
        query = query.where(exists().where(models.MatchSeat.match_id == models.Match.id,
                                           models.MatchSeat.player_id == player))
    if game is not None:
        query = query.where(models.Match.game == game)
    if before is not None:
        stamp, match_id = decode_cursor(before)
        query = query.where(or_(models.Match.started_at < stamp,
                                and_(models.Match.started_at == stamp, models.Match.id < match_id)))
    query = query.order_by(models.Match.started_at.desc(), models.Match.id.desc()).limit(limit + 1)
    matches = list(await session.scalars(query))
    page, more = matches[:limit], len(matches) > limit
    seats = await _seats_of(session, [match.id for match in page])
    cursor = encode_cursor(page[-1]) if more and page else None
    return [_summary(match, seats[match.id]) for match in page], cursor


def _public_action(action: models.Action, finished: bool) -> dict[str, Any]:
    body = dict(action.action)
    secret = SECRET_ACTION_FIELDS.get(str(body.get("kind")))
    if secret is not None and not finished:
        body.pop(secret, None)
    return {"seq": action.seq, "deal": action.deal, "seat": action.seat, "action": body,
            "at": _stamp(action.at)}


def _public_deal_detail(detail: dict[str, Any] | None, finished: bool) -> dict[str, Any] | None:
    if detail is None or finished:
        return detail
    return {key: value for key, value in detail.items() if key not in SECRET_DEAL_FIELDS}


async def match_detail(session: AsyncSession, match_id: str) -> dict[str, Any] | None:
    """One match in full. While it runs, decks and actions of the deal in play stay hidden, and no
    face-down discard is named."""
    match = await session.get(models.Match, match_id)
    if match is None:
        return None
    finished = match.status == "finished"
    seats = (await _seats_of(session, [match.id]))[match.id]
    deals = list(await session.scalars(
        select(models.Deal).where(models.Deal.match_id == match_id).order_by(models.Deal.number)))
    open_deals = {deal.number for deal in deals if deal.points is None and not finished}
    actions = await session.scalars(
        select(models.Action).where(models.Action.match_id == match_id).order_by(models.Action.seq))
    detail = _summary(match, seats)
    detail["deals"] = [
        {"number": deal.number, "deck": None if deal.number in open_deals else deal.deck,
         "points": deal.points, "detail": _public_deal_detail(deal.detail, finished)}
        for deal in deals]
    detail["actions"] = [_public_action(action, finished) for action in actions
                         if action.deal not in open_deals]
    return detail
