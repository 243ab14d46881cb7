"""The session around the deals: seating, antes and the deal itself (AZ-5, AZ-6), the 4-card
discard, the next game (AZ-14), leaving and closing the table (AZ-15)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.games.azi.actions import AziAction, Discard
from app.games.azi.betting import start_betting
from app.games.azi.options import AziOptions
from app.games.azi.outcome import end_if_short, end_match
from app.games.azi.ranking import DECK, DECK_SET, SUIT_NAMES
from app.games.azi.state import (
    AziState,
    Phase,
    Step,
    chips_event,
    evolve,
    per_seat,
    put_at,
    wrong_phase,
)
from app.games.base import JSON, GameOver, IllegalAction, InvalidOptions, NotYourTurn, Seating
from app.games.cards import Card, check_deck
from app.games.events import Event

MIN_SEATS = 2
MAX_SEATS = 6


def new_session(options: AziOptions, seating: Seating) -> AziState:
    """A table waiting for the first deal of its first game; the first button is
    ``seating.first_dealer`` (AZ-5: drawn at random by the room). If fewer than two seats can
    pay the ante, the table is over before it starts (AZ-15)."""
    stacks = _check_seating(seating)
    seats = seating.players
    zeros = per_seat(seats, 0)
    state = AziState(options=options, seats=seats, phase=Phase.NEEDS_DEAL,
                     button=seating.first_dealer, initial_stacks=stacks, stacks=stacks,
                     left=per_seat(seats, False), game_stacks=stacks, hands=per_seat(seats, ()),
                     discards=per_seat(seats, None), folded=per_seat(seats, False),
                     contributions=zeros, buy_ins=zeros, bets=zeros, bids=zeros,
                     tricks_won=zeros)
    return end_if_short(state, [])[0]


def _check_seating(seating: Seating) -> tuple[int, ...]:
    seats = seating.players
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions(f"Azi is played by {MIN_SEATS} to {MAX_SEATS} players, not {seats!r} "
                             "(AZ-1)", code="options/seats")
    if type(seating.first_dealer) is not int or not 0 <= seating.first_dealer < seats:
        raise InvalidOptions(f"the first button must be a seat 0..{seats - 1}, not "
                             f"{seating.first_dealer!r}", code="options/first_dealer")
    stacks = seating.stacks
    if stacks is None or len(stacks) != seats or any(type(s) is not int or s < 0 for s in stacks):
        raise InvalidOptions(f"Azi needs one chip stack (a whole number, not negative) per seat, "
                             f"got {stacks!r}", code="options/stacks")
    return tuple(stacks)


def deal(state: AziState, deck: Sequence[Card]) -> Step:
    """AZ-5/AZ-6: at the start of a game the antes are paid; one card at a time clockwise from
    the first participant after the button; the last card dealt is exposed and fixes trump."""
    if state.phase is Phase.MATCH_OVER:
        raise GameOver("the session is over; no more deals", code="deal/match_over")
    if state.phase is not Phase.NEEDS_DEAL:
        raise IllegalAction(f"no deal is due in the {state.phase.value} phase", code="deal/not_due")
    if len(deck) != len(DECK) or not DECK_SET.issubset(deck):
        check_deck(deck, DECK)
    events: list[Event] = []
    if not state.redeal:
        state, events = _begin_game(state)
    order = state.clockwise_after(state.button, state.participants)
    count = state.options.hand_size * len(order)
    dealt = tuple(deck[:count])
    hands: list[tuple[Card, ...]] = [() for _ in range(state.seats)]
    for position, seat in enumerate(order):
        hands[seat] = dealt[position::len(order)]
    exposed = deck[count - 1]
    state = evolve(state, _cleared_deal(state.seats), hands=tuple(hands),
                   undealt=tuple(deck[count:]), exposed=exposed, exposed_owner=order[-1],
                   deal_number=state.deal_number + 1, deals_in_game=state.deals_in_game + 1)
    events.append({"type": "deal", "number": state.deal_number, "game": state.game_number,
                   "redeal": state.redeal, "button": state.button,
                   "participants": list(state.participants), "exposed": str(exposed),
                   "exposed_seat": order[-1], "trump": exposed.suit,
                   "trump_name": SUIT_NAMES[exposed.suit], "six_on_scene": state.six_on_scene})
    if state.options.hand_size > 3:
        return evolve(state, phase=Phase.DISCARD), events
    return start_betting(state, events)


def _begin_game(state: AziState) -> Step:
    """AZ-5: every seated player who can pay the ante pays it and plays; the others sit out."""
    button = seated_from(state, state.button)
    payers = tuple(seat for seat in range(state.seats) if state.can_pay_ante(seat))
    stake = state.options.stake
    game_number = state.game_number + 1
    events: list[Event] = [{"type": "game_start", "number": game_number, "button": button,
                           "participants": list(payers),
                           "sitting_out": [seat for seat in range(state.seats)
                                           if seat not in payers and not state.left[seat]]}]
    events += [chips_event(seat, -stake, "ante") for seat in payers]
    antes = tuple(stake if seat in payers else 0 for seat in range(state.seats))
    state = evolve(state, game_number=game_number, deals_in_game=0, button=button,
                   game_stacks=state.stacks, participants=payers, contributions=antes,
                   stacks=tuple(stack - ante for stack, ante in zip(state.stacks, antes, strict=True)),
                   carried=0, buy_ins=per_seat(state.seats, 0), azi_players=(), buy_in_price=0,
                   buy_in_queue=(), buy_in_decisions=())
    return state, events


def _cleared_deal(seats: int) -> Mapping[str, object]:
    """The changes that leave nothing of the previous deal on the table (the chips stay where
    they are), for :func:`evolve`."""
    return _CLEARED[seats]


def _cleared(seats: int) -> dict[str, object]:
    zeros = per_seat(seats, 0)
    return {"hands": per_seat(seats, ()), "discards": per_seat(seats, None), "undealt": (),
            "exposed": None, "exposed_owner": None, "folded": per_seat(seats, False),
            "bets": zeros, "bids": zeros, "raises": 0, "high": 0, "high_bidder": None,
            "opener": None, "pending": (), "turn": None, "leader": None, "trick": (),
            "played": (), "tricks_won": zeros, "tricks": ()}


_CLEARED = {seats: _cleared(seats) for seats in range(MIN_SEATS, MAX_SEATS + 1)}


def seated_from(state: AziState, seat: int) -> int:
    """``seat`` if it has not left the table, else the next such seat clockwise (AZ-5)."""
    staying = [other for other in range(state.seats) if not state.left[other]]
    return seat if not state.left[seat] or not staying else state.clockwise_after(seat, staying)[0]


def legal_discard(state: AziState, seat: int) -> list[JSON]:
    if seat not in state.participants or state.discards[seat] is not None:
        return []
    return [{"kind": "discard", "card": str(card)} for card in state.hands[seat]]


def apply_discard(state: AziState, seat: int, action: AziAction) -> Step:
    """AZ-6, 4-card variant: every participant lays one card away face down, all at once; the
    trump stays as the exposed card fixed it even if that card is discarded."""
    if seat not in state.participants:
        raise NotYourTurn(f"seat {seat} is not playing this deal", code="action/not_participant")
    if state.discards[seat] is not None and isinstance(action, Discard):
        raise IllegalAction(f"seat {seat} has already discarded; one card each (AZ-6)",
                            code="action/already_discarded")
    if state.discards[seat] is not None:
        raise NotYourTurn(f"seat {seat} has discarded; waiting for the other discards")
    if not isinstance(action, Discard):
        raise wrong_phase(state, action.to_json())
    hand = state.hands[seat]
    if action.card not in hand:
        raise IllegalAction(f"{action.card} is not in seat {seat}'s hand", code="action/not_in_hand")
    state = evolve(state, hands=put_at(state.hands, seat, tuple(card for card in hand
                                                                if card != action.card)),
                   discards=put_at(state.discards, seat, action.card))
    events: list[Event] = [{"type": "discard", "seat": seat}]
    if any(state.discards[other] is None for other in state.participants):
        return state, events
    return start_betting(state, events)


def next_game(state: AziState) -> Step:
    """AZ-14: the winner of the pot takes the button (the next seated player clockwise if he has
    left) and the next game waits for its deal."""
    if state.phase is not Phase.GAME_OVER or state.last_result is None:
        raise IllegalAction(f"no automatic step in the {state.phase.value} phase",
                            code="auto/not_due")
    button = seated_from(state, state.last_result.winner)
    state = evolve(state, _cleared_deal(state.seats), phase=Phase.NEEDS_DEAL, redeal=False,
                   button=button, participants=())
    return state, [{"type": "button", "seat": button}]


def apply_leave(state: AziState, seat: int) -> Step:
    """AZ-15: between games a player may leave; his stack stays his and he sits out from now on."""
    if not state.is_between_games:
        raise IllegalAction(f"seat {seat} can leave only between games (AZ-15)",
                            code="action/not_between_games")
    state = evolve(state, left=put_at(state.left, seat, True))
    if state.phase is Phase.NEEDS_DEAL:
        state = evolve(state, button=seated_from(state, state.button))
    return end_if_short(state, [{"type": "leave", "seat": seat, "stack": state.stacks[seat]}])


def close(state: AziState, during_game: bool = False) -> Step:
    """The room owner closes the table between games (AZ-15). ``during_game``: an operator closes it
    in the middle of a game, which is then void: every seat gets back each chip it put into the pot
    in this game (antes, bets, Azi buy-ins), so the stacks are those the game began with."""
    if state.phase is Phase.MATCH_OVER:
        raise GameOver("the session is already over", code="table/closed")
    if state.is_between_games:
        return end_match(state, [], "closed")
    if not during_game:
        raise IllegalAction("the table can be closed only between games",
                            code="table/not_between_games")
    events: list[Event] = [chips_event(seat, begun - held, "refund")
              for seat, (begun, held) in enumerate(zip(state.game_stacks, state.stacks, strict=True))
              if begun > held]
    zeros = per_seat(state.seats, 0)
    state = evolve(state, _cleared_deal(state.seats), stacks=state.game_stacks,
                   contributions=zeros, carried=0, buy_ins=zeros, participants=())
    return end_match(state, events, "closed")
