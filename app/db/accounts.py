"""Accounts a player keeps: a guest claims theirs with a password, then signs in from anywhere with a
new token; every token can be revoked at once. Passwords are kept as argon2id hashes only."""

from __future__ import annotations

import asyncio
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import models
from app.db.ids import now
from app.db.tokens import hash_token
from app.games.base import Rejection

HASHER = PasswordHasher()
# Checked when no account has the name, so that an unknown name costs as long as a wrong password.
_ABSENT = HASHER.hash(secrets.token_urlsafe(16))


class AccountError(Rejection):
    code = "account/refused"


def name_key(name: str) -> str:
    """The form of a name that claimed names are compared in: spaces collapsed, case-folded."""
    return " ".join(name.split()).casefold()


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(HASHER.hash, password)


async def password_matches(stored: str | None, password: str) -> bool:
    def verify() -> bool:
        try:
            return HASHER.verify(stored or _ABSENT, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False
    return await asyncio.to_thread(verify)


async def name_is_claimed(session: AsyncSession, name: str, besides: str | None = None) -> bool:
    query = select(models.Player.id).where(models.Player.name_key == name_key(name))
    if besides is not None:
        query = query.where(models.Player.id != besides)
    return (await session.scalar(query)) is not None


async def set_language(sessions: async_sessionmaker[AsyncSession], player_id: str, language: str) -> None:
    async with sessions.begin() as session:
        await session.execute(update(models.Player).where(models.Player.id == player_id)
                              .values(language=language))


async def claim(sessions: async_sessionmaker[AsyncSession], player_id: str, name: str,
                password_hash: str) -> None:
    """Make the guest ``player_id`` an account named ``name``; raises :class:`AccountError`."""
    try:
        async with sessions.begin() as session:
            player = await session.get(models.Player, player_id, with_for_update=True)
            if player is None:
                raise AccountError(f"there is no player {player_id!r}", code="player/not_found")
            if player.claimed_at is not None:
                raise AccountError(f"{player.name!r} is already a claimed account",
                                   code="account/already_claimed")
            if await name_is_claimed(session, name, besides=player_id):
                raise _taken(name)
            player.name, player.name_key = name, name_key(name)
            player.password_hash, player.claimed_at = password_hash, now()
    except IntegrityError as error:
        raise _taken(name) from error


def _taken(name: str) -> AccountError:
    return AccountError(f"the name {name!r} belongs to another account (names are compared "
                        "ignoring case); choose another with 'name'", code="account/name_taken")


async def claimed_player(session: AsyncSession, name: str) -> models.Player | None:
    found = await session.scalars(select(models.Player).where(models.Player.name_key == name_key(name)))
    return found.first()


async def issue_token(sessions: async_sessionmaker[AsyncSession], player_id: str) -> str:
    token = secrets.token_urlsafe(32)
    async with sessions.begin() as session:
        session.add(models.Token(player_id=player_id, token_hash=hash_token(token), created_at=now()))
    return token


async def revoke_tokens(sessions: async_sessionmaker[AsyncSession], player_id: str) -> list[str]:
    """Revoke every token of the player that is still valid; returns the hashes of those revoked."""
    async with sessions.begin() as session:
        revoked = await session.scalars(
            update(models.Token)
            .where(models.Token.player_id == player_id, models.Token.revoked_at.is_(None))
            .values(revoked_at=now())
            .returning(models.Token.token_hash))
        return list(revoked)
