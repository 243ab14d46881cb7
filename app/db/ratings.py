"""Ratings: one Weng-Lin rating (OpenSkill's Plackett-Luce model) per player and game.

A finished match is rated when every seat held by a person belongs to a claimed account and at least
two rating units remain: a unit is a claimed player (Hazari, Azi) or a partnership with at least one
claimed player in it (Hasenpfeffer). Bots are left out: a partnership of a player and a bot is rated
as that player alone. Units are ranked winners first, then by their final totals (Hazari points, Azi
net chips, team points in Hasenpfeffer, where the bidders win when both sides reach the target);
equal places are a tie. A player who abandoned the match (the autopilot held his seat at the end)
gains nothing from it: a unit of such players only ranks below every other unit, and his rating
never rises from the match.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import models

MODEL = PlackettLuce()
HISTORY_SHOWN = 100


Unit = tuple[list[str], int, bool]


def rating_units(result: dict[str, Any], seats: list[tuple[int, str | None, bool]]) -> list[Unit]:
    """The units to rate, each as (its claimed players, its total, whether it won), from ``seats``
    given as (seat, player id or None for a bot, whether claimed). Empty when the match is not rated."""
    if any(player_id is not None and not claimed for _, player_id, claimed in seats):
        return []
    totals = result.get("totals", [])
    teams = result.get("teams") or [[seat] for seat in range(len(totals))]
    owner = {seat: player_id for seat, player_id, _ in seats}
    units = []
    for index, team in enumerate(teams):
        players = [player for seat in team if (player := owner.get(seat)) is not None]
        if players and index < len(totals):
            units.append((players, int(totals[index]), index in result.get("winners", [])))
    return units if len(units) >= 2 else []


def is_abandoned(result: dict[str, Any], seat: int) -> bool:
    """Whether the autopilot held ``seat`` when the match ended."""
    played_by = result.get("played_by") or []
    return seat < len(played_by) and played_by[seat] == "autopilot"


def abandoners_last(units: list[Unit], abandoned: set[str]) -> list[Unit]:
    """``units`` where a unit whose players all abandoned the match lost it below every other."""
    if not abandoned:
        return units
    floor = min(total for _, total, _ in units) - 1
    return [(members, floor, False) if set(members) <= abandoned else (members, total, won)
            for members, total, won in units]


def places(units: list[Unit]) -> list[float]:
    """Each unit's place (1 is best): winners first, then the higher total; equals share a place."""
    keys = [(won, total) for _, total, won in units]
    return [float(1 + sum(other > key for other in keys)) for key in keys]


async def rate_match(session: AsyncSession, match: models.Match, result: dict[str, Any],
                     at: datetime) -> None:
    """Update the ratings of a match's players, in the transaction that records its end."""
    rows = (await session.execute(
        select(models.MatchSeat.seat, models.MatchSeat.player_id, models.Player.claimed_at)
        .outerjoin(models.Player, models.Player.id == models.MatchSeat.player_id)
        .where(models.MatchSeat.match_id == match.id))).all()
    units = rating_units(result, [(seat, player_id, claimed is not None)
                                  for seat, player_id, claimed in rows])
    if not units:
        return
    abandoned = {player_id for seat, player_id, _ in rows
                 if player_id is not None and is_abandoned(result, seat)}
    units = abandoners_last(units, abandoned)
    players = sorted({player for members, _, _ in units for player in members})
    current = await _locked_ratings(session, match.game, players, at)
    teams = [[MODEL.rating(mu=current[p].mu, sigma=current[p].sigma) for p in members]
             for members, _, _ in units]
    rated = MODEL.rate(teams, ranks=places(units))
    for (members, _, _), team in zip(units, rated, strict=True):
        for player, rating in zip(members, team, strict=True):
            if player in abandoned and rating.ordinal() > current[player].ordinal:
                rating = MODEL.rating(mu=current[player].mu, sigma=current[player].sigma)
            await _save(session, current[player], rating.mu, rating.sigma, at)
            session.add(models.RatingChange(player_id=player, game=match.game, match_id=match.id,
                                            mu=rating.mu, sigma=rating.sigma,
                                            ordinal=rating.ordinal(), at=at))
    await session.execute(update(models.Match).where(models.Match.id == match.id).values(rated=True))


async def _locked_ratings(session: AsyncSession, game: str, players: list[str],
                          at: datetime) -> dict[str, models.Rating]:
    """Each player's rating row (made at the model's prior when new), locked until the transaction
    ends so that two matches finishing at once cannot lose an update."""
    fresh = MODEL.rating()
    rows = [{"player_id": player, "game": game, "mu": fresh.mu, "sigma": fresh.sigma,
             "ordinal": fresh.ordinal(), "matches": 0, "updated_at": at} for player in players]
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    await session.execute(insert(models.Rating).values(rows).on_conflict_do_nothing())
    found = await session.scalars(
        select(models.Rating).where(models.Rating.game == game, models.Rating.player_id.in_(players))
        .order_by(models.Rating.player_id).with_for_update()
        .execution_options(populate_existing=True))
    return {rating.player_id: rating for rating in found}


async def _save(session: AsyncSession, row: models.Rating, mu: float, sigma: float, at: datetime) -> None:
    row.mu, row.sigma = mu, sigma
    row.ordinal = MODEL.rating(mu=mu, sigma=sigma).ordinal()
    row.matches += 1
    row.updated_at = at
    await session.flush()


def rating_json(row: models.Rating) -> dict[str, Any]:
    return {"mu": round(row.mu, 4), "sigma": round(row.sigma, 4), "ordinal": round(row.ordinal, 4),
            "matches": row.matches, "updated_at": row.updated_at.isoformat() + "Z"}


async def player_ratings(session: AsyncSession, player_id: str) -> dict[str, Any]:
    rows = await session.scalars(select(models.Rating).where(models.Rating.player_id == player_id))
    return {row.game: rating_json(row) for row in rows}


async def rating_history(session: AsyncSession, player_id: str,
                         limit: int = HISTORY_SHOWN) -> list[dict[str, Any]]:
    """The player's rating after each rated match, newest first."""
    rows = await session.scalars(
        select(models.RatingChange).where(models.RatingChange.player_id == player_id)
        .order_by(models.RatingChange.id.desc()).limit(limit))
    return [{"game": row.game, "match_id": row.match_id, "mu": round(row.mu, 4),
             "sigma": round(row.sigma, 4), "ordinal": round(row.ordinal, 4),
             "at": row.at.isoformat() + "Z"} for row in rows]


async def match_ratings(session: AsyncSession, match_id: str) -> list[dict[str, Any]]:
    """The ratings a rated match left its players with."""
    rows = await session.scalars(
        select(models.RatingChange).where(models.RatingChange.match_id == match_id)
        .order_by(models.RatingChange.id))
    return [{"player_id": row.player_id, "mu": round(row.mu, 4), "sigma": round(row.sigma, 4),
             "ordinal": round(row.ordinal, 4)} for row in rows]


async def leaderboard(session: AsyncSession, game: str, limit: int) -> list[dict[str, Any]]:
    """The best ``limit`` players of ``game`` by ordinal (mu - 3 sigma), highest first."""
    rows = await session.execute(
        select(models.Rating, models.Player.name)
        .join(models.Player, models.Player.id == models.Rating.player_id)
        .where(models.Rating.game == game)
        .order_by(models.Rating.ordinal.desc(), models.Rating.player_id.desc()).limit(limit))
    return [{"rank": rank, "player_id": row.player_id, "name": name, **rating_json(row)}
            for rank, (row, name) in enumerate(rows, start=1)]
