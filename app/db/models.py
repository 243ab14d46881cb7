"""SQLAlchemy models: what the server keeps. The schema itself is made by the Alembic migrations."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]


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

    __table_args__ = (Index("ix_rooms_status", "status"),)


class RoomSeat(Base):
    __tablename__ = "room_seats"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    bot: Mapped[str | None] = mapped_column(String(20))


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

    __table_args__ = (
        Index("ix_matches_game_started", "game", "started_at"),
        Index("ix_matches_status", "status"),
    )


class MatchSeat(Base):
    __tablename__ = "match_seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    name: Mapped[str] = mapped_column(String(40))
    bot: Mapped[str | None] = mapped_column(String(20))

    __table_args__ = (Index("ix_match_seats_player", "player_id", "match_id"),)


class Deal(Base):
    __tablename__ = "deals"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    deck: Mapped[list[Any]]
    points: Mapped[list[Any] | None]
    detail: Mapped[dict[str, Any] | None]


class Action(Base):
    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)
    deal: Mapped[int]
    seat: Mapped[int | None]
    action: Mapped[dict[str, Any]]
    ref: Mapped[str | None] = mapped_column(String(64))
    at: Mapped[datetime]


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
    )
