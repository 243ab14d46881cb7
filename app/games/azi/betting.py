"""The betting phase for the lead and the pot (AZ-7)."""

from __future__ import annotations

from typing import Any

from app.games.azi.actions import AziAction, Bet, Call, Fold, Raise
from app.games.azi.options import PER_PLAYER, POT_LIMIT
from app.games.azi.play import start_play
from app.games.azi.pot import award_pot
from app.games.azi.state import (
    AziState,
    Phase,
    Step,
    chips_event,
    evolve,
    paid_in,
    per_seat,
    put_at,
    require_turn,
    wrong_phase,
)
from app.games.base import JSON, IllegalAction
from app.games.events import Event


def start_betting(state: AziState, events: list[Event]) -> Step:
    """AZ-7.1: the first participant after the button who can afford the minimum bet opens; if
    nobody can, there is no betting and the first participant after the button leads."""
    zeros = per_seat(state.seats, 0)
    order = state.clockwise_after(state.button, state.in_deal)
    opener = next((seat for seat in order if state.stacks[seat] >= state.options.min_bet), None)
    if opener is None:
        state = evolve(state, bets=zeros, bids=zeros, raises=0, high=0, high_bidder=None,
                       opener=None, pending=())
        events.append({"type": "no_betting", "leader": order[0]})
        return start_play(state, order[0], events)
    events.append({"type": "betting_start", "opener": opener})
    return evolve(state, bets=zeros, bids=zeros, raises=0, high=0, high_bidder=None,
                  phase=Phase.BETTING, opener=opener, turn=opener, pending=(opener,)), events


def raise_bounds(state: AziState, seat: int) -> tuple[int, int] | None:
    """The smallest and largest total bet ``seat`` may raise to now, or None if he may not."""
    if _cap_problem(state, seat) is not None:
        return None
    lowest = state.high + state.options.min_raise
    highest = min(state.bets[seat] + state.stacks[seat], raise_limit(state, seat))
    return (lowest, highest) if lowest <= highest else None


def bet_limit(state: AziState, seat: int) -> int:
    """The largest opening bet: the stack, and at a pot-limit table the pot (never below the
    minimum bet)."""
    stack = state.stacks[seat]
    if state.options.bet_limit != POT_LIMIT:
        return stack
    return min(stack, max(state.pot, state.options.min_bet))


def raise_limit(state: AziState, seat: int) -> int:
    """The highest total bet a raise may reach under the table's limit: at a pot-limit table the
    high bet plus the pot as it would be after ``seat`` called (never below the smallest raise)."""
    lowest = state.high + state.options.min_raise
    if state.options.bet_limit != POT_LIMIT:
        return max(lowest, state.bets[seat] + state.stacks[seat])
    need = state.high - state.bets[seat]
    return max(lowest, state.high + state.pot + need)


def legal_betting(state: AziState, seat: int) -> list[JSON]:
    if seat != state.turn:
        return []
    stack = state.stacks[seat]
    if state.high_bidder is None:
        return [{"kind": "bet", "min": state.options.min_bet, "max": bet_limit(state, seat)}]
    need = state.high - state.bets[seat]
    legal: list[JSON] = [{"kind": "fold"},
                         {"kind": "call", "amount": min(need, stack), "all_in": stack <= need}]
    bounds = raise_bounds(state, seat)
    if bounds is not None:
        legal.append({"kind": "raise", "min": bounds[0], "max": bounds[1]})
    return legal


def apply_betting(state: AziState, seat: int, action: AziAction) -> Step:
    require_turn(state, seat)
    if state.high_bidder is None:
        state, events = _open(state, seat, action)
    elif isinstance(action, Call):
        state, events = _call(state, seat)
    elif isinstance(action, Raise):
        state, events = _raise(state, seat, action.to)
    elif isinstance(action, Fold):
        state, events = _fold(state, seat)
    elif isinstance(action, Bet):
        raise IllegalAction(f"{action.to_json()}: the betting is already open at {state.high}; "
                            "call, raise or fold (AZ-7.3)", code="action/already_open")
    else:
        raise wrong_phase(state, action.to_json())
    return _next(state, events)


def _open(state: AziState, seat: int, action: AziAction) -> Step:
    """AZ-7.1: the opener must bet between the minimum bet and his stack; no fold, no check."""
    minimum, stack = state.options.min_bet, state.stacks[seat]
    if isinstance(action, Fold):
        raise IllegalAction(f"seat {seat} opens the betting and may not fold; bet at least "
                            f"{minimum} (AZ-7.1)", code="action/opener_cannot_fold")
    if isinstance(action, Call | Raise):
        raise IllegalAction(f"{action.to_json()}: seat {seat} opens the betting and must bet at "
                            f"least {minimum} (AZ-7.1)", code="action/must_open")
    if not isinstance(action, Bet):
        raise wrong_phase(state, action.to_json())
    if action.amount < minimum:
        raise IllegalAction(f"a bet of {action.amount} is below the minimum opening bet of "
                            f"{minimum} (AZ-7.1)", code="action/bet_below_minimum")
    if action.amount > stack:
        raise IllegalAction(f"a bet of {action.amount} is more than seat {seat}'s stack of "
                            f"{stack} (AZ-7.1)", code="action/bet_above_stack")
    if action.amount > bet_limit(state, seat):
        raise IllegalAction(f"a bet of {action.amount} is more than the pot of {state.pot}: this table "
                            "allows no bet above the pot", code="action/bet_above_limit")
    return _bid(state, seat, action.amount, "bet", raises=0)


def _raise(state: AziState, seat: int, to: int) -> Step:
    """AZ-7.3: a raise to ``to`` needs a free bid, ``to >= high + min_raise`` and the chips."""
    problem = _cap_problem(state, seat)
    if problem is not None:
        message, code = problem
        raise IllegalAction(f"cannot raise to {to}: {message}", code=code)
    lowest = state.high + state.options.min_raise
    highest = state.bets[seat] + state.stacks[seat]
    if highest < lowest:
        raise IllegalAction(f"cannot raise to {to}: seat {seat}'s chips reach a bet of {highest}, "
                            f"short of the smallest raise to {lowest}; only call or fold (AZ-7.3)",
                            code="action/cannot_raise")
    if to < lowest:
        raise IllegalAction(f"a raise to {to} is below the high bet {state.high} plus the minimum "
                            f"raise {state.options.min_raise}: raise to at least {lowest} (AZ-7.3)",
                            code="action/raise_too_small")
    if to > highest:
        raise IllegalAction(f"a raise to {to} needs {to - state.bets[seat]} chips and seat {seat} "
                            f"has {state.stacks[seat]} (AZ-7.3)", code="action/raise_above_stack")
    if to > raise_limit(state, seat):
        raise IllegalAction(f"a raise to {to} is more than the pot limit allows: at most "
                            f"{raise_limit(state, seat)} (the high bet {state.high} plus the pot after "
                            "your call)", code="action/raise_above_limit")
    return _bid(state, seat, to, "raise", raises=1)


def _bid(state: AziState, seat: int, to: int, reason: str, raises: int) -> Step:
    """An opening bet or a raise: ``seat`` sets the high bet and every other player still able to
    bet must answer it."""
    amount = to - state.bets[seat]
    changes = paid_in(state, seat, amount)
    stacks = changes["stacks"]
    answer = tuple(other for other in state.in_deal if other != seat and stacks[other] > 0)
    state = evolve(state, **changes, bets=put_at(state.bets, seat, to),
                   bids=put_at(state.bids, seat, state.bids[seat] + 1), high=to, high_bidder=seat,
                   raises=state.raises + raises, **_answered_by(state, seat, answer))
    made: Event = ({"type": "bet", "seat": seat, "amount": to} if reason == "bet"
                   else {"type": "raise", "seat": seat, "to": to})
    return state, [chips_event(seat, -amount, reason), made]


def _call(state: AziState, seat: int) -> Step:
    """AZ-7.3: pay up to the high bet, or the whole stack when short (all-in for less)."""
    need = state.high - state.bets[seat]
    amount = min(need, state.stacks[seat])
    state = evolve(state, paid_in(state, seat, amount), _answered(state, seat),
                   bets=put_at(state.bets, seat, state.bets[seat] + amount))
    return state, [chips_event(seat, -amount, "call"),
                   {"type": "call", "seat": seat, "amount": amount, "all_in": state.stacks[seat] == 0}]


def _fold(state: AziState, seat: int) -> Step:
    state = evolve(state, _answered(state, seat), folded=put_at(state.folded, seat, True))
    return state, [{"type": "fold", "seat": seat}]


def _answered(state: AziState, seat: int) -> dict[str, Any]:
    """The changes once ``seat`` has answered the high bet (a call or a fold)."""
    return _answered_by(state, seat, tuple(other for other in state.pending if other != seat))


def _answered_by(state: AziState, seat: int, pending: tuple[int, ...]) -> dict[str, Any]:
    """The seats still to answer after ``seat`` acted, and whose turn it is then: the next of
    them clockwise (AZ-7.2)."""
    turn = state.next_clockwise(seat, pending) if pending else None
    return {"pending": pending, "turn": turn}


def _next(state: AziState, events: list[Event]) -> Step:
    """AZ-7.4: a lone survivor takes the pot unseen (AZ-12); when nobody is due to act, the high
    bidder leads (AZ-7.5); else the seat whose turn the action made it bets next."""
    in_deal = state.in_deal
    if len(in_deal) == 1:
        return award_pot(state, in_deal[0], "folds", events)
    if not state.pending:
        assert state.high_bidder is not None
        events.append({"type": "betting_end", "high": state.high, "leader": state.high_bidder})
        return start_play(state, state.high_bidder, events)
    return state, events


def _cap_problem(state: AziState, seat: int) -> tuple[str, str] | None:
    """Why the bid cap forbids ``seat`` another raise (ambiguity 9), as a message and a code;
    None if it does not."""
    cap = state.options.max_bids
    if state.options.raise_cap == PER_PLAYER:
        if state.bids[seat] < cap:
            return None
        message = (f"seat {seat} has made {state.bids[seat]} bids, the most allowed per player "
                   f"(max_bids {cap}, the opening bet counts)")
        return message, "action/bid_cap"
    if state.raises < cap:
        return None
    message = (f"this betting phase has had {state.raises} raises, the most allowed in total "
               f"(max_bids {cap}, raise_cap total)")
    return message, "action/raise_cap"
