"""An Azi (AZ-9, AZ-13): the pot carried over, the buy-in round and the re-deal's players."""

from __future__ import annotations

from app.games.azi.actions import AziAction, BuyIn, Decline
from app.games.azi.options import HALF_POT
from app.games.azi.state import (
    AziState,
    Phase,
    Step,
    add_at,
    chips_event,
    deal_end,
    evolve,
    per_seat,
    wrong_phase,
)
from app.games.base import JSON, IllegalAction, NotYourTurn
from app.games.events import Event


def declare_azi(state: AziState, events: list[Event]) -> Step:
    """AZ-9/AZ-13: three players with one trick each. The pot is carried over as dead money, the
    one-trick players replay for free, the others are offered the buy-in in clockwise order."""
    pot = state.pot
    points = tuple(-(put + bought) for put, bought in zip(state.contributions, state.buy_ins,
                                                          strict=True))
    events.append(deal_end(state, points, {"winner": None, "reason": "azi", "pot": pot,
                                           "dead_money": state.dead_money,
                                           "payouts": [0] * state.seats}))
    free = tuple(seat for seat in state.participants if state.tricks_won[seat] == 1)
    price = (pot + 1) // 2 if state.options.azi_buy_in == HALF_POT else 0
    offered: tuple[int, ...] = ()
    if state.options.azi_buy_in == HALF_POT:
        others = [seat for seat in range(state.seats) if seat not in free
                  and not state.left[seat] and state.stacks[seat] >= price]
        offered = state.clockwise_after(state.button, others)
    zeros = per_seat(state.seats, 0)
    state = evolve(state, carried=pot, contributions=zeros, buy_ins=zeros, turn=None,
                   azi_players=free, buy_in_price=price, buy_in_queue=offered,
                   buy_in_decisions=())
    events.append({"type": "azi", "pot": pot, "players": list(free), "price": price,
                   "offered": list(offered)})
    if offered:
        return evolve(state, phase=Phase.AZI_BUY_IN), events
    return prepare_redeal(state), events


def prepare_redeal(state: AziState) -> AziState:
    """AZ-13: the re-deal is among the one-trick players and the buyers; the button stays."""
    buyers = [seat for seat, bought in state.buy_in_decisions if bought]
    return evolve(state, phase=Phase.NEEDS_DEAL, redeal=True, buy_in_queue=(),
                  participants=tuple(sorted((*state.azi_players, *buyers))))


def legal_buy_in(state: AziState, seat: int) -> list[JSON]:
    if state.buy_in_queue[:1] != (seat,):
        return []
    return [{"kind": "buy_in"}, {"kind": "decline"}]


def apply_buy_in(state: AziState, seat: int, action: AziAction) -> Step:
    """AZ-13: the seat first in the offer queue buys in for the price, or declines."""
    _check_offer(state, seat)
    if not isinstance(action, BuyIn | Decline):
        raise wrong_phase(state, action.to_json())
    events: list[Event] = []
    bought = isinstance(action, BuyIn)
    if bought:
        price = state.buy_in_price
        state = evolve(state, stacks=add_at(state.stacks, seat, -price),
                       buy_ins=add_at(state.buy_ins, seat, price))
        events.append(chips_event(seat, -price, "buy_in"))
    events.append({"type": "buy_in" if bought else "decline", "seat": seat})
    state = evolve(state, buy_in_queue=state.buy_in_queue[1:],
                   buy_in_decisions=(*state.buy_in_decisions, (seat, bought)))
    if state.buy_in_queue:
        return state, events
    return prepare_redeal(state), events


def _check_offer(state: AziState, seat: int) -> None:
    if seat in state.azi_players:
        raise IllegalAction(f"seat {seat} won a trick and plays the re-deal for free (AZ-13)",
                            code="action/already_in")
    if any(decided == seat for decided, _ in state.buy_in_decisions):
        raise IllegalAction(f"seat {seat} has already answered the buy-in offer",
                            code="action/already_decided")
    if seat not in state.buy_in_queue:
        raise IllegalAction(f"the buy-in costs {state.buy_in_price} chips and seat {seat} has "
                            f"{state.stacks[seat]}: a player who cannot pay cannot join (AZ-13)",
                            code="action/cannot_afford")
    if state.buy_in_queue[0] != seat:
        raise NotYourTurn(f"the buy-in is offered to seat {state.buy_in_queue[0]} first, "
                          f"not to seat {seat} (AZ-13: clockwise from the button)")
