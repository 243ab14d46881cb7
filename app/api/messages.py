"""Messages a client sends over the WebSocket: a union discriminated on ``type``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
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
    buy_in: StrictInt | None = None


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


class Draft(Message):
    """A Hazari arrangement in the making, kept for the seat (a timeout completes it)."""

    type: Literal["draft"]
    groups: Any


class NextDeal(Message):
    """This player has seen the deal's result and is ready for the next deal."""

    type: Literal["next_deal"]


Inbound = Annotated[Auth | Sit | Stand | AddBot | Start | Close | Hint | Seed | Act | Draft | NextDeal,
                    Field(discriminator="type")]
INBOUND = TypeAdapter(Inbound)
TYPES = ("auth", "sit", "stand", "add_bot", "start", "close", "hint", "seed", "act", "draft", "next_deal")
MAX_DEPTH = 16
"""The deepest nesting of arrays and objects a message may have (an Hazari ``act`` with its ``up`` needs
four levels); much deeper values reach Python's recursion limit wherever they are printed or compared."""


def decode_json(data: bytes) -> Any:
    """The JSON value of a client's frame. Anything else raises :class:`MessageError`
    (``message/bad_json``): bad syntax, invalid UTF-8 (a lone surrogate too), arrays and objects
    nested deeper than :data:`MAX_DEPTH`, a number too large for a double, NaN or Infinity. Whole
    numbers beyond 64 bits read as floats, which no field that takes a whole number accepts."""
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise MessageError(f"the message is not valid JSON ({error.msg} at position {error.pos})",
                           code="message/bad_json") from error
    if _depth(raw) > MAX_DEPTH:
        raise MessageError(f"the message nests arrays and objects deeper than {MAX_DEPTH} levels",
                           code="message/bad_json")
    return raw


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in a JSON value, counted without recursion."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            inside = item.values() if isinstance(item, dict) else item
            pending.extend((inner, depth + 1) for inner in inside)
    return deepest


def parse_message(raw: Any) -> Inbound:
    """The message in the JSON value ``raw``; raises :class:`MessageError` naming what is wrong."""
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


def ref_of(raw: Any) -> str | None:
    """The ``id`` of an act, if it can be read, so an error about a bad message can still name it."""
    ref = raw.get("id") if isinstance(raw, dict) else None
    return ref if isinstance(ref, str) and len(ref) <= 64 else None
