"""What a room sends to its connections: each connection the state as its own seat sees it, and
notices in words.

Every state frame carries the room's version. A change of the room (a seat taken or left, the start,
a stored step, an answer to a rematch, closing) counts one more version (:meth:`FanOut.changed`);
news that changes nobody's seat or the match (a connection come or gone, the autopilot taking a seat
or giving it back, a client seed, a player ready for the next deal) is sent again at the version the
room has (:meth:`FanOut.resend`): the protocol counts only stored changes, so that a room rebuilt
after a restart from what was stored carries on with the same versions, and a hint asked for at a
version still matches it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from app.games.base import JSON
from app.games.driver import DealNeeded
from app.rooms.frames import encode_frame, encode_json
from app.rooms.notices import timeout_text, timeout_text_for_others
from app.rooms.occupant import Occupant
from app.rooms.rematch import RematchOffer

if TYPE_CHECKING:
    from app.rooms.connection import Connection
    from app.rooms.room import Room

log = logging.getLogger("app.rooms.room")  # a room's lines, from any of its parts (docs/operations.md)

WAITING_VIEW: JSON = {"phase": "waiting", "to_act": [], "hand": [], "scores": []}


@dataclass
class SharedState:
    """What the ``state`` message of every connection has in common; ``head``, the start of every
    such frame, is encoded once."""

    version: int
    room: JSON
    fairness: JSON | None
    deadlines: dict[int, float]
    next_deal: JSON | None

    @cached_property
    def head(self) -> str:
        """``{"type":"state","version":..,"room":..,"fairness":..`` without its closing brace."""
        return encode_frame({"type": "state", "version": self.version, "room": self.room,
                             "fairness": self.fairness})[:-1]


class FanOut:
    def __init__(self, room: Room) -> None:
        self.room = room

    def changed(self) -> None:
        """The room has changed: one more version, sent to everyone."""
        self.room.version += 1
        self._send_all()

    def resend(self) -> None:
        """Send everyone the state again at the same version (see the module's docstring)."""
        self._send_all()

    def _send_all(self) -> None:
        """Send every connection the state as its seat sees it. A connection whose state cannot be
        made into a frame is dropped and closed; the others still get theirs."""
        room = self.room
        room.turns.pause_changed()
        shared = self.shared_state()
        room.when_changed(shared.room)
        messages: dict[int | None, str | None] = {}
        for conn in list(room.connections):
            seat = room.seat_of(conn.player_id)
            if seat not in messages:
                messages[seat] = self._state_frame(seat, shared)
            message = messages[seat]
            if message is None:
                room.presence.forget(conn)
                conn.close("server/error", "the server could not send this table's state; reconnect")
            else:
                conn.push(message)

    def send_to_seat(self, seat: int) -> None:
        """The state at the same version, to the connections of ``seat`` alone (its draft changed)."""
        frame = self._state_frame(seat, self.shared_state())
        for conn in list(self.room.connections):
            if frame is not None and self.room.seat_of(conn.player_id) == seat:
                conn.push(frame)

    def public_json(self) -> JSON:
        room = self.room
        seats = [{"seat": seat, "player_id": None, "name": None, "bot": False, "connected": False}
                 if occupant is None else self._seat_json(seat, occupant)
                 for seat, occupant in enumerate(room.seats)]
        options = {**room.options, **room.room_options}
        return {"id": room.id, "game": room.engine.name, "options": options,
                "private": room.private, "owner": room.owner_id, "status": room.status,
                "match_id": room.match_id, "seats": seats, "rematch": self._rematch_json()}

    def _seat_json(self, seat: int, occupant: Occupant) -> JSON:
        present = occupant.bot is not None or self.room.presence.is_connected(occupant)
        return {"seat": seat, "player_id": occupant.player_id, "name": occupant.name,
                "bot": occupant.bot is not None, "bot_level": occupant.bot,
                "autopilot": occupant.autopilot, "buy_in": occupant.buy_in, "connected": present,
                "grace_until": None if present else self.room.presence.grace_until.get(seat)}

    def _rematch_json(self) -> JSON | None:
        """Once a match is over (not stopped by an operator): the answers to playing again so far."""
        if not self.room.match_over():
            return None
        return (self.room.rematch_offer or RematchOffer(deadline=None)).to_json()

    def shared_state(self) -> SharedState:
        room = self.room
        pause = room.deal_pause
        return SharedState(room.version, self.public_json(), self._fairness(), room.turn_clock.deadlines(),
                           None if pause is None else pause.to_json(room.presence.people_present()))

    def _fairness(self) -> JSON | None:
        room = self.room
        if room.state is None:
            return None
        return room.dealer.to_json(room.deals + 1 if isinstance(room.due(), DealNeeded) else room.deals)

    def state_message(self, seat: int | None, shared: SharedState) -> str:
        room = self.room
        if room.state is None:
            view, legal = WAITING_VIEW, []
        else:
            deadlines = shared.deadlines
            view = self.seat_view(seat)
            legal = [] if seat is None else room.engine.legal_actions(room.state, seat)
            view["deadlines"] = deadlines
            view["deadline"] = deadlines.get(seat) if seat is not None else None
            view["next_deal"] = shared.next_deal
        return f'{shared.head},"view":{encode_json(view)},"legal":{encode_json(legal)}}}'

    def seat_view(self, seat: int | None) -> JSON:
        """The game's view of ``seat``, with the seat's own draft (never shown to anyone else)."""
        room = self.room
        view = room.engine.view(room.state, seat)
        if seat in room.drafts:
            view["draft"] = room.drafts[seat]
        return view

    def _state_frame(self, seat: int | None, shared: SharedState) -> str | None:
        try:
            return self.state_message(seat, shared)
        except Exception:
            log.exception("room %s: the state of seat %s cannot be sent", self.room.id, seat)
            return None

    def to_all(self, frame: str) -> None:
        for conn in list(self.room.connections):
            conn.push(frame)

    def to_others(self, player_id: str | None, frame: str) -> None:
        for conn in list(self.room.connections):
            if conn.player_id != player_id:
                conn.push(frame)

    def tell_others(self, code: str, seat: int, occupant: Occupant | None = None) -> None:
        """Tell everyone but the person in ``seat`` (by default its occupant) that he came
        (``room/joined``), came back (``room/back``) or left (``room/left``); the client says it in
        words. Never about a bot."""
        occupant = occupant or self.room.seats[seat]
        if occupant is None or occupant.player_id is None:
            return
        self.to_others(occupant.player_id, encode_frame({
            "type": "notice", "code": code, "seat": seat, "name": occupant.name,
            "player_id": occupant.player_id}))

    def tell_timeout(self, seat: int, action: JSON, drafted: bool) -> None:
        """Say in words what the autopilot did for a seat whose time ran out: to that seat, and
        without its hidden cards to everyone else."""
        occupant = self.room.seats[seat]
        if occupant is None:
            return
        held = occupant.autopilot
        said = {"type": "notice", "code": "timer/expired", "seat": seat, "name": occupant.name,
                "autopilot": held}
        own = encode_frame({**said, "action": action, "drafted": drafted,
                            "text": timeout_text(action, drafted, held)})
        others = encode_frame({**said, "text": timeout_text_for_others(occupant.name, held)})
        for conn in list(self.room.connections):
            conn.push(own if conn.player_id == occupant.player_id else others)

    def send_one(self, conn: Connection, message: JSON) -> None:
        conn.push(encode_frame(message))
