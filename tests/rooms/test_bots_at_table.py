"""Bots at the table, through the ASGI app: seated by the owner, replaced by a person before the start,
playing whole matches, and the strong bot's hint sent to the asking seat alone."""

from __future__ import annotations

from contextlib import ExitStack

from starlette.testclient import TestClient
from support import Client, Message

from app.games.cards import parse_cards
from app.games.hazari.arrangements import is_valid


def seated(player: Client, seat: int) -> Message:
    return player.state_where(lambda m: m["room"]["seats"][seat]["player_id"] == player.id)


def test_one_person_and_three_bots_play_a_whole_hazari_match(client: TestClient) -> None:
    owner = Client(client, "Solo")
    room_id = owner.create_room("hazari", {"target": 500})
    with owner.connected(room_id):
        owner.send({"type": "sit", "seat": 0})
        seated(owner, 0)
        for seat, level in ((1, "strong"), (2, "random"), (3, "strong")):
            owner.send({"type": "add_bot", "seat": seat, "level": level})
        state = owner.state_where(lambda m: all(s["bot"] for s in m["room"]["seats"][1:]))
        assert [s["bot_level"] for s in state["room"]["seats"][1:]] == ["strong", "random", "strong"]
        owner.send({"type": "start"})
        while True:
            state = owner.state_where(lambda m: m["view"]["phase"] == "finished" or bool(m["legal"]))
            if state["view"]["phase"] == "finished":
                break
            owner.send({"type": "hint"})
            hint = owner.until(lambda m: m["type"] == "hint")
            assert is_valid(parse_cards(state["view"]["hand"]),
                            [parse_cards(group) for group in hint["action"]["groups"]])
            owner.act(hint["action"])
            owner.state_where(lambda m: not m["legal"])
    assert max(state["view"]["scores"]) >= 500
    detail = client.get(f"/api/matches/{state['room']['match_id']}").json()
    assert [seat["bot"] for seat in detail["seats"]] == [False, True, True, True]
    assert all(seat["player_id"] is None for seat in detail["seats"][1:])
    bot_moves = [entry for entry in detail["actions"] if entry["seat"] in (1, 2, 3)]
    assert len(bot_moves) == 3 * len(detail["deals"])


def test_a_person_takes_a_bots_seat_before_the_start_but_not_after(client: TestClient) -> None:
    owner, friend = Client(client, "Owner"), Client(client, "Friend")
    room_id = owner.create_room("hazari")
    with owner.connected(room_id), friend.connected(room_id):
        owner.send({"type": "add_bot", "seat": 1})
        owner.state_where(lambda m: m["room"]["seats"][1]["bot"])
        friend.send({"type": "add_bot", "seat": 2})
        assert friend.error()["code"] == "room/not_owner"
        friend.send({"type": "sit", "seat": 1})
        state = seated(friend, 1)
        assert state["room"]["seats"][1]["bot"] is False
        owner.send({"type": "sit", "seat": 0})
        seated(owner, 0)
        for seat in (2, 3):
            owner.send({"type": "add_bot", "seat": seat})
        owner.state_where(lambda m: m["room"]["seats"][3]["bot"])
        owner.send({"type": "start"})
        owner.state_where(lambda m: m["view"]["phase"] == "arranging")
        friend.send({"type": "sit", "seat": 2})
        assert friend.error()["code"] == "room/seat_taken"


def test_the_hint_goes_to_the_asking_seat_only(client: TestClient) -> None:
    players = [Client(client, f"H{seat}") for seat in range(2)]
    room_id = players[0].create_room("hazari")
    spectator = Client(client, None)
    with ExitStack() as stack:
        for seat, player in enumerate(players):
            stack.enter_context(player.connected(room_id))
            player.send({"type": "sit", "seat": seat})
            seated(player, seat)
        for seat in (2, 3):
            players[0].send({"type": "add_bot", "seat": seat})
        players[0].state_where(lambda m: m["room"]["seats"][3]["bot"])
        stack.enter_context(spectator.connected(room_id))
        players[0].send({"type": "start"})
        players[1].state_where(lambda m: m["view"]["phase"] == "arranging")
        players[0].state_where(lambda m: m["view"]["phase"] == "arranging")
        players[1].send({"type": "hint"})
        hint = players[1].until(lambda m: m["type"] == "hint")
        assert hint["action"]["kind"] == "up"
        spectator.send({"type": "hint"})
        assert spectator.error()["code"] == "auth/spectator"
        players[1].act(hint["action"])
        after = players[0].state_where(lambda m: m["view"]["up"][1])
        assert after["version"] > hint["version"]
        spectator.state_where(lambda m: m["view"]["up"][1])
    assert [m for m in players[0].received + spectator.received if m["type"] == "hint"] == []
