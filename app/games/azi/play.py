"""Trick play (AZ-8) and the end of the deal it leads to (AZ-9), on the rules of
:mod:`app.games.azi.tricks`."""

from __future__ import annotations

from collections.abc import Mapping

from app.games.azi.actions import AziAction, Play
from app.games.azi.pot import award_pot
from app.games.azi.ranking import play_error
from app.games.azi.redeal import declare_azi
from app.games.azi.state import AziState, Phase, Step, add_at, evolve, put_at, require_turn, wrong_phase
from app.games.azi.tricks import (
    AZI,
    DECK,
    GOES_ON,
    INDEX,
    STRENGTHS,
    SUIT_INDEX,
    TEXT,
    deal_result,
    playable,
    trick_winner,
)
from app.games.base import JSON, IllegalAction
from app.games.cards import Card
from app.games.events import Event


def start_play(state: AziState, leader: int, events: list[Event]) -> Step:
    """The first trick is led by ``leader`` (AZ-7.5: the high bidder)."""
    events.append({"type": "play_start", "leader": leader})
    return evolve(state, phase=Phase.PLAY, leader=leader, turn=leader, pending=(), trick=()), events


def playable_cards(state: AziState, seat: int) -> list[Card]:
    """The cards ``seat`` may play to the current trick (AZ-8)."""
    assert state.exposed is not None
    led = SUIT_INDEX[state.trick[0][1].suit] if state.trick else None
    cards = playable([INDEX[card] for card in state.hands[seat]], led, SUIT_INDEX[state.exposed.suit])
    return [DECK[card] for card in cards]


def legal_play(state: AziState, seat: int) -> list[JSON]:
    if seat != state.turn or state.exposed is None:
        return []
    return [{"kind": "play", "card": str(card)} for card in playable_cards(state, seat)]


def apply_play(state: AziState, seat: int, action: AziAction) -> Step:
    """AZ-8: follow suit, else trump, else anything; the trick closes when every player still in
    the deal has played to it."""
    require_turn(state, seat)
    if not isinstance(action, Play):
        raise wrong_phase(state, action.to_json())
    card = action.card
    if card not in playable_cards(state, seat):
        raise _refusal(state, seat, card)
    trick = (*state.trick, (seat, card))
    played = {"hands": put_at(state.hands, seat, tuple(held for held in state.hands[seat]
                                                       if held != card)),
              "played": (*state.played, (seat, card))}
    events: list[Event] = [{"type": "play", "seat": seat, "card": TEXT[card]}]
    in_deal = state.in_deal
    if len(trick) < len(in_deal):
        return evolve(state, played, trick=trick, turn=state.next_clockwise(seat, in_deal)), events
    return _close_trick(state, played, trick, events)


def _refusal(state: AziState, seat: int, card: Card) -> IllegalAction:
    hand = state.hands[seat]
    if card not in hand:
        return IllegalAction(f"{card} is not in seat {seat}'s hand", code="action/not_in_hand")
    assert state.trump is not None
    problem = play_error(hand, card, state.trick[0][1].suit if state.trick else None, state.trump)
    assert problem is not None
    message, code = problem
    return IllegalAction(f"cannot play {card}: {message}", code=code)


def _close_trick(state: AziState, played: Mapping[str, object], trick: tuple[tuple[int, Card], ...],
                 events: list[Event]) -> Step:
    """AZ-8/AZ-9: the last card of ``trick`` was ``played``; the winner leads next; two tricks win
    the game, three single tricks are an Azi."""
    assert state.exposed is not None
    strength = STRENGTHS[SUIT_INDEX[state.exposed.suit], state.six_on_scene]
    winner = trick_winner([(seat, INDEX[card]) for seat, card in trick], strength)
    won = add_at(state.tricks_won, winner, 1)
    events.append({"type": "trick", "number": sum(won), "winner": winner,
                   "cards": [{"seat": seat, "card": TEXT[card]} for seat, card in trick]})
    state = evolve(state, played, tricks_won=won, tricks=(*state.tricks, (winner, trick)),
                   trick=(), leader=winner, turn=winner)
    result = deal_result(won, winner)
    if result == GOES_ON:
        return state, events
    if result == AZI:
        return declare_azi(state, events)
    return award_pot(state, winner, "tricks", events)
