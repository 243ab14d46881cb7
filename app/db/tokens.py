"""Sign-in tokens as the database keeps them: only their hash."""

from __future__ import annotations

import hashlib


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
