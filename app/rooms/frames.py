"""What a room sends: a message as the text of one WebSocket frame."""

from __future__ import annotations

from typing import Any

import orjson


def encode_json(value: Any) -> str:
    """Any JSON value as text (keys that are not strings, such as seat numbers, become strings)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def encode_frame(message: dict[str, Any]) -> str:
    """A message as the JSON text of one WebSocket frame."""
    return encode_json(message)
