"""An Azi pot survives the server: the real server is killed with SIGKILL in the middle of a game,
once with antes and bets in the pot during the play, once with an Azi's dead money and a buy-in in
it during the re-deal's betting. Each time the next start resumes the game from the log exactly
where it was (nothing is refunded), the ledger in the database still matches the table to the
chip, and finishing the game pays the winner the whole pot."""

from __future__ import annotations

import asyncio

from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine
from support.azi import azi_deck_for, read_balances, table_accounts
from support.live import LiveClient, LiveServer, Message

from app.db.session import close_engine

DEAL1 = {1: "AS 9H KS", 2: "7S AH 10H", 3: "8S 7H JH", 0: "10D JD 7D"}
DEAL2 = {1: "7D 8D 9D", 2: "7H 8H 9H", 3: "JD QD KD", 0: "AS KS 10S"}


def ledger(database_url: str, accounts: list[str]) -> list[int]:
    """The balances of ``accounts`` read from the database by a connection of the test's own."""
    async def read() -> dict[str, int]:
        engine = create_async_engine(database_url)
        try:
            return await read_balances(async_sessionmaker(engine), accounts)
        finally:
            await close_engine(engine)

    balances = asyncio.run(read())
    return [balances[account] for account in accounts]


class Table:
    """Four players over real WebSockets, and the version of the last state waited for."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.players = [LiveClient(server, f"R{seat}") for seat in range(4)]
        decks = [azi_deck_for(DEAL1, 0, 4), azi_deck_for(DEAL2, 0, 4)]
        room = server.post("/api/rooms", {"game": "azi", "private": True, "options": {
            "decks": decks, "first_dealer": 0}}, self.players[0].token)
        self.room_id: str = room["id"]
        self.version = 0

    def connect(self) -> list[Message]:
        states = [player.connect(self.room_id) for player in self.players]
        self.version = max(state["version"] for state in states)
        return states

    def act(self, seat: int, action: Message) -> Message:
        """``seat`` acts; the next state in which somebody is due to act (or the game is won)."""
        after = self.version
        self.players[seat].send({"type": "act", "id": f"v{after}", "action": action})
        state = self.players[seat].state_where(
            lambda m: m["version"] > after and (bool(m["view"]["to_act"])
                                                or m["view"]["last_game"] is not None))
        self.version = state["version"]
        return state

    def run(self, moves: list[tuple[int, Message]]) -> Message:
        state: Message = {}
        for seat, action in moves:
            state = self.act(seat, action)
        return state

    def seen_by_all(self) -> list[Message]:
        now = self.version
        return [player.state_where(lambda m: m["version"] >= now) for player in self.players]

    def chips(self) -> list[int]:
        return [self.server.get(f"/api/players/{player.id}")["chips"] for player in self.players]


def plays(*moves: str) -> list[tuple[int, Message]]:
    return [(int(seat), {"kind": "play", "card": card})
            for seat, card in (move.split(":") for move in moves)]


BET = {"kind": "bet", "amount": 50}
CALL = {"kind": "call"}


def restart_and_compare(server: LiveServer, table: Table, accounts: list[str],
                        database_url: str) -> list[Message]:
    """SIGKILL, start again, reconnect: every seat sees what it saw, at the same version; the
    ledger has not moved."""
    before = table.seen_by_all()
    chips = ledger(database_url, accounts)
    server.kill()
    for player in table.players:
        player.close()
    assert ledger(database_url, accounts) == chips
    server.start()
    after = table.connect()
    for old, new in zip(before, after, strict=True):
        assert new["version"] == old["version"]
        assert {key: value for key, value in new["view"].items() if not key.startswith("deadline")} \
            == {key: value for key, value in old["view"].items() if not key.startswith("deadline")}
        assert new["legal"] == old["legal"]
    assert ledger(database_url, accounts) == chips
    return after


def test_an_azi_pot_survives_sigkill(server: LiveServer, database_url: str) -> None:
    table = Table(server)
    states = table.connect()
    for seat, player in enumerate(table.players):
        player.send({"type": "sit", "seat": seat})
        player.state_where(lambda m, s=seat, p=player: m["room"]["seats"][s]["player_id"] == p.id)
    table.players[0].send({"type": "start"})
    state = table.players[0].state_where(lambda m: m["view"]["phase"] == "betting")
    table.version = state["version"]
    accounts = table_accounts([player.id for player in table.players], state["room"]["match_id"])

    # Deal 1: antes 40, seat 1 bets 50, seat 2 raises to 100, seat 3 calls, seat 0 folds, seat 1
    # calls: 340 in the pot; seat 2 led the first trick and seat 1 won it.
    table.run([(1, BET), (2, {"kind": "raise", "to": 100}), (3, CALL), (0, {"kind": "fold"}),
               (1, CALL), *plays("2:7S", "3:8S", "1:AS")])
    states = restart_and_compare(server, table, accounts, database_url)
    view = states[1]["view"]
    assert view["phase"] == "play" and view["pot"] == 340 and view["tricks_won"] == [0, 1, 0, 0]
    assert view["stacks"] == [990, 890, 890, 890] and view["to_act"] == [1]
    assert states[1]["view"]["hand"] == ["9H", "KS"] and states[0]["view"]["hand"] == ["10D", "JD", "7D"]
    assert ledger(database_url, accounts) == [990, 890, 890, 890, 340]

    # One trick each for seats 1, 2, 3: an Azi. Seat 0 buys in for ceil(340 / 2) = 170; the
    # re-deal (no ante) starts; seat 1 bets 50 and seat 2 calls: 510 dead money + 100.
    state = table.run(plays("1:9H", "2:AH", "3:7H", "2:10H", "3:JH", "1:KS"))
    assert state["view"]["phase"] == "azi_buy_in" and state["view"]["buy_in"]["price"] == 170
    table.run([(0, {"kind": "buy_in"}), (1, BET), (2, CALL)])
    states = restart_and_compare(server, table, accounts, database_url)
    view = states[0]["view"]
    assert view["phase"] == "betting" and view["redeal"] and view["deal_number"] == 2
    assert view["pot"] == 610 and view["dead_money"] == 510 and view["to_act"] == [3]
    assert view["stacks"] == [820, 840, 840, 890] and states[0]["view"]["hand"] == ["AS", "KS", "10S"]
    assert ledger(database_url, accounts) == [820, 840, 840, 890, 610]

    # The re-deal is played out; seat 0 wins two tricks and takes the whole pot of 710.
    table.run([(3, CALL), (0, CALL)])
    state = table.run(plays("1:7D", "2:7H", "3:JD", "0:AS", "0:KS", "1:8D", "2:8H", "3:QD"))
    last = state["view"]["last_game"]
    assert last["winner"] == 0 and last["pot"] == 710 and last["payouts"] == [710, 0, 0, 0]
    assert last["net"] == [480, -160, -160, -160] and last["deals"] == 2
    state = table.players[0].state_where(lambda m: bool(m["view"]["to_act"])
                                         and m["view"]["game_number"] == 2)
    # Game 2 has begun with its antes: the pot account holds exactly those.
    assert state["view"]["stacks"] == [1470, 830, 830, 830] and state["view"]["pot"] == 40
    assert ledger(database_url, accounts) == [1470, 830, 830, 830, 40]
    assert table.chips() == [1470, 830, 830, 830]
    match = server.get(f"/api/matches/{state['room']['match_id']}")
    assert [deal["points"] for deal in match["deals"][:2]] == [[-10, -110, -110, -110],
                                                               [490, -50, -50, -50]]
    seqs = [entry["seq"] for entry in match["actions"]]
    assert seqs == list(range(1, len(seqs) + 1)), "no step lost or written twice"
    for player in table.players:
        player.close()
