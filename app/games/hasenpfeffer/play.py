"""Naming trump and discarding (HP-7), then the six tricks (HP-8)."""

from __future__ import annotations

from collections.abc import Sequence

from app.games.base import JSON, IllegalAction, Transition
from app.games.cards import SUITS, Card, card_texts
from app.games.events import Event
from app.games.hasenpfeffer.actions import (
    Discard,
    HasenpfefferAction,
    NameTrump,
    Play,
    action_to_json,
)
from app.games.hasenpfeffer.scoring import score_deal
from app.games.hasenpfeffer.state import (
    DISCARD,
    PLAY,
    SEATS,
    TRICKS_PER_DEAL,
    HasenpfefferState,
    Trick,
    evolve,
    team_of,
)
from app.games.hasenpfeffer.trumps import (
    DECK,
    TRUMP_ORDERS,
    follow_reason,
    playable,
    trick_winner,
)

TEXT = {card: str(card) for card in DECK}
NAME_TRUMP = tuple(NameTrump(suit) for suit in SUITS)
DISCARDS = {card: Discard(card) for card in DECK}
PLAYS = {card: Play(card) for card in DECK}


def legal_trump(state: HasenpfefferState, seat: int) -> list[JSON]:
    if seat != state.bidder:
        return []
    return [{"kind": "trump", "suit": suit} for suit in SUITS]


def apply_trump(state: HasenpfefferState, seat: int,
                action: HasenpfefferAction) -> Transition[HasenpfefferState]:
    """The bidder names one of the four suits; there is no no-trump (HP-7)."""
    assert isinstance(action, NameTrump)
    after = evolve(state, phase=DISCARD, trump=action.suit)
    return Transition(after, ({"type": "trump", "seat": seat, "suit": action.suit},))


def legal_discard(state: HasenpfefferState, seat: int) -> list[JSON]:
    if seat != state.bidder:
        return []
    return [{"kind": "discard", "card": TEXT[card]} for card in state.hands[seat]]


def apply_discard(state: HasenpfefferState, seat: int,
                  action: HasenpfefferAction) -> Transition[HasenpfefferState]:
    """Any of the bidder's seven cards goes face down out of play, even the widow card or the
    Joker (HP-7); then the first lead is the dealer's left, or the bidder by option (HP-8)."""
    assert isinstance(action, Discard)
    _check_held(state, seat, action)
    hands = list(state.hands)
    hands[seat] = tuple(card for card in hands[seat] if card != action.card)
    leader = seat if state.options.first_lead == "bidder" else (state.dealer + 1) % SEATS
    after = evolve(state, phase=PLAY, hands=tuple(hands), discard=action.card,
                   leader=leader)
    return Transition(after, ({"type": "discarded", "seat": seat},
                              {"type": "lead", "seat": leader, "trick": 1}))


def legal_play(state: HasenpfefferState, seat: int) -> list[JSON]:
    if seat != state.turn:
        return []
    return [{"kind": "play", "card": TEXT[card]} for card in playable_cards(state, seat)]


def apply_play(state: HasenpfefferState, seat: int,
               action: HasenpfefferAction) -> Transition[HasenpfefferState]:
    """Play a card, following the led card's effective suit if possible (HP-8)."""
    assert isinstance(action, Play)
    card = action.card
    hand = state.hands[seat]
    if card not in hand:
        raise _not_held(state, seat, action)
    place = hand.index(card)
    trick = state.trick
    if trick:
        assert state.trump is not None
        suit_of = TRUMP_ORDERS[state.trump].suit_of
        led = suit_of[trick[0]]
        if suit_of[card] != led:
            for held in hand:
                if suit_of[held] == led:
                    raise _follow_rejection(state, seat, card)
    hands = list(state.hands)
    hands[seat] = hand[:place] + hand[place + 1:]
    trick = trick + (card,)
    event: Event = {"type": "play", "seat": seat, "card": TEXT[card]}
    if len(trick) < SEATS:
        return Transition(evolve(state, hands=tuple(hands), trick=trick), (event,))
    return _complete_trick(state, tuple(hands), trick, event)


def playable_cards(state: HasenpfefferState, seat: int) -> Sequence[Card]:
    """The cards of ``seat`` that may go to the current trick (HP-8)."""
    assert state.trump is not None
    return playable(state.hands[seat], state.trick[0] if state.trick else None, state.trump)


def _check_held(state: HasenpfefferState, seat: int, action: Discard | Play) -> None:
    if action.card not in state.hands[seat]:
        raise _not_held(state, seat, action)


def _not_held(state: HasenpfefferState, seat: int, action: Discard | Play) -> IllegalAction:
    return IllegalAction(f"{action_to_json(action)} refused: seat {seat} does not hold "
                         f"{action.card}; the hand is {card_texts(state.hands[seat])}",
                         code="action/card_not_held")


def _follow_rejection(state: HasenpfefferState, seat: int, card: Card) -> IllegalAction:
    assert state.trump is not None
    led = state.trick[0]
    led_suit = TRUMP_ORDERS[state.trump].suit_of[led]
    ok = card_texts(playable_cards(state, seat))
    return IllegalAction(
        f"{card} breaks the follow rule (HP-8): {led} was led, so seat {seat} "
        f"{follow_reason(led_suit, state.trump)}; it may play {' '.join(ok)}",
        code="action/must_follow")


def _complete_trick(state: HasenpfefferState, hands: tuple[tuple[Card, ...], ...],
                    trick: tuple[Card, ...], event: Event) -> Transition[HasenpfefferState]:
    """The highest trump, else the highest card of the led suit, wins; its player leads next
    (HP-8). After the sixth trick the deal is scored (HP-9)."""
    assert state.trump is not None
    winner = (state.leader + trick_winner(trick, state.trump)) % SEATS
    team = team_of(winner)
    tricks = (state.tricks[0] + 1, state.tricks[1]) if team == 0 else (
        state.tricks[0], state.tricks[1] + 1)
    number = tricks[0] + tricks[1]
    done: Event = {"type": "trick", "number": number, "leader": state.leader,
                  "cards": [TEXT[card] for card in trick], "winner": winner, "team": team}
    after = evolve(state, hands=hands, trick=(),
                   completed=state.completed + (Trick(state.leader, trick, winner),),
                   tricks=tricks, leader=winner)
    if number < TRICKS_PER_DEAL:
        return Transition(after, (event, done))
    scored = score_deal(after)
    return Transition(scored.state, (event, done) + scored.events)
