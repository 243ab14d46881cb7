"""The views after each step of a finished match, computed by the engine from the stored log, so
that the replay page shows them and holds no rule."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from app.api.deps import StoreDep
from app.api.errors import ApiError, error_responses
from app.api.routes.matches import check_known
from app.api.schemas import ReplayDeal, ReplayStep
from app.db.history import match_detail
from app.games.base import Seating
from app.games.cards import parse_cards
from app.games.registry import ENGINES
from app.games.replay import face_up_view, replay_views

router = APIRouter(prefix="/api/matches", tags=["matches"])


async def finished_match(store: StoreDep, match_id: str) -> dict[str, Any]:
    """The match in full (``GET /api/matches/{id}``), refused unless it is over and not archived."""
    async with store.sessions() as session:
        detail = await match_detail(session, match_id)
    if detail is None:
        raise ApiError(404, "match/not_found", f"there is no match {match_id!r}")
    if detail["status"] != "finished":
        raise ApiError(409, "match/not_finished", f"match {match_id!r} is still being played; "
                                                  "its replay opens once it is over")
    if detail["archived"]:
        raise ApiError(409, "match/archived", f"match {match_id!r} was archived: its decks and log "
                                              "left the server")
    return detail


def deal_steps(detail: dict[str, Any], deal: int) -> range:
    """Where the steps of ``deal`` lie in the match's log (which holds them one after another)."""
    places = [index for index, entry in enumerate(detail["actions"]) if entry["deal"] == deal]
    if not places:
        raise ApiError(422, "request/invalid", f"match {detail['id']!r} has deals 1 to "
                                                f"{len(detail['deals'])}, not {deal}")
    return range(places[0], places[-1] + 1)


@router.get("/{match_id}/replay", response_model=ReplayDeal, responses=error_responses(404, 409))
async def read_replay(
        match_id: str, request: Request, store: StoreDep,
        deal: Annotated[int, Query(ge=1, description="the deal, from 1")] = 1,
        seat: Annotated[int | None, Query(ge=0, description="a seat's own view; none: all hands "
                                                            "face up")] = None,
) -> ReplayDeal:
    """The view after each step of one deal of a finished match, as the engine computes it by
    replaying the log: every hand face up, or what ``seat`` saw."""
    check_known(request, ("deal", "seat"))
    detail = await finished_match(store, match_id)
    players = len(detail["seats"])
    if seat is not None and seat >= players:
        raise ApiError(422, "request/invalid", f"match {match_id!r} has seats 0 to {players - 1}, "
                                                f"not {seat}")
    shown = deal_steps(detail, deal)
    engine = ENGINES[detail["game"]]
    stacks = tuple(detail["stacks"]) if detail["stacks"] else None
    seating = Seating(players=players, first_dealer=detail["first_dealer"], stacks=stacks)
    decks = {entry["number"]: parse_cards(entry["deck"]) for entry in detail["deals"]}
    log = [(entry["seat"], entry["action"]) for entry in detail["actions"]]

    def show(state: Any) -> dict[str, Any]:
        return face_up_view(engine, state, players) if seat is None else engine.view(state, seat)

    before, replayed = replay_views(engine, detail["options"], seating, decks, log, shown, show)
    steps = [ReplayStep(number=index + 1, seq=detail["actions"][index]["seq"], seat=step.seat,
                        action=step.action, events=list(step.events), view=step.view)
             for index, step in zip(shown, replayed, strict=True)]
    return ReplayDeal(match_id=match_id, game=detail["game"], deal=deal, deals=len(detail["deals"]),
                      seat=seat, before=before, steps=steps)
