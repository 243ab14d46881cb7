"""Hazari tables for the protocol tests: fixed hands, their arrangements, decks that deal them."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack

from support import Client, Message, deck_for_hands, seat_all

# Hands built so that every group is easy to rank by eye (HZ-5): one player holds four troys.
STRONG = "AS AH AD KS KH KD QS QH QD JS JH JD 2C"
SECOND = "10S 10H 10D 9S 9H 9D 8S 8H 8D 7S 7H 7D 3C"
THIRD = "6S 6H 6D 5S 5H 5D 4S 4H 4D 3S 3H 3D 4C"
CLUBS = "AC KC QC JC 10C 9C 8C 7C 6C 5C 2S 2H 2D"
GROUPS = {
    STRONG: [["AS", "AH", "AD"], ["KS", "KH", "KD"], ["QS", "QH", "QD"], ["JS", "JH", "JD", "2C"]],
    SECOND: [["10S", "10H", "10D"], ["9S", "9H", "9D"], ["8S", "8H", "8D"], ["7S", "7H", "7D", "3C"]],
    THIRD: [["6S", "6H", "6D"], ["5S", "5H", "5D"], ["4S", "4H", "4D"], ["3S", "3H", "3D", "4C"]],
    CLUBS: [["2S", "2H", "2D"], ["AC", "KC", "QC"], ["JC", "10C", "9C"], ["8C", "7C", "6C", "5C"]],
}


def hazari_order(dealer: int, i: int) -> int:
    """HZ-3: one card at a time, starting at dealer+1, counter-clockwise (increasing seat)."""
    return (dealer + 1 + i) % 4


def deck_giving(strong_seat: int, dealer: int) -> list[str]:
    others = [SECOND, THIRD, CLUBS]
    hands = [""] * 4
    hands[strong_seat] = STRONG
    for offset, hand in enumerate(others, start=1):
        hands[(strong_seat + offset) % 4] = hand
    return deck_for_hands([hand.split() for hand in hands], dealer, hazari_order)


def hand_text(state: Message) -> str:
    hand = state["view"]["hand"]
    for text in GROUPS:
        if sorted(text.split()) == sorted(hand):
            return text
    raise AssertionError(f"unexpected hand {hand}")


SEAT_ONE_WINS = deck_giving(1, dealer=0)


def hazari_match(players: Sequence[Client]) -> str:
    """A Hazari match to 300 between the four ``players`` (in seat order) that ends after one deal,
    won by seat 1 with all 360 points. Returns the match id."""
    room_id = players[0].create_room("hazari", {"target": 300, "decks": [SEAT_ONE_WINS],
                                                "first_dealer": 0}, private=True)
    with ExitStack() as stack:
        seat_all(players, room_id, stack)
        players[0].send({"type": "start"})
        for player in players:
            state = player.state_where(lambda m: m["view"]["phase"] == "arranging")
            player.act({"kind": "up", "groups": GROUPS[hand_text(state)]})
        final = players[0].state_where(lambda m: m["room"]["status"] == "finished")
    match_id: str = final["room"]["match_id"]
    return match_id


DECKS = [deck_giving(1, dealer=0)] * 20


def arranging(player: Client, deal: int = 1) -> Message:
    return player.state_where(lambda m: m["view"].get("deal_number") == deal
                                        and m["view"]["phase"] == "arranging")


def up(player: Client, ref: str, deal: int = 1) -> None:
    player.act({"kind": "up", "groups": GROUPS[hand_text(arranging(player, deal))]}, ref=ref)


def start(players: list[Client], stack: ExitStack, **options: object) -> str:
    room_id = players[0].create_room("hazari", {"decks": DECKS, "first_dealer": 0, **options})
    seat_all(players, room_id, stack)
    players[0].send({"type": "start"})
    for player in players:
        arranging(player)
    return room_id
