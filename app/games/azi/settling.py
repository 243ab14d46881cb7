"""The end of a deal: the pot awarded (AZ-11, AZ-12) or an Azi declared (AZ-9, AZ-13), the
Azi buy-in round, and the end of the session (AZ-15)."""

from __future__ import annotations

from dataclasses import replace

from app.games.base import JSON, IllegalAction, NotYourTurn, Outcome

from .actions import AziAction, BuyIn, Decline
from .options import HALF_POT
from .settlement import settle
from .state import AziState, GameResult, Phase, add_at, chips_event, per_seat, wrong_phase

Step = tuple[AziState, list[JSON]]


def award_pot(state: AziState, winner: int, reason: str, events: list[JSON]) -> Step:
    """AZ-11/AZ-12: settle the pot with ``winner``; the game ends (AZ-4)."""
    folded = [seat for seat in range(state.seats) if state.folded[seat]]
    pot, dead = state.pot, state.dead_money
    payouts = settle(state.contributions, dead, winner, folded, state.options.folded_excess)
    for seat, amount in enumerate(payouts):
        if amount:
            events.append(chips_event(seat, amount, "payout" if seat == winner else "refund"))
    points = tuple(paid - put - bought for paid, put, bought
                   in zip(payouts, state.contributions, state.buy_ins, strict=True))
    events.append(_deal_end(state, points, {"winner": winner, "reason": reason, "pot": pot,
                                            "dead_money": dead, "payouts": list(payouts)}))
    stacks = tuple(stack + paid for stack, paid in zip(state.stacks, payouts, strict=True))
    net = tuple(now - before for now, before in zip(stacks, state.game_stacks, strict=True))
    result = GameResult(state.game_number, winner, reason, pot, payouts, net, state.deals_in_game)
    events.append({"type": "game_end", **result.to_json()})
    zeros = per_seat(state.seats, 0)
    state = replace(state, stacks=stacks, contributions=zeros, carried=0, buy_ins=zeros,
                    turn=None, pending=(), last_result=result, phase=Phase.GAME_OVER)
    return end_if_short(state, events)


def declare_azi(state: AziState, events: list[JSON]) -> Step:
    """AZ-9/AZ-13: three players with one trick each. The pot is carried over as dead money, the
    one-trick players replay for free, the others are offered the buy-in in clockwise order."""
    pot = state.pot
    points = tuple(-(put + bought) for put, bought in zip(state.contributions, state.buy_ins,
                                                          strict=True))
    events.append(_deal_end(state, points, {"winner": None, "reason": "azi", "pot": pot,
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
    state = replace(state, carried=pot, contributions=zeros, buy_ins=zeros, turn=None,
                    azi_players=free, buy_in_price=price, buy_in_queue=offered,
                    buy_in_decisions=())
    events.append({"type": "azi", "pot": pot, "players": list(free), "price": price,
                   "offered": list(offered)})
    if offered:
        return replace(state, phase=Phase.AZI_BUY_IN), events
    return prepare_redeal(state), events


def prepare_redeal(state: AziState) -> AziState:
    """AZ-13: the re-deal is among the one-trick players and the buyers; the button stays."""
    buyers = [seat for seat, bought in state.buy_in_decisions if bought]
    return replace(state, phase=Phase.NEEDS_DEAL, redeal=True, buy_in_queue=(),
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
    events: list[JSON] = []
    bought = isinstance(action, BuyIn)
    if bought:
        price = state.buy_in_price
        state = replace(state, stacks=add_at(state.stacks, seat, -price),
                        buy_ins=add_at(state.buy_ins, seat, price))
        events.append(chips_event(seat, -price, "buy_in"))
    events.append({"type": "buy_in" if bought else "decline", "seat": seat})
    state = replace(state, buy_in_queue=state.buy_in_queue[1:],
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


def end_if_short(state: AziState, events: list[JSON]) -> Step:
    """AZ-15: the table stops when fewer than two seated players can pay the ante."""
    if sum(state.can_pay_ante(seat) for seat in range(state.seats)) >= 2:
        return state, events
    return end_match(state, events, "players")


def end_match(state: AziState, events: list[JSON], reason: str) -> Step:
    state = replace(state, phase=Phase.MATCH_OVER, end_reason=reason, turn=None)
    events.append({"type": "match_end", "reason": reason, **match_outcome(state).to_json()})
    return state, events


def match_outcome(state: AziState) -> Outcome:
    """Totals are the net chips each seat won or lost over the session; the winners are the
    seats with the largest gain (nobody, if nobody gained)."""
    totals = state.scores
    best = max(totals)
    winners = tuple(seat for seat, total in enumerate(totals) if total == best and best > 0)
    return Outcome(winners=winners, totals=totals)


def _deal_end(state: AziState, points: tuple[int, ...], detail: JSON) -> JSON:
    detail = {**detail, "game": state.game_number, "redeal": state.redeal,
              "contributions": list(state.contributions), "buy_ins": list(state.buy_ins),
              "tricks": list(state.tricks_won), "folded": [seat for seat in range(state.seats)
                                                           if state.folded[seat]]}
    return {"type": "deal_end", "number": state.deal_number, "points": list(points),
            "detail": detail}
