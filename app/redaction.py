"""No secret reaches a log line: the values of credential query parameters (``?token=``) are replaced
in every record of the loggers that write request addresses (uvicorn's access log and its WebSocket
lines, httpx's request lines)."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from urllib.parse import unquote_plus

SECRET_PARAMETERS = frozenset({"token", "access_token", "password", "secret"})
REDACTED = "[redacted]"
URL_LOGGERS = ("uvicorn.access", "uvicorn.error", "httpx")

_QUERY_PAIR = re.compile(r"(^|[?&;])([^=&;#\s\"'?]*)=([^&;#\s\"']*)")


def _redact_pair(match: re.Match[str]) -> str:
    if unquote_plus(match[2]).strip().casefold() in SECRET_PARAMETERS:
        return f"{match[1]}{match[2]}={REDACTED}"
    return match[0]


def redact(text: str) -> str:
    """``text`` with the value of every credential query parameter replaced."""
    return _QUERY_PAIR.sub(_redact_pair, text) if "=" in text else text


def _redact_value(value: object) -> object:
    return redact(value) if isinstance(value, str) else value


class RedactSecrets(logging.Filter):
    """Redacts a record's message and its arguments (uvicorn's access formatter reads the arguments
    one by one, so they stay a tuple of the same length)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_value(value) for value in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {key: _redact_value(value) for key, value in record.args.items()}
        return True


def install_redaction() -> None:
    """Put the filter on every logger that writes addresses; doing it again adds nothing."""
    for name in URL_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, RedactSecrets) for existing in logger.filters):
            logger.addFilter(RedactSecrets())
