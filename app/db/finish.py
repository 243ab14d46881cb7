"""What the end of a match writes besides its result, in the same transaction: each seat's own outcome
(copied onto ``match_seats`` so that history and statistics are index ranges) and the ratings.

A seat the autopilot held when the match ended was abandoned by its player: whatever the autopilot
made of it, the player wins nothing (``won`` is false) and gains no rating from it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import models
from app.db.ratings import is_abandoned, rate_match


def seat_unit(result: dict[str, Any], seat: int) -> int | None:
    """The index of ``seat`` in ``result``'s ``totals``: the seat, or its team when there are teams."""
    teams = result.get("teams")
    if teams is None:
        return seat
    return next((index for index, team in enumerate(teams) if seat in team), None)


def seat_outcome(result: dict[str, Any], deal_points: list[list[int]], seat: int) -> dict[str, Any]:
    """``won``, ``total`` (own final total: points, team points or net chips), ``deal_points`` (the
    sum of own points over the scored deals) and ``deals`` (how many were scored)."""
    unit = seat_unit(result, seat)
    totals = result.get("totals", [])
    if unit is None or unit >= len(totals):
        return {"won": False, "total": None, "deal_points": 0, "deals": 0}
    points = [deal[unit] for deal in deal_points if unit < len(deal)]
    return {"won": unit in result.get("winners", []), "total": totals[unit],
            "deal_points": sum(points), "deals": len(points)}


async def with_autopilot_decisions(session: AsyncSession, match_id: str,
                                   result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with ``autopilot_decisions``: per seat, how many of its logged decisions the
    autopilot made."""
    seats = list(await session.scalars(
        select(models.MatchSeat.seat).where(models.MatchSeat.match_id == match_id)))
    counted = dict((await session.execute(
        select(models.Action.seat, func.count())
        .where(models.Action.match_id == match_id, models.Action.autopilot.is_(True))
        .group_by(models.Action.seat))).all())
    return {**result, "autopilot_decisions": [int(counted.get(seat, 0)) for seat in sorted(seats)]}


async def record_finish(session: AsyncSession, match_id: str, result: dict[str, Any],
                        finished_at: datetime) -> None:
    """Called by the step that finishes the match, after it stored the result."""
    match = await session.get(models.Match, match_id)
    if match is None:
        return
    deal_points = [points for points in await session.scalars(
        select(models.Deal.points).where(models.Deal.match_id == match_id).order_by(models.Deal.number))
        if points is not None]
    seats = await session.execute(
        select(models.MatchSeat.seat, models.MatchSeat.bot).where(models.MatchSeat.match_id == match_id))
    decisions = result.get("autopilot_decisions") or []
    for seat, bot in seats.all():
        outcome = seat_outcome(result, deal_points, seat)
        abandoned = is_abandoned(result, seat)
        outcome["won"] = outcome["won"] and not abandoned
        await session.execute(
            update(models.MatchSeat)
            .where(models.MatchSeat.match_id == match_id, models.MatchSeat.seat == seat)
            .values(game=match.game, finished_at=finished_at, **outcome,
                    played_by="bot" if bot is not None else "autopilot" if abandoned else "player",
                    autopilot_decisions=decisions[seat] if seat < len(decisions) else 0))
    await rate_match(session, match, result, finished_at)
