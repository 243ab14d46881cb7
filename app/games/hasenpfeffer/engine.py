"""The Hasenpfeffer engine: the shared :class:`~app.games.base.Engine` interface over the
per-phase rules in ``bidding``, ``play`` and ``scoring``."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.games.base import (
    JSON,
    GameOver,
    IllegalAction,
    InvalidOptions,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Seating,
    Transition,
)
from app.games.cards import Card, check_deck, hasenpfeffer_deck

from . import actions
from .actions import Action, Bid, Discard, NameTrump, Pass, Play, action_to_json
from .bidding import apply_bidding, legal_bidding
from .play import apply_discard, apply_play, apply_trump, legal_discard, legal_play, legal_trump
from .state import OPTION_SPECS, SEATS, TEAMS, Options, Phase, State, make_options, seats_to_act
from .trumps import SUIT_PLURALS, sort_key
from .view import hidden_cards, view

PACKET = 3
Apply = Callable[[State, int, Action], Transition[State]]
Legal = Callable[[State, int], list[JSON]]

_ACCEPTS: dict[Phase, tuple[type, ...]] = {
    Phase.BIDDING: (Bid, Pass), Phase.TRUMP: (NameTrump,), Phase.DISCARD: (Discard,),
    Phase.PLAY: (Play,),
}
_APPLY: dict[Phase, Apply] = {
    Phase.BIDDING: apply_bidding, Phase.TRUMP: apply_trump, Phase.DISCARD: apply_discard,
    Phase.PLAY: apply_play,
}
_LEGAL: dict[Phase, Legal] = {
    Phase.BIDDING: legal_bidding, Phase.TRUMP: legal_trump, Phase.DISCARD: legal_discard,
    Phase.PLAY: legal_play,
}


def deal_hands(deck: Sequence[Card], dealer: int) -> tuple[tuple[tuple[Card, ...], ...], Card]:
    """Packets of 3 clockwise from the dealer's left, twice round; the 25th card is the widow
    (HP-4, example 2)."""
    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    for packet in range(2 * SEATS):
        seat = (dealer + 1 + packet) % SEATS
        hands[seat].extend(deck[PACKET * packet:PACKET * (packet + 1)])
    return tuple(tuple(sorted(hand, key=sort_key)) for hand in hands), deck[2 * SEATS * PACKET]


class HasenpfefferEngine:
    """Hasenpfeffer for four players in two partnerships (rules: ``hasenpfeffer.md``)."""

    name: str = "hasenpfeffer"
    title: str = "Hasenpfeffer"
    min_seats: int = SEATS
    max_seats: int = SEATS
    option_specs: tuple[OptionSpec, ...] = OPTION_SPECS
    chips = None

    def full_deck(self) -> tuple[Card, ...]:
        return hasenpfeffer_deck()

    def make_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return make_options(raw)

    def start(self, options: Mapping[str, Any], seating: Seating) -> State:
        if seating.players != SEATS:
            raise InvalidOptions(f"Hasenpfeffer is for exactly {SEATS} players (HP-1), "
                                 f"not {seating.players}", code="options/seats")
        if not 0 <= seating.first_dealer < SEATS:
            raise InvalidOptions(f"first dealer {seating.first_dealer!r} is not a seat 0..3",
                                 code="options/seats")
        return State(options=Options.from_mapping(options), phase=Phase.NEEDS_DEAL,
                     dealer=seating.first_dealer)

    def needs_deck(self, state: State) -> bool:
        return state.phase is Phase.NEEDS_DEAL

    def deal(self, state: State, deck: Sequence[Card]) -> Transition[State]:
        """Start the next deal from ``deck`` (top first); the dealer's left speaks first
        (HP-4, HP-5). The dealer has already passed left after the previous deal."""
        if state.phase is Phase.FINISHED:
            raise GameOver("the match is over: no more deals")
        if state.phase is not Phase.NEEDS_DEAL:
            raise IllegalAction("a deal is still being played", code="action/deal_in_progress")
        check_deck(deck, self.full_deck())
        hands, widow = deal_hands(deck, state.dealer)
        number = state.deal_number + 1
        after = State(options=state.options, phase=Phase.BIDDING, dealer=state.dealer,
                      deal_number=number, scores=state.scores, hands=hands, widow=widow,
                      speaker=(state.dealer + 1) % SEATS)
        return Transition(after, ({"type": "deal", "number": number, "dealer": state.dealer},))

    def has_auto_step(self, state: State) -> bool:
        return False

    def auto_step(self, state: State) -> Transition[State]:
        raise IllegalAction("Hasenpfeffer has no automatic step", code="action/no_auto_step")

    def to_act(self, state: State) -> tuple[int, ...]:
        return seats_to_act(state)

    def parse_action(self, raw: Any) -> Action:
        return actions.parse_action(raw)

    def action_to_json(self, action: Action) -> JSON:
        return action_to_json(action)

    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        if seat not in seats_to_act(state):
            return []
        return _LEGAL[state.phase](state, seat)

    def random_action(self, state: State, seat: int, rng: random.Random) -> Action:
        legal = self.legal_actions(state, seat)
        if not legal:
            _check_turn(state, seat, None)
        return actions.parse_action(rng.choice(legal))

    def apply(self, state: State, seat: int, action: Action) -> Transition[State]:
        """Checks the turn, then that the action belongs to this phase, then the phase's own
        rules; nothing changes when a :class:`Rejection` is raised."""
        _check_turn(state, seat, action)
        if not isinstance(action, _ACCEPTS[state.phase]):
            raise _out_of_phase(state, action)
        return _APPLY[state.phase](state, seat, action)

    def view(self, state: State, seat: int | None) -> JSON:
        return view(state, seat)

    def hidden_cards(self, state: State, seat: int | None) -> frozenset[Card]:
        return hidden_cards(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(winners=(state.winner,), totals=state.scores, teams=TEAMS)


def _check_turn(state: State, seat: int, action: Action | None) -> None:
    """Raises :class:`GameOver` or :class:`NotYourTurn` unless ``seat`` is awaited now."""
    what = "no action" if action is None else f"{action_to_json(action)}"
    if state.phase is Phase.FINISHED:
        raise GameOver(f"{what} refused: the match is over, team {state.winner} won "
                       f"{list(state.scores)}")
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise NotYourTurn(f"{what} refused: there is no seat {seat!r}", code="action/no_such_seat")
    awaited = seats_to_act(state)
    if seat in awaited:
        return
    if state.phase is Phase.NEEDS_DEAL:
        raise NotYourTurn(f"{what} refused: waiting for the next deal", code="action/awaiting_deal")
    if state.phase is Phase.BIDDING and seat in state.passed:
        raise NotYourTurn(f"{what} refused: seat {seat} has passed and a pass is final (HP-5); "
                          f"seat {state.speaker} is to speak", code="action/already_passed")
    if state.phase in (Phase.TRUMP, Phase.DISCARD):
        raise NotYourTurn(f"{what} refused: seat {seat} is not the bidder; only the bidder, seat "
                          f"{state.bidder}, names trump and discards (HP-7)",
                          code="action/not_bidder")
    raise NotYourTurn(f"{what} refused: it is seat {awaited[0]}'s turn, not seat {seat}'s")


def _out_of_phase(state: State, action: Action) -> IllegalAction:
    """Why an action of another phase is refused now, from the seat whose turn it is."""
    what = f"{action_to_json(action)} refused"
    if isinstance(action, Bid | Pass):
        return IllegalAction(f"{what}: the auction is over", code="action/auction_over")
    if state.phase is Phase.BIDDING and isinstance(action, NameTrump | Discard):
        return IllegalAction(f"{what}: the auction is still on; the bidder names trump and "
                             "discards after it, once he has taken the widow (HP-7)",
                             code="action/widow_not_taken")
    if isinstance(action, NameTrump):
        assert state.trump is not None
        return IllegalAction(f"{what}: trump is already named ({SUIT_PLURALS[state.trump]})",
                             code="action/trump_already_named")
    if isinstance(action, Discard):
        if state.phase is Phase.TRUMP:
            return IllegalAction(f"{what}: name trump first; the bidder takes the widow, names "
                                 "trump, then discards (HP-7)", code="action/trump_first")
        return IllegalAction(f"{what}: the bidder has already discarded (HP-7)",
                             code="action/already_discarded")
    return IllegalAction(f"{what}: play starts once the bidder has named trump and discarded "
                         "(HP-7, HP-8)", code="action/not_play_phase")
