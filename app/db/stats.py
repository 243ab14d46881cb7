"""A player's statistics per game, summed in one indexed query over their seats (each seat holds
its match's game from the start, and its own outcome from the end)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import models


def _average(total: Any, count: Any) -> float | None:
    return round(int(total or 0) / int(count), 2) if count else None


async def player_stats(session: AsyncSession, player_id: str) -> dict[str, Any]:
    """Per game: ``matches`` (running ones included), ``finished``, ``wins``, ``abandoned`` (finished
    matches the autopilot ended for the player: never wins), ``deals`` (scored deals
    of finished matches), ``avg_points_per_deal`` (own points per deal: Hazari points, the own team's
    points in Hasenpfeffer, net chips in Azi), ``avg_total`` (own final total per finished match) and
    ``best`` (the highest own final total)."""
    seat = models.MatchSeat
    rows = await session.execute(
        select(seat.game, func.count(), func.count(seat.finished_at),
               func.sum(case((seat.won.is_(True), 1), else_=0)),
               func.sum(case((seat.played_by == "autopilot", 1), else_=0)), func.sum(seat.deal_points),
               func.sum(seat.deals), func.sum(seat.total), func.max(seat.total))
        .where(seat.player_id == player_id, seat.game.is_not(None))
        .group_by(seat.game).order_by(seat.game))
    return {game: {"matches": played, "finished": finished, "wins": int(wins or 0),
                   "abandoned": int(abandoned or 0), "deals": int(deals or 0),
                   "avg_points_per_deal": _average(points, deals),
                   "avg_total": _average(totals, finished), "best": best}
            for game, played, finished, wins, abandoned, points, deals, totals, best in rows}
