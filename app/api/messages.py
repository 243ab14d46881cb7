"""Messages a client sends over the WebSocket: a union discriminated on ``type``."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from app.api.errors import (
    CHAT_CONTROL_CHARACTER,
    CHAT_EMPTY,
    CHAT_TOO_LONG,
    CHAT_UNKNOWN_REACTION,
    ChatRefused,
)
from app.games.base import Rejection
from app.rooms.chat import MAX_TEXT, REACTIONS

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


class Rematch(Message):
    """After a match: this player plays again (``accept``) or leaves the next match to a bot."""

    type: Literal["rematch"]
    accept: StrictBool = True


class Chat(Message):
    """A line of table chat; :func:`chat_text` says what its text may hold."""

    type: Literal["chat"]
    text: StrictStr


class React(Message):
    """One of the fixed reactions (:data:`app.rooms.chat.REACTIONS`), part of the chat."""

    type: Literal["react"]
    reaction: StrictStr


Inbound = Annotated[Auth | Sit | Stand | AddBot | Start | Close | Hint | Seed | Act | Draft | NextDeal
                    | Rematch | Chat | React, Field(discriminator="type")]
INBOUND = TypeAdapter(Inbound)
TYPES = ("auth", "sit", "stand", "add_bot", "start", "close", "hint", "seed", "act", "draft", "next_deal",
         "rematch", "chat", "react")
# Characters that could reorder or hide the text around a line on other players' screens.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
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


def chat_text(text: str) -> str:
    """The text of a chat line, trimmed: 1 to :data:`MAX_TEXT` characters, no control characters
    (line breaks and tabs included) and no direction overrides. Markup is not refused: it is text,
    shown as written. Raises :class:`ChatRefused` naming the problem; nothing is cut short."""
    trimmed = text.strip()
    if not trimmed:
        raise ChatRefused("a chat line needs some text", code=CHAT_EMPTY)
    if len(trimmed) > MAX_TEXT:
        raise ChatRefused(f"a chat line holds at most {MAX_TEXT} characters; this one has {len(trimmed)}",
                          code=CHAT_TOO_LONG)
    for position, char in enumerate(trimmed):
        if unicodedata.category(char) == "Cc" or char in BIDI_CONTROLS:
            raise ChatRefused(f"a chat line may not hold control characters (U+{ord(char):04X} at "
                              f"position {position})", code=CHAT_CONTROL_CHARACTER)
    return trimmed


def reaction_key(key: str) -> str:
    """``key`` if it names one of the fixed reactions; raises :class:`ChatRefused` otherwise."""
    if key not in REACTIONS:
        raise ChatRefused(f"unknown reaction {key[:40]!r}; choose one of {list(REACTIONS)}",
                          code=CHAT_UNKNOWN_REACTION)
    return key


def ref_of(raw: Any) -> str | None:
    """The ``id`` of an act, if it can be read, so an error about a bad message can still name it."""
    ref = raw.get("id") if isinstance(raw, dict) else None
    return ref if isinstance(ref, str) and len(ref) <= 64 else None
