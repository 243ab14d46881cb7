"""Messages a client sends over the WebSocket: a union discriminated on ``type``."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from app.games.base import Rejection

# Text the server may store: no control characters (PostgreSQL cannot hold NUL in text).
VISIBLE = r"^[^\x00-\x1f\x7f]*$"


class MessageError(Rejection):
    code = "message/invalid"


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Auth(Message):
    """Only as a socket's first message: sign in as the player the token belongs to."""

    type: Literal["auth"]
    token: Annotated[StrictStr, Field(min_length=1, max_length=256)]


class Sit(Message):
    type: Literal["sit"]
    seat: StrictInt


class Stand(Message):
    type: Literal["stand"]


class AddBot(Message):
    type: Literal["add_bot"]
    seat: StrictInt
    level: Literal["random", "strong"] = "strong"


class Start(Message):
    type: Literal["start"]


class Close(Message):
    type: Literal["close"]


class Hint(Message):
    type: Literal["hint"]


class Seed(Message):
    type: Literal["seed"]
    deal: StrictInt
    seed: Annotated[StrictStr, Field(max_length=128, pattern=VISIBLE)]


class Act(Message):
    type: Literal["act"]
    id: Annotated[StrictStr, Field(max_length=64, pattern=VISIBLE)] | None = None
    action: dict[str, Any]


Inbound = Annotated[Auth | Sit | Stand | AddBot | Start | Close | Hint | Seed | Act,
                    Field(discriminator="type")]
INBOUND = TypeAdapter(Inbound)
TYPES = ("auth", "sit", "stand", "add_bot", "start", "close", "hint", "seed", "act")


def parse_message(text: str) -> Auth | Sit | Stand | AddBot | Start | Close | Hint | Seed | Act:
    """The message in ``text``; raises :class:`MessageError` naming what is wrong."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise MessageError(f"the message is not valid JSON ({error.msg} at position {error.pos})",
                           code="message/bad_json") from error
    if not isinstance(raw, dict):
        raise MessageError("a message must be a JSON object with a 'type'", code="message/invalid")
    if raw.get("type") not in TYPES:
        raise MessageError(f"unknown message type {raw.get('type')!r}; expected one of {list(TYPES)}",
                           code="message/unknown_type")
    try:
        return INBOUND.validate_python(raw)
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'message'}: {e['msg']}"
                             for e in error.errors())
        raise MessageError(f"bad {raw['type']!r} message: {problems}", code="message/invalid") from error


def ref_of(text: str) -> str | None:
    """The ``id`` of an act, if it can be read, so an error about a bad message can still name it."""
    try:
        raw = json.loads(text)
    except ValueError:
        return None
    ref = raw.get("id") if isinstance(raw, dict) else None
    return ref if isinstance(ref, str) and len(ref) <= 64 else None
