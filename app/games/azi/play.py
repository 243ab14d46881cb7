"""Trick play (AZ-8) and the end of the deal it leads to (AZ-9)."""

from __future__ import annotations

from dataclasses import replace

from app.games.base import JSON, IllegalAction

from .actions import AziAction, Play
from .ranking import play_error, playable, trick_winner
from .settling import Step, award_pot, declare_azi
from .state import (
    TRICKS_PER_DEAL,
    TRICKS_TO_WIN,
    AziState,
    Phase,
    add_at,
    require_turn,
    wrong_phase,
)


def start_play(state: AziState, leader: int, events: list[JSON]) -> Step:
    """The first trick is led by ``leader`` (AZ-7.5: the high bidder)."""
    events.append({"type": "play_start", "leader": leader})
    return replace(state, phase=Phase.PLAY, leader=leader, turn=leader, pending=(), trick=()), events


def led_suit(state: AziState) -> str | None:
    return state.trick[0][1].suit if state.trick else None


def legal_play(state: AziState, seat: int) -> list[JSON]:
    if seat != state.turn or state.trump is None:
        return []
    cards = playable(state.hands[seat], led_suit(state), state.trump)
    return [{"kind": "play", "card": str(card)} for card in cards]


def apply_play(state: AziState, seat: int, action: AziAction) -> Step:
    """AZ-8: follow suit, else trump, else anything; the trick closes when every player still in
    the deal has played to it."""
    require_turn(state, seat)
    if not isinstance(action, Play):
        raise wrong_phase(state, action.to_json())
    _check_card(state, seat, action)
    hand = tuple(card for card in state.hands[seat] if card != action.card)
    state = state.with_seat("hands", seat, hand)
    state = replace(state, trick=(*state.trick, (seat, action.card)),
                    played=(*state.played, (seat, action.card)))
    events: list[JSON] = [{"type": "play", "seat": seat, "card": str(action.card)}]
    if len(state.trick) < len(state.in_deal):
        return replace(state, turn=state.clockwise_after(seat, state.in_deal)[0]), events
    return _close_trick(state, events)


def _check_card(state: AziState, seat: int, action: Play) -> None:
    hand = state.hands[seat]
    if action.card not in hand:
        raise IllegalAction(f"{action.card} is not in seat {seat}'s hand", code="action/not_in_hand")
    assert state.trump is not None
    problem = play_error(hand, action.card, led_suit(state), state.trump)
    if problem is not None:
        message, code = problem
        raise IllegalAction(f"cannot play {action.card}: {message}", code=code)


def _close_trick(state: AziState, events: list[JSON]) -> Step:
    """AZ-8/AZ-9: the winner leads next; two tricks win the game, three single tricks are an
    Azi."""
    assert state.trump is not None
    winner = trick_winner(state.trick, state.trump, state.six_on_scene)
    won = add_at(state.tricks_won, winner, 1)
    number = sum(won)
    events.append({"type": "trick", "number": number, "winner": winner,
                   "cards": [{"seat": seat, "card": str(card)} for seat, card in state.trick]})
    state = replace(state, tricks_won=won, tricks=(*state.tricks, (winner, state.trick)),
                    trick=(), leader=winner, turn=winner)
    if won[winner] == TRICKS_TO_WIN:
        return award_pot(state, winner, "tricks", events)
    if number == TRICKS_PER_DEAL:
        return declare_azi(state, events)
    return state, events
