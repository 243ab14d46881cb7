"""What every new row is stamped with: an id, and the time (UTC, without a zone, as stored)."""

from __future__ import annotations

import secrets
import string
from datetime import UTC, datetime

_ID_FIRST = string.ascii_letters + string.digits


def new_id() -> str:
    """Twelve URL-safe characters, never starting with "-": a command line would read that as an option."""
    return secrets.choice(_ID_FIRST) + secrets.token_urlsafe(9)[1:]


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)
