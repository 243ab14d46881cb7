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
from app.games.cards import Card, check_deck
from app.games.hasenpfeffer import actions
from app.games.hasenpfeffer.actions import (
    Bid,
    Discard,
    HasenpfefferAction,
    NameTrump,
    Pass,
    Play,
    action_to_json,
)
from app.games.hasenpfeffer.bidding import apply_bidding, legal_bidding, random_call
from app.games.hasenpfeffer.play import (
    DISCARDS,
    NAME_TRUMP,
    PLAYS,
    apply_discard,
    apply_play,
    apply_trump,
    legal_discard,
    legal_play,
    legal_trump,
    playable_cards,
)
from app.games.hasenpfeffer.state import (
    BIDDING,
    DISCARD,
    FINISHED,
    NEEDS_DEAL,
    OPTION_SPECS,
    PLAY,
    SEATS,
    TEAMS,
    TRUMP,
    HasenpfefferState,
    Options,
    Phase,
    evolve,
    make_options,
    seats_to_act,
)
from app.games.hasenpfeffer.trumps import DECK, SORT_KEYS, SUIT_PLURALS
from app.games.hasenpfeffer.view import hidden_cards, view

PACKET = 3
_FRESH_DEAL = {
    "phase": BIDDING, "auction": (), "bidder": None, "contract": None, "forced": False,
    "trump": None, "discard": None, "leader": 0, "trick": (), "completed": (), "tricks": (0, 0),
}
"""What a new deal resets (HP-4); the options, dealer and scores carry over."""
_NEW_MATCH = HasenpfefferState(options=Options(), phase=NEEDS_DEAL, dealer=0)
FULL_DECK = frozenset(DECK)
Legal = Callable[[HasenpfefferState, int], list[JSON]]

_LEGAL: dict[Phase, Legal] = {
    BIDDING: legal_bidding, TRUMP: legal_trump, DISCARD: legal_discard,
    PLAY: legal_play,
}


def deal_hands(deck: Sequence[Card], dealer: int) -> tuple[tuple[tuple[Card, ...], ...], Card]:
    """Packets of 3 clockwise from the dealer's left, twice round; the 25th card is the widow
    (HP-4, example 2)."""
    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    for packet in range(2 * SEATS):
        seat = (dealer + 1 + packet) % SEATS
        hands[seat].extend(deck[PACKET * packet:PACKET * (packet + 1)])
    return (tuple(tuple(sorted(hand, key=SORT_KEYS.__getitem__)) for hand in hands),
            deck[2 * SEATS * PACKET])


class HasenpfefferEngine:
    """Hasenpfeffer for four players in two partnerships (rules: ``hasenpfeffer.md``)."""

    name: str = "hasenpfeffer"
    title: str = "Hasenpfeffer"
    min_seats: int = SEATS
    max_seats: int = SEATS
    option_specs: tuple[OptionSpec, ...] = OPTION_SPECS
    chips = None
    drafts = None

    def full_deck(self) -> tuple[Card, ...]:
        return DECK

    def make_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return make_options(raw)

    def start(self, options: Mapping[str, Any], seating: Seating) -> HasenpfefferState:
        if seating.players != SEATS:
            raise InvalidOptions(f"Hasenpfeffer is for exactly {SEATS} players (HP-1), "
                                 f"not {seating.players}", code="options/seats")
        if not 0 <= seating.first_dealer < SEATS:
            raise InvalidOptions(f"first dealer {seating.first_dealer!r} is not a seat 0..3",
                                 code="options/seats")
        return evolve(_NEW_MATCH, options=Options.from_mapping(options),
                      dealer=seating.first_dealer)

    def needs_deck(self, state: HasenpfefferState) -> bool:
        return state.phase is NEEDS_DEAL

    def deal(self, state: HasenpfefferState, deck: Sequence[Card]) -> Transition[HasenpfefferState]:
        """Start the next deal from ``deck`` (top first); the dealer's left speaks first
        (HP-4, HP-5). The dealer has already passed left after the previous deal."""
        if state.phase is FINISHED:
            raise GameOver("the match is over: no more deals")
        if state.phase is not NEEDS_DEAL:
            raise IllegalAction("a deal is still being played", code="action/deal_in_progress")
        if len(deck) != len(DECK) or set(deck) != FULL_DECK:
            check_deck(deck, DECK)
        hands, widow = deal_hands(deck, state.dealer)
        number = state.deal_number + 1
        after = evolve(state, **_FRESH_DEAL, deal_number=number, hands=hands, widow=widow,
                       speaker=(state.dealer + 1) % SEATS)
        return Transition(after, ({"type": "deal", "number": number, "dealer": state.dealer},))

    def has_auto_step(self, state: HasenpfefferState) -> bool:
        return False

    def auto_step(self, state: HasenpfefferState) -> Transition[HasenpfefferState]:
        raise IllegalAction("Hasenpfeffer has no automatic step", code="action/no_auto_step")

    to_act = staticmethod(seats_to_act)

    def parse_action(self, raw: Any) -> HasenpfefferAction:
        return actions.parse_action(raw)

    def action_to_json(self, action: HasenpfefferAction) -> JSON:
        return action_to_json(action)

    def legal_actions(self, state: HasenpfefferState, seat: int) -> list[JSON]:
        if seat not in seats_to_act(state):
            return []
        return _LEGAL[state.phase](state, seat)

    def random_action(self, state: HasenpfefferState, seat: int,
                      rng: random.Random) -> HasenpfefferAction:
        """One of :meth:`legal_actions`, drawn as ``rng.choice`` of that list would draw it."""
        phase = state.phase
        if phase is PLAY and _is_turn_in_play(state, seat):
            return PLAYS[rng.choice(playable_cards(state, seat))]  # HP-8
        if not (type(seat) is int and seat in seats_to_act(state)):
            _check_turn(state, seat, None)
        if phase is BIDDING:
            return random_call(state, rng)
        if phase is TRUMP:
            return rng.choice(NAME_TRUMP)
        return DISCARDS[rng.choice(state.hands[seat])]

    def apply(self, state: HasenpfefferState, seat: int,
              action: HasenpfefferAction) -> Transition[HasenpfefferState]:
        """Checks the turn, then that the action belongs to this phase, then the phase's own
        rules; nothing changes when a :class:`Rejection` is raised."""
        phase = state.phase
        if phase is PLAY and type(action) is Play and _is_turn_in_play(state, seat):
            return apply_play(state, seat, action)
        if not (type(seat) is int and seat in seats_to_act(state)):
            _check_turn(state, seat, action)
        if phase is BIDDING and isinstance(action, (Bid, Pass)):
            return apply_bidding(state, seat, action)
        if phase is TRUMP and isinstance(action, NameTrump):
            return apply_trump(state, seat, action)
        if phase is DISCARD and isinstance(action, Discard):
            return apply_discard(state, seat, action)
        raise _out_of_phase(state, action)

    def view(self, state: HasenpfefferState, seat: int | None) -> JSON:
        return view(state, seat)

    def hidden_cards(self, state: HasenpfefferState, seat: int | None) -> frozenset[Card]:
        return hidden_cards(state, seat)

    def outcome(self, state: HasenpfefferState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(winners=(state.winner,), totals=state.scores, teams=TEAMS)


def _is_turn_in_play(state: HasenpfefferState, seat: int) -> bool:
    return type(seat) is int and seat == (state.leader + len(state.trick)) % SEATS


def _check_turn(state: HasenpfefferState, seat: int, action: HasenpfefferAction | None) -> None:
    """Raises :class:`GameOver` or :class:`NotYourTurn` unless ``seat`` is awaited now."""
    what = "no action" if action is None else f"{action_to_json(action)}"
    if state.phase is FINISHED:
        raise GameOver(f"{what} refused: the match is over, team {state.winner} won "
                       f"{list(state.scores)}")
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise NotYourTurn(f"{what} refused: there is no seat {seat!r}", code="action/no_such_seat")
    awaited = seats_to_act(state)
    if seat in awaited:
        return
    if state.phase is NEEDS_DEAL:
        raise NotYourTurn(f"{what} refused: waiting for the next deal", code="action/awaiting_deal")
    if state.phase is BIDDING and seat in state.passed:
        raise NotYourTurn(f"{what} refused: seat {seat} has passed and a pass is final (HP-5); "
                          f"seat {state.speaker} is to speak", code="action/already_passed")
    if state.phase in (TRUMP, DISCARD):
        raise NotYourTurn(f"{what} refused: seat {seat} is not the bidder; only the bidder, seat "
                          f"{state.bidder}, names trump and discards (HP-7)",
                          code="action/not_bidder")
    raise NotYourTurn(f"{what} refused: it is seat {awaited[0]}'s turn, not seat {seat}'s")


def _out_of_phase(state: HasenpfefferState, action: HasenpfefferAction) -> IllegalAction:
    """Why an action of another phase is refused now, from the seat whose turn it is."""
    what = f"{action_to_json(action)} refused"
    if isinstance(action, (Bid, Pass)):
        return IllegalAction(f"{what}: the auction is over", code="action/auction_over")
    if state.phase is BIDDING and isinstance(action, NameTrump | Discard):
        return IllegalAction(f"{what}: the auction is still on; the bidder names trump and "
                             "discards after it, once he has taken the widow (HP-7)",
                             code="action/widow_not_taken")
    if isinstance(action, NameTrump):
        assert state.trump is not None
        return IllegalAction(f"{what}: trump is already named ({SUIT_PLURALS[state.trump]})",
                             code="action/trump_already_named")
    if isinstance(action, Discard):
        if state.phase is TRUMP:
            return IllegalAction(f"{what}: name trump first; the bidder takes the widow, names "
                                 "trump, then discards (HP-7)", code="action/trump_first")
        return IllegalAction(f"{what}: the bidder has already discarded (HP-7)",
                             code="action/already_discarded")
    return IllegalAction(f"{what}: play starts once the bidder has named trump and discarded "
                         "(HP-7, HP-8)", code="action/not_play_phase")


ENGINE = HasenpfefferEngine()
