"""Naming trump and discarding (HP-7), then the six tricks (HP-8)."""

from __future__ import annotations

from dataclasses import replace

from app.games.base import JSON, IllegalAction, Transition
from app.games.cards import SUITS, Card, card_texts

from .actions import Action, Discard, NameTrump, Play, action_to_json
from .scoring import score_deal
from .state import SEATS, TRICKS_PER_DEAL, Phase, State, Trick, team_of
from .trumps import effective_suit, follow_reason, playable, trick_winner


def legal_trump(state: State, seat: int) -> list[JSON]:
    if seat != state.bidder:
        return []
    return [{"kind": "trump", "suit": suit} for suit in SUITS]


def apply_trump(state: State, seat: int, action: Action) -> Transition[State]:
    """The bidder names one of the four suits; there is no no-trump (HP-7)."""
    assert isinstance(action, NameTrump)
    after = replace(state, phase=Phase.DISCARD, trump=action.suit)
    return Transition(after, ({"type": "trump", "seat": seat, "suit": action.suit},))


def legal_discard(state: State, seat: int) -> list[JSON]:
    if seat != state.bidder:
        return []
    return [{"kind": "discard", "card": str(card)} for card in state.hands[seat]]


def apply_discard(state: State, seat: int, action: Action) -> Transition[State]:
    """Any of the bidder's seven cards goes face down out of play, even the widow card or the
    Joker (HP-7); then the first lead is the dealer's left, or the bidder by option (HP-8)."""
    assert isinstance(action, Discard)
    _check_held(state, seat, action)
    hands = list(state.hands)
    hands[seat] = tuple(card for card in hands[seat] if card != action.card)
    leader = seat if state.options.first_lead == "bidder" else (state.dealer + 1) % SEATS
    after = replace(state, phase=Phase.PLAY, hands=tuple(hands), discard=action.card,
                    leader=leader)
    return Transition(after, ({"type": "discarded", "seat": seat},
                              {"type": "lead", "seat": leader, "trick": 1}))


def legal_play(state: State, seat: int) -> list[JSON]:
    if seat != state.turn:
        return []
    return [{"kind": "play", "card": str(card)} for card in _playable(state, seat)]


def apply_play(state: State, seat: int, action: Action) -> Transition[State]:
    """Play a card, following the led card's effective suit if possible (HP-8)."""
    assert isinstance(action, Play)
    _check_held(state, seat, action)
    if action.card not in _playable(state, seat):
        raise _follow_rejection(state, seat, action.card)
    hands = list(state.hands)
    hands[seat] = tuple(card for card in hands[seat] if card != action.card)
    after = replace(state, hands=tuple(hands), trick=state.trick + (action.card,))
    event: JSON = {"type": "play", "seat": seat, "card": str(action.card)}
    if len(after.trick) < SEATS:
        return Transition(after, (event,))
    done = _complete_trick(after)
    return Transition(done.state, (event,) + done.events)


def _playable(state: State, seat: int) -> tuple[Card, ...]:
    assert state.trump is not None
    led = state.trick[0] if state.trick else None
    return playable(state.hands[seat], led, state.trump)


def _check_held(state: State, seat: int, action: Discard | Play) -> None:
    if action.card not in state.hands[seat]:
        raise IllegalAction(f"{action_to_json(action)} refused: seat {seat} does not hold "
                            f"{action.card}; the hand is {card_texts(state.hands[seat])}",
                            code="action/card_not_held")


def _follow_rejection(state: State, seat: int, card: Card) -> IllegalAction:
    assert state.trump is not None
    led = state.trick[0]
    led_suit = effective_suit(led, state.trump)
    ok = card_texts(_playable(state, seat))
    return IllegalAction(
        f"{card} breaks the follow rule (HP-8): {led} was led, so seat {seat} "
        f"{follow_reason(led_suit, state.trump)}; it may play {' '.join(ok)}",
        code="action/must_follow")


def _complete_trick(state: State) -> Transition[State]:
    """The highest trump, else the highest card of the led suit, wins; its player leads next
    (HP-8). After the sixth trick the deal is scored (HP-9)."""
    assert state.trump is not None
    winner = (state.leader + trick_winner(state.trick, state.trump)) % SEATS
    tricks = list(state.tricks)
    tricks[team_of(winner)] += 1
    number = sum(tricks)
    event: JSON = {"type": "trick", "number": number, "leader": state.leader,
                   "cards": card_texts(state.trick), "winner": winner,
                   "team": team_of(winner)}
    done = Trick(state.leader, state.trick, winner)
    after = replace(state, trick=(), completed=state.completed + (done,),
                    tricks=(tricks[0], tricks[1]), leader=winner)
    if number < TRICKS_PER_DEAL:
        return Transition(after, (event,))
    scored = score_deal(after)
    return Transition(scored.state, (event,) + scored.events)
