"""The Azi engine behind the shared interface (``app.games.base.Engine``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.games.azi import options as azi_options
from app.games.azi import table
from app.games.azi.actions import (
    CALL,
    FOLD,
    PLAYS,
    AziAction,
    Bet,
    Leave,
    Raise,
    action_to_json,
    concrete_action,
    parse_action,
)
from app.games.azi.betting import apply_betting, bet_limit, legal_betting, raise_bounds
from app.games.azi.outcome import match_outcome
from app.games.azi.play import apply_play, legal_play, playable_cards
from app.games.azi.ranking import DECK
from app.games.azi.redeal import apply_buy_in, legal_buy_in
from app.games.azi.state import AziState, Phase, Step, to_act
from app.games.azi.view import hidden_cards, view
from app.games.base import (
    JSON,
    GameOver,
    IllegalAction,
    MoneyRules,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Seating,
    SessionEnd,
    Transition,
)
from app.games.cards import Card

_Handler = Callable[[AziState, int, AziAction], Step]
_HANDLERS: dict[Phase, _Handler] = {
    Phase.DISCARD: table.apply_discard,
    Phase.BETTING: apply_betting,
    Phase.PLAY: apply_play,
    Phase.AZI_BUY_IN: apply_buy_in,
}
_LEGAL: dict[Phase, Callable[[AziState, int], list[JSON]]] = {
    Phase.DISCARD: table.legal_discard,
    Phase.BETTING: legal_betting,
    Phase.PLAY: legal_play,
    Phase.AZI_BUY_IN: legal_buy_in,
}


class AziEngine:
    """Azi (rules file ``azi.md``): a table session of games, each of one deal plus any Azi
    re-deals, on chip stacks."""

    name = "azi"
    title = "Azi"
    min_seats = table.MIN_SEATS
    max_seats = table.MAX_SEATS
    option_specs: tuple[OptionSpec, ...] = azi_options.OPTION_SPECS
    drafts = None

    @property
    def chips(self) -> MoneyRules[AziState]:
        return _CHIPS

    def full_deck(self) -> tuple[Card, ...]:
        return DECK

    def make_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return azi_options.make_options(raw)

    def start(self, options: Mapping[str, Any], seating: Seating) -> AziState:
        return table.new_session(azi_options.AziOptions.from_mapping(options), seating)

    def needs_deck(self, state: AziState) -> bool:
        return state.phase is Phase.NEEDS_DEAL

    def deal(self, state: AziState, deck: Sequence[Card]) -> Transition[AziState]:
        return _transition(table.deal(state, deck))

    def has_auto_step(self, state: AziState) -> bool:
        """Between games the server starts the next game (AZ-14)."""
        return state.phase is Phase.GAME_OVER

    def auto_step(self, state: AziState) -> Transition[AziState]:
        return _transition(table.next_game(state))

    def close(self, state: AziState, during_game: bool = False) -> Transition[AziState]:
        """The room owner ends the session between games; an operator also during a game, which is
        then void and its pot returned (``table.close``)."""
        return _close(state, during_game)

    def to_act(self, state: AziState) -> tuple[int, ...]:
        return to_act(state)

    def parse_action(self, raw: Any) -> AziAction:
        return parse_action(raw)

    def action_to_json(self, action: AziAction) -> JSON:
        return action_to_json(action)

    def legal_actions(self, state: AziState, seat: int) -> list[JSON]:
        if not 0 <= seat < state.seats or state.left[seat]:
            return []
        if state.is_between_games:
            return [{"kind": "leave"}]
        legal = _LEGAL.get(state.phase)
        return [] if legal is None else legal(state, seat)

    def random_action(self, state: AziState, seat: int, rng: random.Random) -> AziAction:
        """Uniform over every concrete legal action (each amount of a range counts as one)."""
        if seat == state.turn and state.phase is Phase.PLAY:
            cards = playable_cards(state, seat)
            return PLAYS[cards[rng.randrange(len(cards))]]
        if seat == state.turn and state.phase is Phase.BETTING:
            return _random_bet(state, seat, rng)
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction(f"seat {seat} has no move now", code="action/no_move")
        sizes = [entry["max"] - entry["min"] + 1 if "min" in entry else 1 for entry in legal]
        pick = rng.randrange(sum(sizes))
        for entry, size in zip(legal, sizes, strict=True):
            if pick < size:
                return concrete_action(entry, pick)
            pick -= size
        raise AssertionError("unreachable")

    def apply(self, state: AziState, seat: int, action: AziAction) -> Transition[AziState]:
        if state.phase is Phase.MATCH_OVER:
            raise GameOver(f"the session is over; {action.to_json()} is refused")
        if not 0 <= seat < state.seats:
            raise NotYourTurn(f"there is no seat {seat} at this table", code="action/no_such_seat")
        if state.left[seat]:
            raise NotYourTurn(f"seat {seat} has left the table", code="action/left_table")
        if isinstance(action, Leave):
            return _transition(table.apply_leave(state, seat))
        handler = _HANDLERS.get(state.phase)
        if handler is None:
            raise NotYourTurn(f"no move is awaited in the {state.phase.value} phase; "
                              f"{action.to_json()} is refused", code="action/nothing_awaited")
        return _transition(handler(state, seat, action))

    def view(self, state: AziState, seat: int | None) -> JSON:
        return view(state, seat)

    def hidden_cards(self, state: AziState, seat: int | None) -> frozenset[Card]:
        return hidden_cards(state, seat)

    def outcome(self, state: AziState) -> Outcome | None:
        return match_outcome(state) if state.phase is Phase.MATCH_OVER else None


def _random_bet(state: AziState, seat: int, rng: random.Random) -> AziAction:
    """:meth:`AziEngine.random_action` in the betting phase, drawn as over the legal list (the
    opening bet's range; else fold, call, then the raise range)."""
    if state.high_bidder is None:
        lowest = state.options.min_bet
        return Bet(lowest + rng.randrange(bet_limit(state, seat) - lowest + 1))
    bounds = raise_bounds(state, seat)
    pick = rng.randrange(2 if bounds is None else 3 + bounds[1] - bounds[0])
    if pick < 2:
        return FOLD if pick == 0 else CALL
    assert bounds is not None
    return Raise(bounds[0] + pick - 2)


def _transition(step: Step) -> Transition[AziState]:
    state, events = step
    return Transition(state, tuple(events))


def _close(state: AziState, during_game: bool) -> Transition[AziState]:
    return _transition(table.close(state, during_game))


_CHIPS = MoneyRules(ante=lambda options: int(options["stake"]), buy_in=True,
                    session_end=SessionEnd.CLOSE, close=_close)
"""Every participant antes the stake (AZ-5) from the stack he bought in with; a session has no
target (AZ-15)."""


ENGINE = AziEngine()
