"""No chip is ever created or lost at an Azi table, on SQLite and on PostgreSQL.

Seeded random sessions of 3 to 6 players are played through the ASGI app the way a client plays:
each move is drawn from the ``legal`` list of the state the server sent to the seat on turn (a
range gives an amount within it). After every applied move the ledger is read from the database:
the players' balances plus the match's pot account always add up to what the players held at the
start, the pot account holds exactly the pot of the view, and each player's balance is his stack
in the view. When a session is over its pot account is empty and its history adds up.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient
from support import Client, Message
from support.azi import (
    AZI_PACK,
    STARTING_CHIPS,
    AziTable,
    ledger_balances,
    match_transfers,
    options_with,
    table_accounts,
    unthrottled_settings,
)

from app.db.ledger import bot_account, player_account, pot_account
from app.main import create_app

SEED = 20240611
SESSIONS = 6
DECKS = 150  # every deal from a seeded deck, so that the whole run is the same each time
MAX_MOVES = 2000
CALL_WEIGHT = 3
BOT_SESSIONS = 5


@pytest.fixture
def fast_client(database_url: str) -> Iterator[TestClient]:
    """``db_client`` (once on SQLite, once on PostgreSQL) for clients that move at machine speed."""
    app = create_app(unthrottled_settings(database_url), run_migrations=False)
    with TestClient(app) as test_client:
        yield test_client


def session_options(rng: random.Random, number: int) -> Message:
    return {"stake": rng.choice([10, 10, 25, 50]),
            "hand_size": 4 if number % 3 == 2 else 3,
            "raise_cap": rng.choice(["per_player", "total"]),
            "azi_buy_in": rng.choice(["half_pot", "half_pot", "none"]),
            "folded_excess": rng.choice(["returned", "to_pot"]),
            "min_raise": rng.choice([None, 1, 20])}


def client_move(rng: random.Random, legal: list[Message]) -> Message:
    """What a client would send for one entry of ``legal`` picked at random (a call more often
    than the rest, so that more deals are played out): an amount of a range (mostly small,
    sometimes all of it), the card of a play or discard entry."""
    weights = [CALL_WEIGHT if entry["kind"] == "call" else 1 for entry in legal]
    entry = rng.choices(legal, weights=weights)[0]
    kind = entry["kind"]
    if "min" in entry:
        low, high = entry["min"], entry["max"]
        amount = rng.choice([low, low, low, rng.randint(low, min(high, low + 40)),
                             rng.randint(low, high), high])
        return {"kind": kind, "amount" if kind == "bet" else "to": amount}
    if "card" in entry:
        return {"kind": kind, "card": entry["card"]}
    return {"kind": kind}


def check_ledger(http: TestClient, state: Message, accounts: list[str], total: int) -> None:
    """The database against the state the server sent after the move."""
    balances = ledger_balances(http, accounts)
    view = state["view"]
    pot = balances[accounts[-1]]
    players = [balances[account] for account in accounts[:-1]]
    where = f"version {state['version']}: players {players}, pot {pot}, view {view['stacks']} {view['pot']}"
    assert sum(players) + pot == total, where
    assert pot == view["pot"], where
    assert players == view["stacks"], where
    assert min(players) >= 0 and pot >= 0, where


def play_session(http: TestClient, rng: random.Random, stack: ExitStack, number: int,
                 seen: Counter[str]) -> Message:
    """One random session to its end, checked after every move; returns the last state."""
    count = rng.randint(3, 6)
    decks = [rng.sample(AZI_PACK, len(AZI_PACK)) for _ in range(DECKS)]
    options = options_with(decks, rng.randrange(count), **session_options(rng, number))
    table = AziTable(http, stack, count, options, prefix=f"S{number}-")
    total = sum(table.chips())
    assert total == count * STARTING_CHIPS
    state = table.start()
    match_id = state["room"]["match_id"]
    accounts = table_accounts([player.id or "" for player in table.players], match_id)
    check_ledger(http, state, accounts, total)
    for _ in range(MAX_MOVES):
        if state["view"]["phase"] == "match_over":
            break
        seat = rng.choice(state["view"]["to_act"])
        move = client_move(rng, table.state(seat)["legal"])
        state = table.act(seat, move)
        check_ledger(http, state, accounts, total)
        seen[move["kind"]] += 1
        seen["all_in"] += move["kind"] == "call" and seat in state["view"]["all_in"]
    assert state["view"]["phase"] == "match_over", "the session did not end"
    check_history(http, table, state, match_id, total, seen)
    return state


def check_history(http: TestClient, table: AziTable, state: Message, match_id: str, total: int,
                  seen: Counter[str]) -> None:
    """The pot account is empty; the history's deal points add up to each seat's net chips."""
    assert ledger_balances(http, [pot_account(match_id)]) == {pot_account(match_id): 0}
    chips = table.chips()
    assert sum(chips) == total and chips == state["view"]["stacks"]
    match = table.match()
    assert match["status"] == "finished"
    net = [chip - STARTING_CHIPS for chip in chips]
    assert match["result"]["totals"] == net
    assert [sum(deal["points"][seat] for deal in match["deals"])
            for seat in range(len(chips))] == net
    seen["deals"] += len(match["deals"])
    seen["azi"] += sum(deal["detail"]["reason"] == "azi" for deal in match["deals"])
    check_transfers(http, match, [player_account(player.id or "") for player in table.players])


INTO_POT = {"ante": "deal", "bet": "bet", "raise": "raise", "call": "call", "buy_in": "buy_in"}
OUT_OF_POT = {"payout", "refund"}


def check_transfers(http: TestClient, match: Message, seat_accounts: list[str]) -> None:
    """Each chip move of the match is a transfer between a seat's account and the match's pot,
    written with the logged step that made it: an ante with a deal, a bet, raise, call or buy-in
    with that very action of that seat, a payout or refund with the fold or the card that ended
    the deal. The only other rows are the bank's grants to the bots' accounts at the start."""
    pot = pot_account(match["id"])
    seats = {account: seat for seat, account in enumerate(seat_accounts)}
    steps = {entry["seq"]: entry for entry in match["actions"]}
    for row in match_transfers(http, match["id"]):
        assert row["amount"] > 0, row
        if row["kind"] == "grant":
            assert row["source"] == "bank" and row["target"].startswith("bot:"), row
            assert row["target"] in seats and row["action_seq"] is None, row
            continue
        step = steps[row["action_seq"]]
        assert row["deal"] == step["deal"], (row, step)
        if row["target"] == pot:
            assert row["kind"] in INTO_POT and step["action"]["kind"] == INTO_POT[row["kind"]], (row, step)
            assert step["seat"] in (None, seats[row["source"]]), (row, step)
        else:
            assert row["source"] == pot and row["target"] in seats, row
            assert row["kind"] in OUT_OF_POT and step["action"]["kind"] in ("fold", "play"), (row, step)


def test_no_chip_is_created_or_lost(fast_client: TestClient) -> None:
    rng = random.Random(SEED)
    seen: Counter[str] = Counter()
    match_ids: list[str] = []
    players: list[str] = []
    for number in range(SESSIONS):
        with ExitStack() as stack:
            state = play_session(fast_client, rng, stack, number, seen)
        match_ids.append(state["room"]["match_id"])
        players.extend(seat["player_id"] for seat in state["room"]["seats"] if seat["player_id"])
    balances = ledger_balances(fast_client, [*map(pot_account, match_ids),
                                             *map(player_account, players)])
    assert all(balances[pot_account(match_id)] == 0 for match_id in match_ids)
    assert sum(balances[player_account(player)] for player in players) == \
        len(players) * STARTING_CHIPS
    # The run went through every way chips move: folds, all-in calls, Azi deals with buy-ins
    # and declines, the 4-card discard.
    for kind in ("fold", "raise", "all_in", "azi", "buy_in", "decline", "discard"):
        assert seen[kind] > 0, (kind, seen)


def test_a_bots_stack_is_on_the_ledger_too(fast_client: TestClient) -> None:
    """Sessions of one person and two random bots (each granted the starting chips from the bank
    into ``bot:<match>:<seat>``): whenever the person is to act, the three accounts and the pot
    hold the stacks and the pot of the view, and nothing else."""
    rng = random.Random(SEED + 1)
    for number in range(BOT_SESSIONS):
        bot_session(fast_client, rng, number)


def bot_session(http: TestClient, rng: random.Random, number: int) -> None:
    decks = [rng.sample(AZI_PACK, len(AZI_PACK)) for _ in range(DECKS)]
    host = Client(http, f"Host {number}")
    room_id = host.create_room("azi", options_with(decks, rng.randrange(3)))
    with host.connected(room_id):
        host.send({"type": "sit", "seat": 0})
        for seat in (1, 2):
            host.send({"type": "add_bot", "seat": seat, "level": "random"})
        host.state_where(lambda m: m["room"]["seats"][2]["bot"])
        host.send({"type": "start"})
        state = host.state_where(lambda m: m["view"]["phase"] != "waiting" and my_turn_or_over(m))
        match_id = state["room"]["match_id"]
        accounts = [player_account(host.id or ""), bot_account(match_id, 1), bot_account(match_id, 2),
                    pot_account(match_id)]
        for _ in range(MAX_MOVES):
            check_ledger(http, state, accounts, 3 * STARTING_CHIPS)
            if state["view"]["phase"] == "match_over":
                break
            host.act(client_move(rng, state["legal"]))
            state = host.state_where(lambda m, v=state["version"]: m["version"] > v
                                     and my_turn_or_over(m))
    assert state["view"]["phase"] == "match_over"
    assert ledger_balances(http, accounts)[accounts[-1]] == 0
    match = http.get(f"/api/matches/{match_id}").json()
    assert [seat["bot"] for seat in match["seats"]] == [False, True, True]
    check_transfers(http, match, accounts[:-1])


def my_turn_or_over(message: Message) -> bool:
    """Seat 0 is to act (so no bot is), or the session is over: the database is at rest."""
    return message["view"]["phase"] == "match_over" or 0 in message["view"]["to_act"]
