"""A server killed with SIGKILL in the middle of a match loses nothing: the next start rebuilds every
unfinished match from its stored decks and log, and the players carry on where they were."""

from __future__ import annotations

from support.hasenpfeffer import FORCED, STANDARD_SET, STANDARD_SIX, THROWN_IN
from support.hazari import deck_giving
from support.live import LiveClient, LiveServer, call_up, seat_live


def test_a_hazari_match_survives_sigkill(server: LiveServer) -> None:
    players = [LiveClient(server, f"K{seat}") for seat in range(4)]
    decks = [deck_giving(1, dealer=0), deck_giving(0, dealer=1), deck_giving(1, dealer=2)]
    room = server.post("/api/rooms", {"game": "hazari", "options": {
        "target": 700, "decks": decks, "first_dealer": 0}}, players[0].token)
    seat_live(players, room["id"])
    players[0].send({"type": "start"})
    for player in players:
        call_up(player, 1)
    for player in players[:2]:
        call_up(player, 2)
    before = players[3].state_where(lambda m: m["view"]["up"] == [True, True, False, False]
                                    and m["view"]["deal_number"] == 2)
    hand_before = before["view"]["hand"]

    server.kill()
    for player in players:
        player.close()
    server.start()

    after = players[3].connect(room["id"])
    assert after["view"]["deal_number"] == 2 and after["view"]["up"] == [True, True, False, False]
    assert after["view"]["hand"] == hand_before
    assert after["view"]["scores"] == [0, 360, 0, 0]
    assert after["version"] == before["version"]
    for player in players[:3]:
        player.connect(room["id"])
    for player in players[2:]:
        call_up(player, 2)
    for player in players:
        call_up(player, 3)
    final = players[0].state_where(lambda m: m["view"]["phase"] == "finished")
    assert final["view"]["scores"] == [360, 720, 0, 0]
    match = server.get(f"/api/matches/{final['room']['match_id']}")
    assert match["status"] == "finished"
    assert [deal["points"] for deal in match["deals"]] == [[0, 360, 0, 0], [360, 0, 0, 0], [0, 360, 0, 0]]
    seqs = [entry["seq"] for entry in match["actions"]]
    assert seqs == list(range(1, len(seqs) + 1)), "no step lost or written twice"


def test_a_hasenpfeffer_match_survives_sigkill(server: LiveServer) -> None:
    specs = [THROWN_IN, FORCED, STANDARD_SET, STANDARD_SIX]
    players = [LiveClient(server, f"H{seat}") for seat in range(4)]
    room = server.post("/api/rooms", {"game": "hasenpfeffer", "private": True, "options": {
        "target": 10, "decks": [spec.deck() for spec in specs], "first_dealer": 0}}, players[0].token)
    seat_live(players, room["id"])
    players[0].send({"type": "start"})
    moves = [(spec.number, seat, action) for spec in specs for seat, action in spec.actions()
             if seat is not None]
    split = next(i for i, (deal, _, _) in enumerate(moves) if deal == 3) + 9
    for index, (deal, seat, action) in enumerate(moves[:split]):
        live_act(players, index, deal, seat, action)
    before = players[1].last_state
    assert before is not None and before["view"]["deal_number"] == 3

    server.kill()
    for player in players:
        player.close()
    server.start()

    after = [player.connect(room["id"]) for player in players]
    assert after[1]["view"]["hand"] == before["view"]["hand"]
    assert after[1]["view"]["completed_tricks"] == before["view"]["completed_tricks"]
    assert after[1]["version"] == before["version"]
    assert after[0]["view"]["scores"] == [4, 2]
    for index, (deal, seat, action) in enumerate(moves[split:], start=split):
        live_act(players, index, deal, seat, action)
    final = players[0].state_where(lambda m: m["view"]["phase"] == "finished")
    assert final["view"]["scores"] == [13, -2]
    match = server.get(f"/api/matches/{final['room']['match_id']}")
    assert match["result"]["winners"] == [0] and match["result"]["totals"] == [13, -2]
    assert [deal["points"] for deal in match["deals"]] == [list(spec.points) for spec in specs]


def live_act(players: list[LiveClient], index: int, deal: int, seat: int, action: dict[str, object]) -> None:
    """``seat`` sends ``action`` once the table shows that deal waiting for it, and every seat sees
    it applied."""
    player = players[seat]
    state = player.state_where(lambda m: m["view"].get("deal_number") == deal and seat in m["view"]["to_act"])
    player.send({"type": "act", "id": f"move-{index}", "action": action})
    for other in players:
        other.state_where(lambda m, v=state["version"]: m["version"] > v)
