"""history filters, accounts with passwords and several revocable tokens, ratings

Indexes of the history list (newest finished first, keyset on ``(finished_at, id)``):
- ``ix_matches_finished (status, finished_at, id)``: every finished match;
- ``ix_matches_game_finished (game, status, finished_at, id)``: ``?game=``;
- ``ix_matches_rated_finished (rated, status, finished_at, id)``: ``?rated=``;
- ``ix_match_seats_player_finished (player_id, finished_at, match_id)``: ``?player=`` (and
  ``&opponent=``, checked per row through the primary key of ``match_seats``);
- ``ix_match_seats_player_game_finished (player_id, game, finished_at, match_id)``: ``?player=&game=``;
- ``ix_match_seats_player_won_finished (player_id, won, finished_at, match_id)``: ``?player=&result=``;
- ``ix_match_seats_player_game_won_finished (player_id, game, won, finished_at, match_id)``: all three.
``match_seats`` holds its match's ``game`` from the start, and copies ``finished_at`` when the match
ends, with the seat's own outcome (``won``, ``total``, ``deal_points``, ``deals``) that the profile
statistics sum up.
``ix_ratings_game_ordinal`` serves the leaderboard, ``ix_rating_history_player`` a profile.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEAT_STATS = ("game", "finished_at", "won", "total", "deal_points", "deals")


def upgrade() -> None:
    _accounts()
    _history()
    _ratings()


def _accounts() -> None:
    with op.batch_alter_table("players") as batch_op:
        batch_op.add_column(sa.Column("password_hash", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("claimed_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("name_key", sa.String(length=160), nullable=True))
        batch_op.create_index("ux_players_name_key", ["name_key"], unique=True)
    op.create_table(
        "tokens",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    with op.batch_alter_table("tokens") as batch_op:
        batch_op.create_index("ix_tokens_player", ["player_id"], unique=False)
    op.execute("INSERT INTO tokens (player_id, token_hash, created_at) "
               "SELECT id, token_hash, created_at FROM players")


def _history() -> None:
    with op.batch_alter_table("matches") as batch_op:
        # A plain "0" (false on both databases) lets SQLite add the column without copying the table.
        batch_op.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default="0"))
        batch_op.create_index("ix_matches_finished", ["status", "finished_at", "id"], unique=False)
        batch_op.create_index("ix_matches_game_finished", ["game", "status", "finished_at", "id"],
                              unique=False)
        batch_op.create_index("ix_matches_rated_finished", ["rated", "status", "finished_at", "id"],
                              unique=False)
    with op.batch_alter_table("match_seats") as batch_op:
        batch_op.add_column(sa.Column("game", sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column("finished_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("won", sa.Boolean(), nullable=True))
        batch_op.add_column(sa.Column("total", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("deal_points", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("deals", sa.Integer(), nullable=True))
        batch_op.create_index("ix_match_seats_player_finished", ["player_id", "finished_at", "match_id"],
                              unique=False)
        batch_op.create_index("ix_match_seats_player_game_finished",
                              ["player_id", "game", "finished_at", "match_id"], unique=False)
        batch_op.create_index("ix_match_seats_player_won_finished",
                              ["player_id", "won", "finished_at", "match_id"], unique=False)
        batch_op.create_index("ix_match_seats_player_game_won_finished",
                              ["player_id", "game", "won", "finished_at", "match_id"], unique=False)
    op.execute("UPDATE match_seats SET game = (SELECT matches.game FROM matches "
               "WHERE matches.id = match_seats.match_id)")
    _fill_seat_stats()


def _ratings() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("ordinal", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("player_id", "game"),
    )
    with op.batch_alter_table("ratings") as batch_op:
        batch_op.create_index("ix_ratings_game_ordinal", ["game", "ordinal", "player_id"], unique=False)
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("match_id", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("ordinal", sa.Double(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("rating_history") as batch_op:
        batch_op.create_index("ix_rating_history_player", ["player_id", "id"], unique=False)
        batch_op.create_index("ix_rating_history_match", ["match_id"], unique=False)


def _fill_seat_stats() -> None:
    """Each finished match's seats get their copy of the match and their own outcome."""
    connection = op.get_bind()
    matches = sa.table("matches", sa.column("id"), sa.column("game"), sa.column("status"),
                       sa.column("finished_at"), sa.column("result", sa.JSON()))
    deals = sa.table("deals", sa.column("match_id"), sa.column("points", sa.JSON()))
    seats = sa.table("match_seats", sa.column("match_id"), sa.column("seat"),
                     *(sa.column(name) for name in SEAT_STATS))
    finished = connection.execute(
        sa.select(matches.c.id, matches.c.game, matches.c.finished_at, matches.c.result)
        .where(matches.c.status == "finished", matches.c.result.is_not(None))).all()
    for match_id, game, finished_at, result in finished:
        scored = [row[0] for row in connection.execute(
            sa.select(deals.c.points).where(deals.c.match_id == match_id)) if row[0] is not None]
        for (seat,) in connection.execute(sa.select(seats.c.seat).where(seats.c.match_id == match_id)):
            values = _seat_values(result, scored, seat)
            connection.execute(
                seats.update().where(seats.c.match_id == match_id, seats.c.seat == seat)
                .values(game=game, finished_at=finished_at, **values))


def _seat_values(result: dict[str, Any], scored: list[list[int]], seat: int) -> dict[str, Any]:
    teams = result.get("teams")
    unit = seat if teams is None else next(
        (index for index, team in enumerate(teams) if seat in team), -1)
    totals = result.get("totals", [])
    points = [deal[unit] for deal in scored if 0 <= unit < len(deal)]
    return {"won": unit in result.get("winners", []),
            "total": totals[unit] if 0 <= unit < len(totals) else None,
            "deal_points": sum(points), "deals": len(points)}


def downgrade() -> None:
    """Columns are dropped with ``ALTER TABLE ... DROP COLUMN`` (SQLite 3.35 or later), not by
    copying tables, which the foreign keys of stored rows would refuse."""
    for table, index in (("rating_history", "ix_rating_history_match"),
                         ("rating_history", "ix_rating_history_player"),
                         ("ratings", "ix_ratings_game_ordinal"), ("tokens", "ix_tokens_player"),
                         ("match_seats", "ix_match_seats_player_game_won_finished"),
                         ("match_seats", "ix_match_seats_player_won_finished"),
                         ("match_seats", "ix_match_seats_player_game_finished"),
                         ("match_seats", "ix_match_seats_player_finished"),
                         ("matches", "ix_matches_rated_finished"), ("matches", "ix_matches_game_finished"),
                         ("matches", "ix_matches_finished"), ("players", "ux_players_name_key")):
        op.drop_index(index, table_name=table)
    for table in ("rating_history", "ratings", "tokens"):
        op.drop_table(table)
    for column in reversed(SEAT_STATS):
        op.drop_column("match_seats", column)
    op.drop_column("matches", "rated")
    for column in ("name_key", "claimed_at", "password_hash"):
        op.drop_column("players", column)
