"""What an operator's action or a sign-out everywhere does wherever it must, whichever node the request
reached: on a lone server, here; in a cluster, here and on every other node (revoked tokens, a
suspended player's sockets, the notice, the pause), or on the node that holds the room (closing it,
removing a player), through the cluster's bus (:mod:`app.cluster.bus`).

The audit row of an action is written once, by the node that does the action, in its transaction."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from app.api.sockets import CLOSE_REMOVED, CLOSE_SUSPENDED, OpenSockets
from app.api.ws import REMOVED, SUSPENDED, end_player_sockets, notice_frame
from app.cluster.bus import ClusterBus, NoAnswer, NotHere
from app.cluster.node import ClusterNode, ClusterUnavailable, Remote
from app.db.ids import now
from app.db.operators import Audit
from app.games.base import JSON
from app.rooms.errors import RoomError
from app.rooms.frames import encode_frame
from app.rooms.manager import RoomManager
from app.rooms.room import Room
from app.rooms.status import RoomStatus

log = logging.getLogger(__name__)

ANSWER_SECONDS = 5.0
"""How long an operator's request waits for the node that holds the room."""
ROUTE_RETRY_SECONDS = 0.2
SEAT_KEYS = ("seat", "player_id", "name", "bot", "connected")


def live_entry(public: JSON, phase: str, spectators: int, created: datetime | None,
               node: str | None) -> dict[str, Any]:
    """A live room as the operators' list shows it."""
    return {"id": public["id"], "game": public["game"], "status": public["status"], "phase": phase,
            "private": public["private"], "owner": public["owner"], "match_id": public["match_id"],
            "seats": [{key: seat.get(key) for key in SEAT_KEYS} for seat in public["seats"]],
            "spectators": spectators,
            "created_at": None if created is None else created.isoformat() + "Z",
            "age_seconds": None if created is None else int((now() - created).total_seconds()),
            "node": node}


def live_room(rooms: RoomManager, room: Room) -> dict[str, Any]:
    """A room this node holds, as the operators' list shows it."""
    return live_entry(room.public_json(), room.phase, room.spectators, rooms.created_at.get(room.id),
                      rooms.node_id)


def listed_room(entry: JSON, node: str | None) -> dict[str, Any]:
    """A room of the cluster's listing, as the operators' list shows it (``node``: its owner)."""
    return live_entry(entry["room"], entry.get("phase", "waiting"), entry.get("spectators", 0),
                      datetime.fromisoformat(entry["created_at"]), node)


class NodeActions:
    """What this node does itself: for a request it took, or for another node, told by the bus."""

    def __init__(self, rooms: RoomManager, sockets: OpenSockets) -> None:
        self.rooms = rooms
        self.sockets = sockets

    @property
    def notice(self) -> dict[str, Any] | None:
        return self.rooms.notice

    @property
    def paused(self) -> bool:
        return self.rooms.paused

    def held(self, room_id: str) -> Room | None:
        return self.rooms.rooms.get(room_id)

    def revoke(self, token_hashes: list[str]) -> None:
        self.sockets.revoke(token_hashes)

    def end_player(self, player_id: str) -> None:
        end_player_sockets(self.rooms, player_id, CLOSE_SUSPENDED, "auth/suspended", SUSPENDED)

    def show_notice(self, notice: dict[str, Any] | None) -> None:
        self.rooms.notice = notice
        frame = notice_frame(notice)
        for room in list(self.rooms.rooms.values()):
            for conn in list(room.connections):
                conn.push(frame)

    def pause(self, paused: bool) -> None:
        self.rooms.paused = paused

    async def close_room(self, room: Room, admin_id: str, reason: str) -> dict[str, Any]:
        await room.close_by_operator(Audit(admin_id, "close_room", reason, room_id=room.id,
                                           detail={"game": room.engine.name, "match_id": room.match_id,
                                                   "status": room.status}).row())
        frame = encode_frame({"type": "notice", "code": "operator/closed",
                              "text": "An operator has closed this table."})
        for conn in list(room.connections):
            conn.push(frame)
        return await self._listed(room)

    async def remove_player(self, room: Room, player_id: str, admin_id: str,
                            reason: str) -> dict[str, Any]:
        await room.remove_player(player_id, Audit(admin_id, "remove_player", reason, player_id=player_id,
                                                   room_id=room.id).row())
        end_player_sockets(self.rooms, player_id, CLOSE_REMOVED, "room/removed", REMOVED, only=room)
        return await self._listed(room)

    async def _listed(self, room: Room) -> dict[str, Any]:
        """The room as the operators' list shows it, the cluster's listing brought up to date."""
        if self.rooms.cluster is not None:
            await self.rooms.cluster.publish_now(room)
        return live_room(self.rooms, room)


class Everywhere:
    """An action that reaches every node, or the room's owner: here alone without a cluster."""

    def __init__(self, here: NodeActions, cluster: ClusterNode | None) -> None:
        self.here = here
        self.cluster = cluster

    @property
    def bus(self) -> ClusterBus | None:
        return None if self.cluster is None else self.cluster.bus

    async def check(self) -> None:
        """In a cluster, raise :class:`ClusterUnavailable` unless the other nodes can be told (before
        anything changes)."""
        if self.bus is not None:
            await self.bus.check()

    # --- every node ----------------------------------------------------------------------------------

    async def revoke(self, token_hashes: list[str]) -> None:
        self.here.revoke(token_hashes)
        await self._tell(lambda bus: bus.revoke(token_hashes), "revoked tokens")

    async def end_player(self, player_id: str) -> None:
        self.here.end_player(player_id)
        await self._tell(lambda bus: bus.suspend(player_id), "a suspension")

    async def show_notice(self, notice: dict[str, Any] | None) -> None:
        self.here.show_notice(notice)
        await self._tell(lambda bus: bus.set_notice(notice), "the notice")

    async def pause(self, paused: bool) -> None:
        self.here.pause(paused)
        await self._tell(lambda bus: bus.set_paused(paused), "the pause of new rooms")

    async def _tell(self, telling: Callable[[ClusterBus], Awaitable[None]], what: str) -> None:
        """Tell the other nodes, if any. The action is done here whatever happens: a Redis lost
        since :meth:`check` is only logged."""
        if self.bus is None:
            return
        try:
            await telling(self.bus)
        except ClusterUnavailable:
            log.warning("the other nodes of the cluster could not be told of %s: Redis does not answer", what)

    # --- the node that holds the room ------------------------------------------------------------------

    async def live_rooms(self) -> list[dict[str, Any]]:
        """Every unfinished room, oldest first: this node's as it holds them, in a cluster the others'
        as their owners list them (``node`` null: no node holds it right now)."""
        rooms = self.here.rooms
        live = [live_room(rooms, room) for room in rooms.rooms.values() if room.status != RoomStatus.FINISHED]
        if self.cluster is not None:
            held = {entry["id"] for entry in live}
            listed = [entry for entry in await self.cluster.listing()
                      if entry["room"]["id"] not in held and entry["room"]["status"] != RoomStatus.FINISHED]
            owners = await self.cluster.owners([entry["room"]["id"] for entry in listed])
            live += [listed_room(entry, owner) for entry, owner in zip(listed, owners, strict=True)]
        return sorted(live, key=lambda entry: entry["created_at"] or "")

    async def close_room(self, room_id: str, admin_id: str, reason: str) -> dict[str, Any]:
        return await self._at_owner(room_id, lambda room: self.here.close_room(room, admin_id, reason),
                                    "close_room", admin_id=admin_id, reason=reason)

    async def remove_player(self, room_id: str, player_id: str, admin_id: str,
                            reason: str) -> dict[str, Any]:
        return await self._at_owner(
            room_id, lambda room: self.here.remove_player(room, player_id, admin_id, reason),
            "remove_player", player_id=player_id, admin_id=admin_id, reason=reason)

    async def _at_owner(self, room_id: str, act: Callable[[Room], Awaitable[dict[str, Any]]], kind: str,
                        **fields: Any) -> dict[str, Any]:
        """``act`` on the room here if this node holds it (or takes it now, nobody holding it), else
        ask its owner to do ``kind``; look for the owner again while it moves."""
        if self.cluster is None:
            return await act(self.here.rooms.get(room_id))
        deadline = time.monotonic() + ANSWER_SECONDS
        while (left := deadline - time.monotonic()) > 0:
            target = await self.cluster.route(room_id)
            if target is None:
                raise RoomError(f"there is no room {room_id!r}", code="room/not_found")
            if isinstance(target, Room):
                return await act(target)
            if isinstance(target, Remote):
                try:
                    answer: dict[str, Any] = await self.cluster.bus.ask(target.node_id, kind, left,
                                                                        room_id=room_id, **fields)
                    return answer
                except NotHere:
                    pass
            await asyncio.sleep(ROUTE_RETRY_SECONDS)
        raise NoAnswer("no server of the cluster took this table in time; look at the live rooms before "
                       "trying again")

