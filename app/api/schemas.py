"""Bodies of the HTTP API (requests and answers)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from app.languages import LANGUAGES


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


def clean_name(name: str, what: str = "a name") -> str:
    """The text with its spaces collapsed; refused unless it shows at least one character and
    holds no control character."""
    name = " ".join(name.split())
    if not name or not name.isprintable():
        raise ValueError(f"{what} needs at least one visible character")
    return name


class PlayerCreate(Strict):
    name: str = Field(min_length=1, max_length=40)

    @field_validator("name")
    @classmethod
    def name_is_printable(cls, name: str) -> str:
        return clean_name(name)


class PlayerCreated(BaseModel):
    id: str
    name: str
    token: str
    chips: int
    language: str | None = None


class PlayerPublic(BaseModel):
    id: str
    name: str
    chips: int
    stats: dict[str, Any]
    claimed: bool = False
    ratings: dict[str, Any] = Field(default_factory=dict)
    rating_history: list[dict[str, Any]] = Field(default_factory=list)


class AccountClaim(Strict):
    password: str = Field(min_length=8, max_length=256)
    name: str | None = Field(default=None, min_length=1, max_length=40)

    @field_validator("name")
    @classmethod
    def name_is_printable(cls, name: str | None) -> str | None:
        return None if name is None else clean_name(name)


class SessionCreate(Strict):
    name: str = Field(min_length=1, max_length=40)
    password: str = Field(min_length=1, max_length=256)

    @field_validator("name")
    @classmethod
    def name_is_printable(cls, name: str) -> str:
        if not name.isprintable():
            raise ValueError("a name holds only visible characters and spaces")
        return name


class LeaderboardEntry(BaseModel):
    rank: int
    player_id: str
    name: str
    mu: float
    sigma: float
    ordinal: float
    matches: int
    updated_at: str


class Leaderboard(BaseModel):
    game: str
    players: list[LeaderboardEntry]


class GameInfo(BaseModel):
    game: str
    name: str
    min_seats: int
    max_seats: int
    rules_languages: list[str]
    options: list[dict[str, Any]]


class RoomCreate(Strict):
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    private: StrictBool = False


class RoomSeat(BaseModel):
    seat: int
    player_id: str | None
    name: str | None
    bot: bool
    bot_level: str | None = None
    autopilot: bool = False
    buy_in: int | None = None
    connected: bool


class RoomPublic(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    private: bool
    owner: str
    status: str
    match_id: str | None
    seats: list[RoomSeat]


class MatchPage(BaseModel):
    matches: list[dict[str, Any]]
    next: str | None


class SessionPlayer(BaseModel):
    id: str
    name: str
    chips: int
    claimed: bool
    admin: bool
    language: str | None


class LanguageChoice(Strict):
    """The interface language a player chose: one of ``app.languages.LANGUAGES``."""

    language: str = Field(max_length=16)

    @field_validator("language")
    @classmethod
    def is_offered(cls, code: str) -> str:
        if code not in LANGUAGES:
            raise ValueError(f"the interface is offered in {', '.join(LANGUAGES)}")
        return code


class Reason(Strict):
    """Why an operator acts: written to the audit log."""

    reason: str = Field(min_length=1, max_length=500)

    @field_validator("reason")
    @classmethod
    def reason_is_visible(cls, reason: str) -> str:
        return clean_name(reason, "a reason")


class PlayerRemoval(Reason):
    player_id: str = Field(min_length=1, max_length=32)


class NoticeCreate(Reason):
    text: str = Field(min_length=1, max_length=300)

    @field_validator("text")
    @classmethod
    def text_is_visible(cls, text: str) -> str:
        return clean_name(text, "a notice")


class PauseChange(Reason):
    paused: StrictBool


class ChatLine(Strict):
    text: str = Field(min_length=1, max_length=500)
    at: datetime


class ReportCreate(Strict):
    player_id: str = Field(min_length=1, max_length=32)
    room_id: str = Field(min_length=1, max_length=32)
    chat: ChatLine | None = None
    note: str | None = Field(default=None, max_length=500)


class ReportCreated(BaseModel):
    id: int


class ReplayStep(BaseModel):
    """One logged step of a finished match and the view after it."""

    number: int = Field(description="the step's place in the match: 1 for the first logged step")
    seq: int
    seat: int | None
    action: dict[str, Any]
    events: list[Mapping[str, Any]]
    view: dict[str, Any]


class ReplayDeal(BaseModel):
    """The views after each step of one deal of a finished match."""

    match_id: str
    game: str
    deal: int
    deals: int = Field(description="how many deals the match had")
    seat: int | None = Field(description="the seat whose view this is; null for every hand face up")
    before: dict[str, Any] = Field(description="the view before the deal's first step")
    steps: list[ReplayStep]
