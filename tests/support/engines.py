"""Helpers of the engine tests: stacked decks and moves written short."""

from __future__ import annotations

from app.games.azi import AziState
from app.games.base import JSON
from app.games.cards import Card, azi_deck, parse_cards


def stacked_deck(state: AziState, hands: dict[int, str]) -> list[Card]:
    """A deck that deals ``hands`` (in each hand's order) to the participants of the next deal,
    one card at a time clockwise from the button; the other cards follow in pack order."""
    seats = state.seats
    ring = [(state.button + step) % seats for step in range(1, seats + 1)]
    order = [seat for seat in ring if seat in hands]
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    size = len(cards[order[0]])
    top = [cards[order[i % len(order)]][i // len(order)] for i in range(size * len(order))]
    return top + [card for card in azi_deck() if card not in top]


def plays(*moves: str) -> list[tuple[int, JSON]]:
    """``"1:AS"`` -> seat 1 plays AS."""
    return [(int(seat), {"kind": "play", "card": card})
            for seat, card in (move.split(":") for move in moves)]
