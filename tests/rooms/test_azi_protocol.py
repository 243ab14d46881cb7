"""Azi over the real protocol: WebSocket players play whole games through the ASGI app with fixed
decks, and every game's chips are checked to the chip in the ledger (``GET /api/players/{id}``)
and in the match history (``GET /api/matches/{id}``: each deal's net chips and its pot)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient
from support import Client, Message, game_result
from support.azi import (
    BET10,
    CALL,
    CLOSE,
    FOLD,
    LEAVE,
    AziTable,
    azi_deck_for,
    bet,
    options_with,
    play,
    raise_to,
    refused,
    settled,
    unthrottled_settings,
)

from app.main import create_app

PAUSE = 1.0


def test_a_game_won_by_folds_pays_the_pot_unseen(client: TestClient) -> None:
    """AZ-7.4(a)/AZ-12: antes 4 x 10, seat 1 bets 20, seat 2 raises to 50, the others fold:
    seat 2 takes the 110 chips at once, no card is played; the next game starts with the ante."""
    deck = azi_deck_for({1: "AS KS QS", 2: "6H 7H 8H", 3: "9D 10D JD", 0: "6S 7S 8S"}, 0, 4)
    spectator = Client(client, None)
    with ExitStack() as stack:
        table = AziTable(client, stack, 4, options_with([deck], 0))
        stack.enter_context(spectator.connected(table.room_id))
        state = table.start()
        view = state["view"]
        assert view["phase"] == "betting" and view["to_act"] == [1]
        assert view["pot"] == 40 and view["stacks"] == [990] * 4
        assert view["exposed_card"] == "8S" and view["exposed_seat"] == 0 and view["trump"] == "S"
        assert table.state(1)["view"]["hand"] == ["AS", "KS", "QS"]
        assert table.state(1)["legal"] == [{"kind": "bet", "min": 10, "max": 990}]
        assert table.chips() == [990] * 4
        table.run([(1, bet(20)), (2, raise_to(50)), (3, FOLD), (0, FOLD)])
        state = table.act(1, FOLD)
        view = state["view"]
        assert view["game_number"] == 2 and view["phase"] == "betting"
        assert view["last_game"] == {"number": 1, "winner": 2, "reason": "folds", "pot": 110,
                                     "payouts": [0, 0, 110, 0], "net": [-10, -30, 50, -10],
                                     "deals": 1}
        assert view["button"] == 2 and view["to_act"] == [3]
        # The winner deals game 2 (AZ-14); everyone paid the next ante already.
        assert view["stacks"] == [980, 960, 1040, 980] and view["pot"] == 40
        assert view["scores"] == [-20, -40, 40, -20]
        assert table.chips() == [980, 960, 1040, 980]
        spectator.state_where(lambda m: m["version"] >= state["version"])
        match = table.match()
    # In game 1 each seat saw its own cards and the exposed 8S, the spectator only the 8S.
    hands = {1: "AS KS QS", 2: "6H 7H 8H", 3: "9D 10D JD", 0: "6S 7S"}
    for viewer, seat in [(spectator, None), *((player, seat) for seat, player in enumerate(table.players))]:
        unseen = [card for other, hand in hands.items() if other != seat for card in hand.split()]
        views = [json.dumps(m["view"]) for m in viewer.received
                 if m["type"] == "state" and m["view"].get("game_number") == 1]
        assert views and not [card for card in unseen for text in views if f'"{card}"' in text]
    first = match["deals"][0]
    assert first["points"] == [-10, -30, 50, -10]
    assert first["detail"]["pot"] == 110 and first["detail"]["winner"] == 2
    assert first["detail"]["reason"] == "folds"
    assert first["detail"]["contributions"] == [10, 30, 60, 10]
    assert first["detail"]["payouts"] == [0, 0, 110, 0]
    assert first["deck"] == deck
    assert match["deals"][1]["points"] is None and match["deals"][1]["deck"] is None
    kinds = [entry["action"]["kind"] for entry in match["actions"]]
    assert kinds == ["deal", "bet", "raise", "fold", "fold", "fold", "auto"]


def test_an_all_in_winner_takes_his_share_and_the_excess_goes_back(client: TestClient) -> None:
    """AZ-11, example 33 over the wire. Game 1 makes the stacks unequal: seat 2 (A) bets 880
    and loses them to seat 0 (B). Game 2: A goes all-in for less with his last 100 while seat 1
    (C) and B put in 310 each; A wins two tricks and takes 330, B and C get 200 back each."""
    game1 = azi_deck_for({2: "6H 7H 8H", 0: "AH KH QH", 1: "6D 7D 8S"}, 1, 3)
    game2 = azi_deck_for({1: "6D 7D 8D", 2: "AS KS QS", 0: "9D 10D 6S"}, 0, 3)
    with ExitStack() as stack:
        table = AziTable(client, stack, 3, options_with([game1, game2], 1))
        state = table.start()
        assert state["view"]["to_act"] == [2] and state["view"]["trump"] == "S"
        table.run([(2, bet(880)), (0, CALL), (1, FOLD)])
        assert table.state(2)["view"]["leader"] == 2
        state = table.run(play("2:6H", "0:AH", "0:KH", "2:7H"))
        view = state["view"]
        assert view["last_game"]["winner"] == 0 and view["last_game"]["pot"] == 1790
        assert view["last_game"]["net"] == [900, -10, -890]
        # Game 2 has started: B holds the button, everyone paid the ante.
        assert view["game_number"] == 2 and view["button"] == 0 and view["to_act"] == [1]
        assert view["stacks"] == [1890, 980, 100]
        assert table.chips() == [1890, 980, 100]

        table.act(1, bet(300))
        assert table.state(2)["legal"] == [{"kind": "fold"},
                                           {"kind": "call", "amount": 100, "all_in": True}]
        state = table.act(2, CALL)
        assert state["view"]["all_in"] == [2] and state["view"]["stacks"] == [1890, 680, 0]
        state = table.act(0, CALL)
        view = state["view"]
        assert view["phase"] == "play" and view["leader"] == 1  # an all-in call never leads
        assert view["contributions"] == [310, 310, 110] and view["pot"] == 730
        assert table.chips() == [1590, 680, 0]
        state = table.run(play("1:6D", "2:AS", "0:9D", "2:KS", "0:6S", "1:7D"))
        view = state["view"]
        assert view["last_game"] == {"number": 2, "winner": 2, "reason": "tricks", "pot": 730,
                                     "payouts": [200, 200, 330], "net": [-110, -110, 220],
                                     "deals": 1}
        # Game 3: A, the winner, deals; the antes are in.
        assert view["game_number"] == 3 and view["button"] == 2
        assert view["stacks"] == [1780, 870, 320] and view["scores"] == [780, -130, -680]
        assert table.chips() == [1780, 870, 320]
        match = table.match()
    first, second = match["deals"][:2]
    assert first["points"] == [900, -10, -890]
    assert first["detail"]["pot"] == 1790 and first["detail"]["payouts"] == [1790, 0, 0]
    assert second["points"] == [-110, -110, 220]
    assert second["detail"]["pot"] == 730 and second["detail"]["dead_money"] == 0
    assert second["detail"]["contributions"] == [310, 310, 110]
    assert second["detail"]["payouts"] == [200, 200, 330]
    assert second["detail"]["winner"] == 2 and second["detail"]["reason"] == "tricks"


def test_an_azi_with_a_buy_in_and_a_decline_then_the_redeal_takes_the_dead_money(
        client: TestClient) -> None:
    """AZ-9/AZ-13: seats 1, 2, 3 take one trick each; the pot (80) is carried over; seat 4
    declines the buy-in of ceil(80/2) = 40, seat 0 pays it; the re-deal (no ante) is won by seat
    0, who takes the dead money 120 and the 40 bet in the re-deal (AZ-10/AZ-11)."""
    deal1 = azi_deck_for({1: "AS 9H KS", 2: "7S AH 10H", 3: "8S 7H JH", 4: "6D 8D 9D",
                          0: "10D JD 7D"}, 0, 5)
    deal2 = azi_deck_for({1: "7D 8D 9D", 2: "7H 8H 9H", 3: "JD QD KD", 0: "AS KS 10S"}, 0, 5)
    with ExitStack() as stack:
        table = AziTable(client, stack, 5, options_with([deal1, deal2], 0))
        table.start()
        table.run([(1, BET10), (2, CALL), (3, CALL), (4, FOLD), (0, FOLD)])
        state = table.run(play("1:AS", "2:7S", "3:8S", "1:9H", "2:AH", "3:7H",
                               "2:10H", "3:JH", "1:KS"))
        view = state["view"]
        assert view["phase"] == "azi_buy_in" and view["to_act"] == [4]
        assert view["tricks_won"] == [0, 1, 1, 1, 0]
        assert view["buy_in"] == {"price": 40, "free": [1, 2, 3], "waiting": [4, 0],
                                  "decisions": [], "buy_ins": [0, 0, 0, 0, 0]}
        assert view["pot"] == 80 and view["dead_money"] == 80
        assert table.state(4)["legal"] == [{"kind": "buy_in"}, {"kind": "decline"}]
        assert table.chips() == [990, 980, 980, 980, 990]
        table.act(4, {"kind": "decline"})
        state = table.act(0, {"kind": "buy_in"})
        view = state["view"]
        assert view["phase"] == "betting" and view["redeal"] and view["deal_number"] == 2
        assert view["participants"] == [0, 1, 2, 3] and view["sitting_out"] == [4]
        assert view["pot"] == 120 and view["dead_money"] == 120 and view["button"] == 0
        assert view["stacks"] == [950, 980, 980, 980, 990]
        assert table.chips() == [950, 980, 980, 980, 990]
        assert table.state(4)["legal"] == [] and table.state(4)["view"]["hand"] == []

        table.run([(1, BET10), (2, CALL), (3, CALL), (0, CALL)])
        state = table.run(play("1:7D", "2:7H", "3:JD", "0:AS", "0:KS", "1:8D", "2:8H", "3:QD"))
        view = state["view"]
        assert view["last_game"] == {"number": 1, "winner": 0, "reason": "tricks", "pot": 160,
                                     "payouts": [160, 0, 0, 0, 0],
                                     "net": [100, -30, -30, -30, -10], "deals": 2}
        assert view["game_number"] == 2 and view["button"] == 0
        assert view["stacks"] == [1090, 960, 960, 960, 980]
        assert table.chips() == [1090, 960, 960, 960, 980]
        match = table.match()
    azi, redeal = match["deals"][:2]
    assert azi["points"] == [-10, -20, -20, -20, -10]
    assert azi["detail"]["reason"] == "azi" and azi["detail"]["winner"] is None
    assert azi["detail"]["pot"] == 80 and azi["detail"]["tricks"] == [0, 1, 1, 1, 0]
    assert redeal["points"] == [110, -10, -10, -10, 0]
    assert redeal["detail"]["pot"] == 160 and redeal["detail"]["dead_money"] == 120
    assert redeal["detail"]["buy_ins"] == [40, 0, 0, 0, 0]
    assert redeal["detail"]["payouts"] == [160, 0, 0, 0, 0]
    assert redeal["detail"]["redeal"] is True and redeal["detail"]["game"] == 1
    logged = [(entry["seat"], entry["action"]) for entry in match["actions"]]
    assert (4, {"kind": "decline"}) in logged and (0, {"kind": "buy_in"}) in logged


def wait_until_idle(http: TestClient, room_id: str) -> None:
    """Waits, in the app's event loop, for the automatic step and the bots' turns the room has
    pending to have run."""
    room = http.app.state.rooms.rooms[room_id]  # type: ignore[attr-defined]

    async def idle() -> None:
        while pending := room.turns.pending():
            await asyncio.wait(pending)

    http.portal.call(idle)  # type: ignore[union-attr]


@pytest.fixture
def paused_client(fresh_sqlite_url: str) -> Iterator[TestClient]:
    """The app with a pause before each automatic step, so that there is time between games to
    leave or to close the table."""
    settings = unthrottled_settings(fresh_sqlite_url, reveal_pause=PAUSE)
    with TestClient(create_app(settings, run_migrations=False)) as test_client:
        yield test_client


def between_games(message: Message) -> bool:
    return message["view"]["phase"] == "game_over"


def test_leaving_between_games(paused_client: TestClient) -> None:
    """AZ-15: a player may leave between games, never during one; he keeps his chips and sits out
    from then on; when only one player who can pay the ante is left, the session ends."""
    game1 = azi_deck_for({1: "AS KS QS", 2: "6H 7H 8H", 0: "9D 10D JD"}, 0, 3)
    game2 = azi_deck_for({0: "AH KH QH", 1: "6S 7S 8D"}, 1, 3)
    with ExitStack() as stack:
        table = AziTable(paused_client, stack, 3, options_with([game1, game2], 0))
        table.start()
        table.act(1, BET10)
        refused(table, 2, LEAVE, "action/not_between_games")
        table.act(2, FOLD)
        state = table.act(0, FOLD, until=between_games)
        assert state["view"]["last_game"]["net"] == [-10, 20, -10]
        assert table.state(2)["legal"] == [LEAVE]
        state = table.act(2, LEAVE, until=lambda m: m["view"]["left"] == [2])
        assert state["view"]["phase"] in ("game_over", "needs_deal")
        assert table.chips() == [990, 1020, 990]

        state = table.wait(0)
        view = state["view"]
        assert view["game_number"] == 2 and view["button"] == 1
        assert view["participants"] == [0, 1] and view["sitting_out"] == []
        assert view["to_act"] == [0] and view["stacks"] == [980, 1010, 990]
        assert table.state(2)["legal"] == [] and table.state(2)["view"]["hand"] == []
        refused(table, 2, BET10, "action/left_table")
        assert table.chips() == [980, 1010, 990]
        table.act(0, BET10)
        table.act(1, FOLD, until=between_games)
        state = table.act(0, LEAVE, until=lambda m: m["view"]["phase"] == "match_over")
        view = state["view"]
        assert view["match_end"] == "players" and view["left"] == [0, 2]
        assert state["room"]["status"] == "finished"
        assert table.chips() == [1000, 1010, 990]
        match = table.match()
    assert match["status"] == "finished"
    assert [deal["points"] for deal in match["deals"]] == [[-10, 20, -10], [10, -10, 0]]
    assert game_result(match["result"]) == {"winners": [1], "totals": [0, 10, -10]}
    logged = [(entry["seat"], entry["action"]["kind"]) for entry in match["actions"]]
    assert logged.count((2, "leave")) == 1 and logged.count((0, "leave")) == 1


def test_the_owner_closes_the_table_between_games(paused_client: TestClient) -> None:
    """Only the owner closes an Azi table, and only between games; the match then ends with the
    chips where they are and the room is finished."""
    game1 = azi_deck_for({1: "AS KS QS", 2: "6H 7H 8H", 0: "9D 10D JD"}, 0, 3)
    with ExitStack() as stack:
        table = AziTable(paused_client, stack, 3, options_with([game1], 0))
        table.start()
        table.act(1, bet(40))
        refused(table, 0, CLOSE, "table/not_between_games")
        table.act(2, FOLD)
        state = table.act(0, FOLD, until=between_games)
        assert state["view"]["last_game"]["net"] == [-10, 20, -10]
        refused(table, 1, CLOSE, "room/not_owner")
        table.owner.send(CLOSE)
        state = table.wait(0, lambda m: m["view"]["phase"] == "match_over")
        assert state["view"]["match_end"] == "closed" and state["room"]["status"] == "finished"
        assert state["legal"] == [] and state["view"]["game_number"] == 1
        assert table.chips() == [990, 1020, 990]
        # Nothing more happens at a closed table: no next game (the automatic step that was due
        # does not come), no move, no second close.
        wait_until_idle(paused_client, table.room_id)
        refused(table, 0, CLOSE, "room/finished")
        table.players[1].act(BET10)
        assert table.players[1].error()["code"] == "action/game_over"
        assert table.chips() == [990, 1020, 990]
        match = table.match()
    assert match["status"] == "finished"
    assert game_result(match["result"]) == {"winners": [1], "totals": [-10, 20, -10]}
    assert [deal["points"] for deal in match["deals"]] == [[-10, 20, -10]]
    assert match["actions"][-1]["seat"] is None
    assert match["actions"][-1]["action"] == {"kind": "close"}


def test_the_session_ends_when_fewer_than_two_can_pay(client: TestClient) -> None:
    """AZ-5/AZ-15: a broke player sits out; when only one player can pay the ante, the session is
    over. A player without the ante cannot sit at a chip table until he has topped up, and he
    tops up only once his session is over."""
    game1 = azi_deck_for({1: "6H 7H 8H", 2: "6D 7D 8D", 0: "AH KH QS"}, 0, 3)
    game2 = azi_deck_for({2: "6H 7H 8H", 0: "AH KH QS"}, 0, 3)
    with ExitStack() as stack:
        table = AziTable(client, stack, 3, options_with([game1, game2], 0))
        table.start()
        table.run([(1, bet(990)), (2, FOLD), (0, CALL)])
        state = table.run(play("1:6H", "0:AH", "0:KH", "1:7H"))
        view = state["view"]
        assert view["last_game"]["payouts"] == [2010, 0, 0]
        assert view["game_number"] == 2 and view["participants"] == [0, 2]
        assert view["sitting_out"] == [1] and view["to_act"] == [2]
        assert table.chips() == [2000, 0, 980]
        # His chips play at this table until the session is over: no top-up in the meantime,
        # or his balance would no longer be his stack at the table.
        broke = table.players[1]
        response = client.post(f"/api/players/{broke.id}/top-up", headers=broke.auth)
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "chips/at_table"
        assert table.chips() == [2000, 0, 980] and table.state(1)["view"]["stacks"][1] == 0
        table.run([(2, bet(980)), (0, CALL)])
        state = table.run(play("2:6H", "0:AH", "0:KH", "2:7H"))
        view = state["view"]
        assert view["phase"] == "match_over" and view["match_end"] == "players"
        assert view["stacks"] == [3000, 0, 0] and state["room"]["status"] == "finished"
        assert table.chips() == [3000, 0, 0]
        match = table.match()
        other = Client(client, "Other")
        room_id = other.create_room("azi")
        with broke.connected(room_id):
            broke.send({"type": "sit", "seat": 0})
            error = broke.error()
            assert error["code"] == "room/no_ante" and "10" in error["message"]
            response = client.post(f"/api/players/{broke.id}/top-up", headers=broke.auth)
            assert response.status_code == 200 and response.json()["chips"] == 1000
            broke.send({"type": "sit", "seat": 0})
            broke.state_where(lambda m: m["room"]["seats"][0]["player_id"] == broke.id)
    assert game_result(match["result"]) == {"winners": [0], "totals": [2000, -1000, -1000]}
    assert [deal["points"] for deal in match["deals"]] == [[1010, -1000, -10], [990, 0, -990]]
    assert [deal["detail"]["pot"] for deal in match["deals"]] == [2010, 1980]


# --- bad input: an error naming the problem, and nothing changed -------------------------------

def test_betting_mistakes_are_refused_and_change_nothing(client: TestClient) -> None:
    """AZ-7: the opener must bet between the minimum and his stack, never fold or call; a raise
    goes to at least high + min_raise; at most three bids per player (the opening bet counts); a
    folded player is out; amounts are whole numbers of chips."""
    with ExitStack() as stack:
        table = AziTable(client, stack, 3, {"first_dealer": 0})
        table.start()
        refused(table, 1, FOLD, "action/opener_cannot_fold")
        assert "10" in refused(table, 1, bet(5), "action/bet_below_minimum")["message"]
        assert "990" in refused(table, 1, bet(991), "action/bet_above_stack")["message"]
        refused(table, 1, CALL, "action/must_open")
        refused(table, 1, raise_to(20), "action/must_open")
        for amount in (-10, 10.5, 10.0, "10", True, None, [10]):
            error = refused(table, 1, {"kind": "bet", "amount": amount}, "action/bad_amount")
            assert repr(amount) in error["message"] or str(amount) in error["message"]
        refused(table, 1, {"kind": "bet"}, "action/bad_fields")
        refused(table, 1, {"kind": "bet", "amount": 10, "to": 10}, "action/bad_fields")
        refused(table, 1, {"kind": "check"}, "action/unknown_kind")
        refused(table, 2, BET10, "action/not_your_turn")
        table.act(1, BET10)
        assert "at least 20" in refused(table, 2, raise_to(15), "action/raise_too_small")["message"]
        refused(table, 2, raise_to(991), "action/raise_above_stack")
        refused(table, 2, {"kind": "raise", "to": -20}, "action/bad_amount")
        refused(table, 2, {"kind": "raise", "to": 20.5}, "action/bad_amount")
        refused(table, 2, bet(20), "action/already_open")
        table.run([(2, raise_to(20)), (0, FOLD)])
        refused(table, 0, CALL, "action/folded")
        refused(table, 0, raise_to(100), "action/folded")
        table.run([(1, raise_to(30)), (2, raise_to(40)), (1, raise_to(50)), (2, raise_to(60))])
        assert table.state(1)["legal"] == [{"kind": "fold"},
                                           {"kind": "call", "amount": 10, "all_in": False}]
        error = refused(table, 1, raise_to(70), "action/bid_cap")
        assert "3 bids" in error["message"]
        state = table.act(1, CALL)
        assert state["view"]["phase"] == "play" and state["view"]["leader"] == 2
        assert table.chips() == [990, 930, 930]


def test_a_player_who_can_only_call_cannot_raise(client: TestClient) -> None:
    """AZ-7.3: a stack that covers the call but not a full raise may only call or fold."""
    with ExitStack() as stack:
        table = AziTable(client, stack, 3, {"first_dealer": 0})
        table.start()
        table.act(1, bet(985))
        assert table.state(2)["legal"] == [{"kind": "fold"},
                                           {"kind": "call", "amount": 985, "all_in": False}]
        error = refused(table, 2, raise_to(990), "action/cannot_raise")
        assert "only call or fold" in error["message"]
        refused(table, 2, raise_to(995), "action/cannot_raise")
        state = table.act(2, CALL)
        assert state["view"]["stacks"] == [990, 5, 5] and table.chips() == [990, 5, 5]


def test_card_mistakes_name_the_rule(client: TestClient) -> None:
    """AZ-8: follow the led suit even with a lower card; if void, play a trump; a card must be in
    the hand and of the Azi pack."""
    deck = azi_deck_for({1: "AS 7H 6D", 2: "KS 8H 9D", 0: "QH JH 10S"}, 0, 3)
    with ExitStack() as stack:
        table = AziTable(client, stack, 3, options_with([deck], 0))
        table.start()
        refused(table, 1, {"kind": "play", "card": "AS"}, "action/wrong_phase")
        table.run([(1, BET10), (2, CALL), (0, CALL)])
        assert table.state(0)["view"]["trump"] == "S"
        table.act(1, {"kind": "play", "card": "7H"})
        error = refused(table, 2, {"kind": "play", "card": "KS"}, "action/must_follow")
        assert "must follow hearts" in error["message"] and "AZ-8" in error["message"]
        assert table.state(2)["legal"] == [{"kind": "play", "card": "8H"}]
        refused(table, 2, {"kind": "play", "card": "AH"}, "action/not_in_hand")
        refused(table, 2, {"kind": "play", "card": "AC"}, "action/bad_card")
        refused(table, 2, {"kind": "play", "card": "1Z"}, "action/bad_card")
        refused(table, 2, {"kind": "play", "card": 8}, "action/bad_card")
        refused(table, 0, {"kind": "play", "card": "QH"}, "action/not_your_turn")
        table.run(play("2:8H", "0:QH", "0:JH"))
        error = refused(table, 1, {"kind": "play", "card": "6D"}, "action/must_trump")
        assert "must play a trump" in error["message"] and "spades" in error["message"]
        assert "AZ-8" in error["message"]
        table.act(1, {"kind": "play", "card": "AS"})
        assert table.state(2)["legal"] == [{"kind": "play", "card": "KS"}]
        state = table.act(2, {"kind": "play", "card": "KS"})
        assert state["view"]["tricks_won"] == [1, 1, 0] and state["view"]["to_act"] == [1]


def test_discarding_twice_in_the_four_card_variant(client: TestClient) -> None:
    """AZ-6, 4-card variant: each participant discards exactly one card of his own, before
    betting."""
    deck = azi_deck_for({1: "AS KS QS JS", 2: "6H 7H 8H 9H", 0: "6D 7D 8D 9D"}, 0, 3)
    with ExitStack() as stack:
        table = AziTable(client, stack, 3, options_with([deck], 0, hand_size=4))
        state = table.start()
        assert state["view"]["phase"] == "discard" and state["view"]["to_act"] == [0, 1, 2]
        assert state["view"]["exposed_card"] == "9D"
        table.act(1, {"kind": "discard", "card": "JS"})
        assert table.state(1)["view"]["hand"] == ["AS", "KS", "QS"]
        assert table.state(1)["view"]["my_discard"] == "JS"
        refused(table, 1, {"kind": "discard", "card": "QS"}, "action/already_discarded")
        refused(table, 2, {"kind": "discard", "card": "AS"}, "action/not_in_hand")
        refused(table, 2, BET10, "action/wrong_phase")
        table.act(2, {"kind": "discard", "card": "6H"})
        state = table.act(0, {"kind": "discard", "card": "9D"})
        assert state["view"]["phase"] == "betting" and state["view"]["trump"] == "D"
        assert table.chips() == [990, 990, 990]


def test_a_buy_in_without_enough_chips(client: TestClient) -> None:
    """AZ-13: after an Azi a player who cannot pay ceil(P/2) is not offered the buy-in and cannot
    take it; the one-trick players are in already. Seat 4 raised to 400 and folded to a re-raise,
    so he has 590 for a price of 840; seat 0 folded at once and keeps 990."""
    deck = azi_deck_for({1: "AS 9H KS", 2: "7S AH 10H", 3: "8S 7H JH", 4: "6D 8D 9D",
                         0: "10D JD 7D"}, 0, 5)
    with ExitStack() as stack:
        table = AziTable(client, stack, 5, options_with([deck], 0))
        table.start()
        table.run([(1, BET10), (2, CALL), (3, CALL), (4, raise_to(400)), (0, FOLD)])
        refused(table, 0, CALL, "action/folded")
        table.run([(1, raise_to(410)), (2, CALL), (3, CALL), (4, FOLD)])
        state = table.run(play("1:AS", "2:7S", "3:8S", "1:9H", "2:AH", "3:7H",
                               "2:10H", "3:JH", "1:KS"))
        view = state["view"]
        assert view["phase"] == "azi_buy_in" and view["pot"] == 1680
        assert view["buy_in"]["price"] == 840 and view["buy_in"]["waiting"] == [0]
        assert table.chips() == [990, 580, 580, 580, 590]
        assert table.state(4)["legal"] == []
        error = refused(table, 4, {"kind": "buy_in"}, "action/cannot_afford")
        assert "840" in error["message"] and "590" in error["message"]
        refused(table, 1, {"kind": "buy_in"}, "action/already_in")
        refused(table, 3, {"kind": "decline"}, "action/already_in")
        refused(table, 0, {"kind": "buy_in", "amount": 840}, "action/bad_fields")
        state = table.act(0, {"kind": "decline"})
        assert state["view"]["participants"] == [1, 2, 3] and state["view"]["pot"] == 1680


def test_sitting_needs_the_ante_and_a_free_player(client: TestClient) -> None:
    """A chip table takes only players who hold its ante (stake 1001 > the 1000 of a new guest),
    and a player plays at one chip table at a time."""
    owner, guest = Client(client, "Owner"), Client(client, "Guest")
    dear = owner.create_room("azi", {"stake": 1001})
    cheap = owner.create_room("azi")
    with owner.connected(dear), guest.connected(cheap):
        before = owner.last_state
        assert before is not None
        owner.send({"type": "sit", "seat": 0})
        error = owner.error()
        assert error["code"] == "room/no_ante"
        assert "1001" in error["message"] and "1000" in error["message"]
        owner.send({"type": "stand"})
        assert owner.error()["code"] == "room/not_seated"
        spectator = Client(client, None)
        with spectator.connected(dear):
            assert spectator.last_state is not None
            assert spectator.last_state["version"] == before["version"]
            assert spectator.last_state["room"]["seats"][0]["player_id"] is None
        guest.send({"type": "sit", "seat": 1})
        guest.state_where(lambda m: m["room"]["seats"][1]["player_id"] == guest.id)
    with guest.connected(dear):
        guest.send({"type": "sit", "seat": 0})
        assert guest.error()["code"] == "room/busy_elsewhere"
    assert client.get(f"/api/rooms/{dear}").json()["seats"][0]["player_id"] is None
    assert client.get(f"/api/players/{owner.id}").json()["chips"] == 1000


def lose_everything(client: TestClient, loser: Client, winner: Client) -> None:
    """A two-player session in which ``loser`` (seat 1) goes all-in and loses it all."""
    deck = azi_deck_for({1: "6H 7H 8H", 0: "AH KH QS"}, 0, 2)
    room_id = winner.create_room("azi", options_with([deck], 0))
    with winner.connected(room_id), loser.connected(room_id):
        for seat, player in ((0, winner), (1, loser)):
            player.send({"type": "sit", "seat": seat})
            player.state_where(lambda m, s=seat, p=player: m["room"]["seats"][s]["player_id"] == p.id)
        winner.send({"type": "start"})
        state = loser.state_where(settled)
        for seat, action in [(1, bet(990)), (0, CALL), *play("1:6H", "0:AH", "0:KH", "1:7H")]:
            (winner if seat == 0 else loser).act(action)
            state = loser.state_where(lambda m, v=state["version"]: m["version"] > v and settled(m))
        assert state["view"]["phase"] == "match_over"


def test_a_top_up_only_when_needed_and_once_a_period(client: TestClient) -> None:
    """``POST /api/players/{id}/top-up``: only below CARDROOM_TOPUP_BELOW (10) chips, only one's
    own, at most once per CARDROOM_TOPUP_PERIOD_HOURS; a refusal changes no balance."""
    poor, rich = Client(client, "Poor"), Client(client, "Rich")

    def top_up(player: Client, headers: dict[str, str] | None = None) -> tuple[int, Message]:
        response = client.post(f"/api/players/{player.id}/top-up",
                               headers=player.auth if headers is None else headers)
        return response.status_code, response.json()

    def chips(player: Client) -> int:
        value: int = client.get(f"/api/players/{player.id}").json()["chips"]
        return value

    status, body = top_up(rich)
    assert status == 400 and body["error"]["code"] == "chips/not_needed"
    assert "10" in body["error"]["message"] and "1000" in body["error"]["message"]
    assert chips(rich) == 1000
    lose_everything(client, poor, rich)
    assert (chips(poor), chips(rich)) == (0, 2000)
    status, body = top_up(poor, rich.auth)
    assert status == 403 and body["error"]["code"] == "auth/not_yours"
    status, body = top_up(poor, {})
    assert status == 401 and chips(poor) == 0
    status, body = top_up(poor)
    assert status == 200 and body["chips"] == 1000 and chips(poor) == 1000
    status, body = top_up(poor)
    assert status == 400 and body["error"]["code"] == "chips/not_needed"
    lose_everything(client, poor, rich)
    assert (chips(poor), chips(rich)) == (0, 3000)
    status, body = top_up(poor)
    assert status == 400 and body["error"]["code"] == "chips/too_soon"
    assert chips(poor) == 0
