"""SQLAlchemy models: what the server keeps. The schema itself is made by the Alembic migrations."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    password_hash: Mapped[str | None] = mapped_column(String(200))
    claimed_at: Mapped[datetime | None]
    name_key: Mapped[str | None] = mapped_column(String(160))
    # The balance of ``player:<id>``: a trigger on ``chip_transfers`` moves it in the transaction
    # that writes each transfer, and the check refuses any move that would overdraw it.
    chips: Mapped[int] = mapped_column(default=0, server_default="0")
    topped_up_at: Mapped[datetime | None]
    # May use the operator's console; set on the server's command line only (migration 0008).
    admin: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The interface language the player chose (migration 0010); null until he chooses.
    language: Mapped[str | None] = mapped_column(String(16))

    # A claimed account's name, case-folded: unique among claimed accounts (guests have none).
    __table_args__ = (Index("ux_players_name_key", "name_key", unique=True),
                      CheckConstraint("chips >= 0", name="ck_players_chips"))


class Token(Base):
    """A credential of a player (its SHA-256), revocable; ``players.token_hash`` keeps the guest's first."""

    __tablename__ = "tokens"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]

    __table_args__ = (Index("ix_tokens_player", "player_id"),)


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]]
    private: Mapped[bool]
    owner_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(12))
    match_id: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime]
    version: Mapped[int] = mapped_column(default=0, server_default="0")
    test_setup: Mapped[dict[str, Any] | None]
    # The fencing number of the server that owns the room (migration 0012): a server taking it over
    # raises it, and the database refuses the steps of a server holding an older one.
    fence: Mapped[int] = mapped_column(default=0, server_default="0")

    __table_args__ = (Index("ix_rooms_status", "status"),)


class RoomSeat(Base):
    __tablename__ = "room_seats"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    bot: Mapped[str | None] = mapped_column(String(20))
    # At a chip table: the table stack the seat brings when the match starts (migration 0007).
    buy_in: Mapped[int | None]


class ChipSeat(Base):
    """The chip table where a player holds a seat: one at most, from sitting down until he stands
    or the room is finished (a trigger on ``rooms`` then frees its chip seats)."""

    __tablename__ = "chip_seats"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))

    __table_args__ = (Index("ix_chip_seats_room", "room_id"),)


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))
    game: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]]
    first_dealer: Mapped[int]
    stacks: Mapped[list[Any] | None]
    status: Mapped[str] = mapped_column(String(12))
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]
    result: Mapped[dict[str, Any] | None]
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())

    __table_args__ = (
        Index("ix_matches_game_started", "game", "started_at"),
        Index("ix_matches_status", "status"),
        Index("ix_matches_finished", "status", "finished_at", "id"),
        Index("ix_matches_game_finished", "game", "status", "finished_at", "id"),
        Index("ix_matches_rated_finished", "rated", "status", "finished_at", "id"),
    )


class MatchSeat(Base):
    __tablename__ = "match_seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    name: Mapped[str] = mapped_column(String(40))
    bot: Mapped[str | None] = mapped_column(String(20))
    # Copied from the match when it finishes, so a player's history is one index range in order.
    game: Mapped[str | None] = mapped_column(String(20))
    finished_at: Mapped[datetime | None]
    won: Mapped[bool | None]
    total: Mapped[int | None]
    deal_points: Mapped[int | None]
    deals: Mapped[int | None]
    # Who held the seat when the match ended (``player``, ``autopilot`` or ``bot``) and how many of
    # its decisions the autopilot made; a seat the autopilot held at the end was abandoned.
    played_by: Mapped[str | None] = mapped_column(String(12))
    autopilot_decisions: Mapped[int | None]

    __table_args__ = (
        Index("ix_match_seats_player", "player_id", "match_id"),
        Index("ix_match_seats_player_finished", "player_id", "finished_at", "match_id"),
        Index("ix_match_seats_player_game_finished", "player_id", "game", "finished_at", "match_id"),
        Index("ix_match_seats_player_won_finished", "player_id", "won", "finished_at", "match_id"),
        Index("ix_match_seats_player_game_won_finished", "player_id", "game", "won", "finished_at",
              "match_id"),
    )


class Deal(Base):
    __tablename__ = "deals"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    deck: Mapped[list[Any]]
    points: Mapped[list[Any] | None]
    detail: Mapped[dict[str, Any] | None]
    server_seed: Mapped[str | None] = mapped_column(String(64), default=None)
    commitment: Mapped[str | None] = mapped_column(String(64), default=None)
    client_seeds: Mapped[list[Any] | None] = mapped_column(default=None)
    # The room's fence its writer held (migration 0012); a trigger refuses any other.
    fence: Mapped[int] = mapped_column(default=0, server_default="0")


class Action(Base):
    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)
    deal: Mapped[int]
    seat: Mapped[int | None]
    action: Mapped[dict[str, Any]]
    ref: Mapped[str | None] = mapped_column(String(64))
    at: Mapped[datetime]
    # Made by the autopilot for a person who was away or too slow.
    autopilot: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The room's fence its writer held (migration 0012); a trigger refuses any other.
    fence: Mapped[int] = mapped_column(default=0, server_default="0")


class ChipTransfer(Base):
    """One movement of chips between two accounts (double entry): ``player:<id>``, ``pot:<match>``,
    or ``bank`` (where granted chips come from)."""

    __tablename__ = "chip_transfers"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    source: Mapped[str] = mapped_column(String(48))
    target: Mapped[str] = mapped_column(String(48))
    amount: Mapped[int]
    kind: Mapped[str] = mapped_column(String(16))
    match_id: Mapped[str | None] = mapped_column(String(32))
    deal: Mapped[int | None]
    action_seq: Mapped[int | None]
    at: Mapped[datetime]

    __table_args__ = (
        Index("ix_chip_transfers_source", "source"),
        Index("ix_chip_transfers_target", "target"),
        CheckConstraint("amount >= 0", name="ck_chip_transfers_amount"),
    )


class Rating(Base):
    """A player's current Weng-Lin (OpenSkill Plackett-Luce) rating in one game."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    mu: Mapped[float]
    sigma: Mapped[float]
    ordinal: Mapped[float]
    matches: Mapped[int]
    updated_at: Mapped[datetime]

    __table_args__ = (Index("ix_ratings_game_ordinal", "game", "ordinal", "player_id"),)


class RatingChange(Base):
    """A player's rating in one game right after one rated match."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    game: Mapped[str] = mapped_column(String(20))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    mu: Mapped[float]
    sigma: Mapped[float]
    ordinal: Mapped[float]
    at: Mapped[datetime]

    __table_args__ = (
        Index("ix_rating_history_player", "player_id", "id"),
        Index("ix_rating_history_match", "match_id"),
    )


class ChatLine(Base):
    """A line of table chat or a reaction (migration 0009). Before a match starts a line belongs to
    its room only (``match_id`` null); ``after_seq`` is how many steps of the match had been played
    when it was said."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id"))
    after_seq: Mapped[int | None]
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    name: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int | None]
    text: Mapped[str | None] = mapped_column(String(200))
    reaction: Mapped[str | None] = mapped_column(String(20))
    at: Mapped[datetime]

    __table_args__ = (
        Index("ix_chat_lines_room", "room_id", "id"),
        Index("ix_chat_lines_match", "match_id", "id"),
        CheckConstraint("(text IS NULL) <> (reaction IS NULL)", name="ck_chat_lines_text_or_reaction"),
    )


class Suspension(Base):
    """A player barred from signing in and from the tables; in force until ``lifted_at``."""

    __tablename__ = "suspensions"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    reason: Mapped[str] = mapped_column(String(500))
    by_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    at: Mapped[datetime]
    lifted_at: Mapped[datetime | None]
    lifted_by_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))

    __table_args__ = (Index("ix_suspensions_player", "player_id", "lifted_at"),)


class AuditEntry(Base):
    """One action of an operator: ``actor_id`` is the admin (null: the server's command line)."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    actor_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    action: Mapped[str] = mapped_column(String(40))
    target_player_id: Mapped[str | None] = mapped_column(String(32))
    target_room_id: Mapped[str | None] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(String(500))
    detail: Mapped[dict[str, Any] | None]
    at: Mapped[datetime]

    __table_args__ = (Index("ix_audit_log_at", "at", "id"),)


class Report(Base):
    """A player's report of another, with the match context the server recorded."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    reporter_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    reported_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    room_id: Mapped[str] = mapped_column(String(32))
    match_id: Mapped[str | None] = mapped_column(String(32))
    seat: Mapped[int | None]
    chat_text: Mapped[str | None] = mapped_column(String(500))
    chat_at: Mapped[datetime | None]
    note: Mapped[str | None] = mapped_column(String(500))
    at: Mapped[datetime]

    __table_args__ = (Index("ix_reports_at", "at", "id"),)


class BenchWrite(Base):
    """A row of the benchmark's durable baseline (migration 0011), written only by the bench-only
    ``/ws/bench/durable/{group}``; nothing else reads or refers to it."""

    __tablename__ = "bench_writes"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    group_id: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime]
