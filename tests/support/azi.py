"""Azi through the protocol: stacked decks in the AZ-6 dealing order, a table of WebSocket players
driven through the ASGI app, and the chip ledger read straight from the database."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from contextlib import ExitStack
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.testclient import TestClient

from app.config import Settings
from app.db import models
from app.db.ledger import player_account, pot_account
from app.games.cards import azi_deck
from support import Client, Message, cards, deck_for_hands, make_settings

AZI_PACK = [str(card) for card in azi_deck()]
STARTING_CHIPS = 1000
_REFS = itertools.count(1)


def unthrottled_settings(database_url: str, **overrides: object) -> Settings:
    """The test settings (``make_settings``) with any per-connection message rate limit the server
    has lifted: these clients play far faster than people do."""
    limits = {name: 1_000_000.0 for name in ("ws_messages_per_second", "ws_message_burst")
              if name in Settings.model_fields}
    return make_settings(database_url, **limits, **overrides)


def azi_deck_for(hands: Mapping[int, str], button: int, seats: int) -> list[str]:
    """The deck (top first) that deals ``hands`` (seat -> cards in the order received) to the
    participants ``hands`` names: AZ-6, one card at a time clockwise (increasing seat) from the
    first participant after the button, so the last card of the last participant in that order
    is the exposed trump card. The rest of the pack follows in pack order."""
    ring = [(button + step) % seats for step in range(1, seats + 1)]
    order = [seat for seat in ring if seat in hands]
    per_seat = [cards(hands[seat]) if seat in hands else [] for seat in range(seats)]
    dealt = deck_for_hands(per_seat, button, lambda _dealer, i: order[i % len(order)])
    return dealt + [card for card in AZI_PACK if card not in dealt]


def settled(message: Message) -> bool:
    """A state in which the server waits for a player (or the session is over): no automatic
    step is due, so the database holds exactly what this state shows."""
    view = message["view"]
    return bool(view["to_act"]) or view["phase"] == "match_over"


def play(*moves: str) -> list[tuple[int, Message]]:
    """``"1:AS"`` -> seat 1 plays AS."""
    return [(int(seat), {"kind": "play", "card": card})
            for seat, card in (move.split(":") for move in moves)]


BET10: Message = {"kind": "bet", "amount": 10}
CALL: Message = {"kind": "call"}
FOLD: Message = {"kind": "fold"}
LEAVE: Message = {"kind": "leave"}
CLOSE: Message = {"type": "close"}


def bet(amount: int) -> Message:
    return {"kind": "bet", "amount": amount}


def raise_to(amount: int) -> Message:
    return {"kind": "raise", "to": amount}


class AziTable:
    """``count`` guests seated in seats 0..count-1 of one Azi room, player 0 the owner."""

    def __init__(self, http: TestClient, stack: ExitStack, count: int, options: Message,
                 prefix: str = "P") -> None:
        self.http = http
        self.players = [Client(http, f"{prefix}{seat}") for seat in range(count)]
        self.room_id = self.players[0].create_room("azi", options)
        self.version = 0
        for seat, player in enumerate(self.players):
            stack.enter_context(player.connected(self.room_id))
            player.send({"type": "sit", "seat": seat})
            player.state_where(lambda m, s=seat, p=player: m["room"]["seats"][s]["player_id"] == p.id)

    @property
    def owner(self) -> Client:
        return self.players[0]

    def start(self, until: Callable[[Message], bool] = settled) -> Message:
        self.owner.send({"type": "start"})
        return self.wait(0, lambda m: m["view"]["phase"] != "waiting" and until(m))

    def wait(self, seat: int, until: Callable[[Message], bool] = settled) -> Message:
        """The first state after the last one waited for, as ``seat`` sees it, where ``until``
        holds."""
        after = self.version
        state = self.players[seat].state_where(lambda m: m["version"] > after and until(m))
        self.version = state["version"]
        return state

    def state(self, seat: int) -> Message:
        """``seat``'s view of the room at the last version waited for (or later)."""
        now = self.version
        return self.players[seat].state_where(lambda m: m["version"] >= now)

    def act(self, seat: int, action: Message, until: Callable[[Message], bool] = settled,
            ref: str | None = None) -> Message:
        """``seat`` acts; returns the first state after it where ``until`` holds."""
        self.players[seat].act(action, ref)
        return self.wait(seat, until)

    def run(self, moves: Iterable[tuple[int, Message]]) -> Message:
        state: Message = {}
        for seat, action in moves:
            state = self.act(seat, action)
        return state

    def chips(self) -> list[int]:
        """Every player's chips as ``GET /api/players/{id}`` gives them (the ledger balance)."""
        return [self.http.get(f"/api/players/{player.id}").json()["chips"] for player in self.players]

    def match(self) -> Message:
        match_id = self.state(0)["room"]["match_id"]
        body: Message = self.http.get(f"/api/matches/{match_id}").json()
        return body


def refused(table: AziTable, seat: int, message: Message, code: str) -> Message:
    """``seat`` sends ``message`` (an action, or a whole message when it has a ``type``), gets the
    error ``code`` and nothing changes: the same version, view and legal moves, the same chips."""
    player = table.players[seat]
    before = table.state(seat)
    chips = table.chips()
    ref = f"bad-{next(_REFS)}"
    player.send(message if "type" in message else {"type": "act", "id": ref, "action": message})
    error = player.error()
    assert error["code"] == code, (message, error)
    assert error["message"] and error["ref"] == (None if "type" in message else ref)
    player.send({"type": "sit", "seat": seat})  # answered by the room's state, unchanged
    after = player.until(lambda m: m["type"] == "state")
    assert after["version"] == before["version"], (message, error)
    assert after["view"] == before["view"] and after["legal"] == before["legal"]
    assert table.chips() == chips
    return error


def ledger_balances(http: TestClient, accounts: Iterable[str]) -> dict[str, int]:
    """The balance of each account, summed from the ``chip_transfers`` rows by the app's own
    database connection (one read transaction for all of them)."""
    names = list(accounts)
    sessions: async_sessionmaker[AsyncSession] = http.app.state.store.sessions  # type: ignore[attr-defined]
    portal = http.portal
    assert portal is not None
    return portal.call(read_balances, sessions, names)


async def read_balances(sessions: async_sessionmaker[AsyncSession], accounts: list[str]) -> dict[str, int]:
    transfers = models.ChipTransfer
    async with sessions() as session, session.begin():
        incoming = await session.execute(
            select(transfers.target, func.sum(transfers.amount))
            .where(transfers.target.in_(accounts)).group_by(transfers.target))
        outgoing = await session.execute(
            select(transfers.source, func.sum(transfers.amount))
            .where(transfers.source.in_(accounts)).group_by(transfers.source))
        balances = dict.fromkeys(accounts, 0)
        for account, amount in incoming:
            balances[account] += int(amount)
        for account, amount in outgoing:
            balances[account] -= int(amount)
        return balances


def match_transfers(http: TestClient, match_id: str) -> list[Message]:
    """Every row of the chip ledger that names ``match_id``, in the order written."""
    sessions: async_sessionmaker[AsyncSession] = http.app.state.store.sessions  # type: ignore[attr-defined]
    portal = http.portal
    assert portal is not None
    return portal.call(read_transfers, sessions, match_id)


async def read_transfers(sessions: async_sessionmaker[AsyncSession], match_id: str) -> list[Message]:
    transfers = models.ChipTransfer
    async with sessions() as session:
        rows = await session.scalars(
            select(transfers).where(transfers.match_id == match_id).order_by(transfers.id))
        return [{"source": row.source, "target": row.target, "amount": row.amount, "kind": row.kind,
                 "deal": row.deal, "action_seq": row.action_seq} for row in rows]


def table_accounts(player_ids: Iterable[str], match_id: str) -> list[str]:
    return [*(player_account(player_id) for player_id in player_ids), pot_account(match_id)]


def options_with(decks: list[list[str]], first_dealer: int, **options: Any) -> Message:
    return {"decks": decks, "first_dealer": first_dealer, **options}
