"""Match history: the list of finished matches with its filters and cursor, and one match in full.

The list holds finished matches, newest first: ordered by ``(finished_at, id)`` descending, and a cursor
is the sort key of the last match of a page. A match that finishes while someone pages through the
list sorts before every cursor given out so far, so it appears on a fresh first page only, and the
later pages neither repeat nor skip anything. Every filter is an index range (see migration 0003).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, exists, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement, Executable

from app.db import models
from app.db.ratings import match_ratings
from app.games.base import Rejection

SECRET_ACTION_FIELDS = {"discard": "card"}
SECRET_DEAL_FIELDS = ("discard",)
CURSOR_TAG = "f1"
SortKey = tuple[datetime, str]
if TYPE_CHECKING:
    KeyQuery = Select[str, datetime | None]


class BadCursor(Rejection):
    code = "request/bad_cursor"


@dataclass(frozen=True)
class HistoryFilter:
    """What ``GET /api/matches`` narrows the list by. ``opponent`` and ``result`` (``won`` or
    ``lost``) are relative to ``player``; ``since`` <= finished_at < ``until``."""

    player: str | None = None
    game: str | None = None
    opponent: str | None = None
    result: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    rated: bool | None = None


def encode_cursor(key: SortKey, tag: str = CURSOR_TAG) -> str:
    """A sort key (a moment and an id) as an opaque cursor; ``tag`` says which list gave it out."""
    stamp, match_id = key
    raw = f"{tag}|{stamp.isoformat()}|{match_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, tag: str = CURSOR_TAG) -> SortKey:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        given_tag, stamp, match_id = raw.split("|", 2)
        if given_tag != tag or not match_id or len(match_id) > 32 or not match_id.isprintable():
            raise ValueError(raw)
        moment = datetime.fromisoformat(stamp)
        if moment.tzinfo is not None:
            raise ValueError(raw)
        return moment, match_id
    except (binascii.Error, UnicodeDecodeError, ValueError) as error:
        raise BadCursor(f"{cursor!r} is not a cursor this server gave out") from error


# Summaries are built from plain rows (these columns), not ORM objects: a long stream stays cheap.
MATCH_COLUMNS = (models.Match.id, models.Match.room_id, models.Match.game, models.Match.options,
                 models.Match.status, models.Match.started_at, models.Match.finished_at,
                 models.Match.result, models.Match.rated)
SEAT_COLUMNS = (models.MatchSeat.match_id, models.MatchSeat.seat, models.MatchSeat.player_id,
                models.MatchSeat.name, models.MatchSeat.bot, models.MatchSeat.played_by,
                models.MatchSeat.autopilot_decisions)
ACTION_COLUMNS = (models.Action.seq, models.Action.deal, models.Action.seat, models.Action.action,
                  models.Action.at)


def _seat_json(seat: Any) -> dict[str, Any]:
    """A seat; once the match is over, also who held it at the end (``played_by``), how many
    decisions the autopilot made for it, and whether its player ``abandoned`` the match."""
    return {"seat": seat.seat, "player_id": seat.player_id, "name": seat.name, "bot": seat.bot is not None,
            "bot_level": seat.bot,
            "played_by": seat.played_by, "autopilot_decisions": seat.autopilot_decisions,
            "abandoned": seat.played_by == "autopilot"}


def _stamp(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat() + "Z"


def _summary(match: Any, seats: list[Any]) -> dict[str, Any]:
    """``match`` and ``seats`` are ORM objects or rows of ``MATCH_COLUMNS`` and ``SEAT_COLUMNS``."""
    return {"id": match.id, "room_id": match.room_id, "game": match.game, "options": match.options,
            "status": match.status, "started_at": _stamp(match.started_at),
            "finished_at": _stamp(match.finished_at),
            "seats": [_seat_json(seat) for seat in seats], "result": match.result, "rated": match.rated}


async def _seats_of(session: AsyncSession, match_ids: list[str]) -> dict[str, list[Any]]:
    rows = await session.execute(
        select(*SEAT_COLUMNS).where(models.MatchSeat.match_id.in_(match_ids))
        .order_by(models.MatchSeat.match_id, models.MatchSeat.seat))
    seats: dict[str, list[Any]] = {match_id: [] for match_id in match_ids}
    for seat in rows:
        seats[seat.match_id].append(seat)
    return seats


def _by_player(wanted: HistoryFilter, player: str) -> KeyQuery:
    """Driven by the player's own seats: one range of an ``ix_match_seats_player_*`` index."""
    mine = models.MatchSeat
    query = select(mine.match_id, mine.finished_at).where(mine.player_id == player,
                                                           mine.finished_at.is_not(None))
    if wanted.game is not None:
        query = query.where(mine.game == wanted.game)
    if wanted.result is not None:
        query = query.where(mine.won == (wanted.result == "won"))
    if wanted.opponent is not None:
        other = models.MatchSeat.__table__.alias("other")
        query = query.where(exists().where(other.c.match_id == mine.match_id,
                                           other.c.player_id == wanted.opponent))
    if wanted.rated is not None:
        query = query.join(models.Match, models.Match.id == mine.match_id).where(
            models.Match.rated == wanted.rated)
    return query


def _all_finished(wanted: HistoryFilter) -> KeyQuery:
    match = models.Match
    query = select(match.id, match.finished_at).where(match.status == "finished")
    if wanted.game is not None:
        query = query.where(match.game == wanted.game)
    if wanted.rated is not None:
        query = query.where(match.rated == wanted.rated)
    return query


def _keys_query(wanted: HistoryFilter, limit: int,
                after: SortKey | None) -> KeyQuery:
    """The sort keys of the next ``limit`` matches after ``after``, newest first."""
    if wanted.player is not None:
        query = _by_player(wanted, wanted.player)
        stamp, match_id = models.MatchSeat.finished_at, models.MatchSeat.match_id
    else:
        query = _all_finished(wanted)
        stamp, match_id = models.Match.finished_at, models.Match.id
    if wanted.since is not None:
        query = query.where(stamp >= wanted.since)
    if wanted.until is not None:
        query = query.where(stamp < wanted.until)
    if after is not None:
        query = query.where(tuple_(stamp, match_id) < tuple_(*after))
    return query.order_by(stamp.desc(), match_id.desc()).limit(limit)


async def _page(session: AsyncSession, wanted: HistoryFilter, limit: int,
                after: SortKey | None) -> tuple[list[dict[str, Any]], SortKey | None]:
    """Up to ``limit`` summaries after ``after``, and the key to go on from (None at the end)."""
    keys = [(match_id, stamp) for match_id, stamp in
            await session.execute(_keys_query(wanted, limit + 1, after))]
    page, more = keys[:limit], len(keys) > limit
    ids = [match_id for match_id, _ in page]
    found = {match.id: match for match in await session.execute(
        select(*MATCH_COLUMNS).where(models.Match.id.in_(ids)))}
    seats = await _seats_of(session, ids)
    last = page[-1] if more and page else None
    following = None if last is None or last[1] is None else (last[1], last[0])
    return [_summary(found[match_id], seats[match_id]) for match_id in ids], following


async def list_matches(session: AsyncSession, wanted: HistoryFilter, *, limit: int,
                       before: str | None) -> tuple[list[dict[str, Any]], str | None]:
    """Newest first; ``before`` is the cursor of the last match of the previous page."""
    after = decode_cursor(before) if before is not None else None
    summaries, following = await _page(session, wanted, limit, after)
    return summaries, None if following is None else encode_cursor(following)


async def stream_matches(sessions: async_sessionmaker[AsyncSession], wanted: HistoryFilter,
                         batch: int, before: str | None = None) -> AsyncIterator[list[dict[str, Any]]]:
    """Every match the filter selects, newest first, in batches of ``batch``, each read in a short
    transaction of its own."""
    after = decode_cursor(before) if before is not None else None
    while True:
        async with sessions() as session:
            summaries, after = await _page(session, wanted, batch, after)
        if summaries:
            yield summaries
        if after is None:
            return


def _public_action(action: Any, finished: bool) -> dict[str, Any]:
    """``action`` is a row of ``ACTION_COLUMNS`` (a long match's log is read as plain rows)."""
    body = dict(action.action)
    secret = SECRET_ACTION_FIELDS.get(str(body.get("kind")))
    if secret is not None and not finished:
        body.pop(secret, None)
    return {"seq": action.seq, "deal": action.deal, "seat": action.seat, "action": body,
            "at": _stamp(action.at)}


def _public_deal_detail(detail: dict[str, Any] | None, finished: bool) -> dict[str, Any] | None:
    if detail is None or finished:
        return detail
    return {key: value for key, value in detail.items() if key not in SECRET_DEAL_FIELDS}


def _fairness(deal: models.Deal, revealed: bool) -> dict[str, Any] | None:
    """The deal's commitment and client seeds; its server seed once the deal is over
    (``docs/fairness.md``). None for a deal dealt from a fixed test deck."""
    if deal.commitment is None:
        return None
    return {"commitment": deal.commitment, "client_seeds": deal.client_seeds,
            "server_seed": deal.server_seed if revealed else None}


def is_archived(match: models.Match, decks: list[list[Any]]) -> bool:
    """Whether ``match``, whose deals hold ``decks``, was archived (``app.db.archive``): its decks
    were emptied, and a dealt deck never is empty."""
    return match.status == "finished" and bool(decks) and not any(decks)


async def match_detail(session: AsyncSession, match_id: str) -> dict[str, Any] | None:
    """One match in full. While it runs, decks and actions of the deal in play stay hidden, and no
    face-down discard is named. Of an archived match (``app.db.archive``) the decks and the log are
    gone: ``archived`` is true, every ``deck`` null and ``actions`` empty."""
    match = await session.get(models.Match, match_id)
    if match is None:
        return None
    finished = match.status == "finished"
    seats = (await _seats_of(session, [match.id]))[match.id]
    deals = list(await session.scalars(
        select(models.Deal).where(models.Deal.match_id == match_id).order_by(models.Deal.number)))
    open_deals = {deal.number for deal in deals if deal.points is None and not finished}
    gone = is_archived(match, [deal.deck for deal in deals])
    actions = await session.execute(
        select(*ACTION_COLUMNS).where(models.Action.match_id == match_id).order_by(models.Action.seq))
    detail = _summary(match, seats)
    detail["first_dealer"] = match.first_dealer
    detail["stacks"] = match.stacks
    detail["deals"] = [
        {"number": deal.number, "deck": None if gone or deal.number in open_deals else deal.deck,
         "points": deal.points, "detail": _public_deal_detail(deal.detail, finished),
         "fairness": _fairness(deal, revealed=deal.number not in open_deals)}
        for deal in deals]
    detail["ratings"] = await match_ratings(session, match.id) if match.rated else []
    detail["archived"] = gone
    detail["actions"] = [_public_action(action, finished) for action in actions
                         if action.deal not in open_deals]
    detail["chat"] = await match_chat(session, match.id)
    return detail


async def match_chat(session: AsyncSession, match_id: str) -> list[dict[str, Any]]:
    """The match's chat lines and reactions in the order they were said, each with ``after_seq``:
    the steps of the log played when it was said (0 before the first). Lines said in the room
    before the match started are not the match's."""
    lines = await session.scalars(select(models.ChatLine).where(models.ChatLine.match_id == match_id)
                                  .order_by(models.ChatLine.id))
    return [{"from": {"player_id": line.player_id, "name": line.name, "seat": line.seat},
             **({"text": line.text} if line.reaction is None else {"reaction": line.reaction}),
             "at": _stamp(line.at), "after_seq": line.after_seq} for line in lines]


class _Explain(Executable, ClauseElement):
    """``EXPLAIN`` (PostgreSQL) or ``EXPLAIN QUERY PLAN`` (SQLite) of a statement."""

    inherit_cache = False

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement


@compiles(_Explain)
def _compile_explain(element: _Explain, compiler: SQLCompiler, **kw: Any) -> str:
    prefix = "EXPLAIN QUERY PLAN" if compiler.dialect.name == "sqlite" else "EXPLAIN"
    return f"{prefix} {compiler.process(element.statement, **kw)}"


async def explain_list(session: AsyncSession, wanted: HistoryFilter, limit: int = 20,
                       before: str | None = None) -> str:
    """The database's plan for the list query of ``wanted`` (to check which index it reads)."""
    after = decode_cursor(before) if before is not None else None
    rows = await session.execute(_Explain(_keys_query(wanted, limit + 1, after)))
    return "\n".join(str(row[-1]) for row in rows)
