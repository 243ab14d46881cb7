"""What one seat (or a spectator) may see, and the cards it may not know."""

from __future__ import annotations

from app.games.azi.ranking import DECK_SET
from app.games.azi.state import AziState, Phase, to_act
from app.games.base import JSON
from app.games.cards import Card


def view(state: AziState, seat: int | None) -> JSON:
    """The table as ``seat`` sees it: his own hand and discard only; the exposed trump card is
    public (AZ-6); discards and folded hands are never shown."""
    own = seat if seat is not None and 0 <= seat < state.seats else None
    return {
        "game": "azi",
        "phase": state.phase.value,
        "seat": own,
        "to_act": list(to_act(state)),
        "hand": [] if own is None else [str(card) for card in state.hands[own]],
        "my_discard": _own_discard(state, own),
        "options": state.options.to_json(),
        **_table(state),
        **_money(state),
        **_tricks(state),
        "buy_in": _buy_in(state),
        "scores": list(state.scores),
        "last_game": None if state.last_result is None else state.last_result.to_json(),
        "match_end": state.end_reason,
    }


def hidden_cards(state: AziState, seat: int | None) -> frozenset[Card]:
    """Every card ``seat`` may not know: the whole pack but his own hand and discard, the exposed
    trump card (everyone saw it, AZ-6) and the cards played in this deal. So the other seats'
    unplayed cards, their discards and the undealt cards are hidden, and before a deal every
    card is."""
    return DECK_SET - known_cards(state, seat)


def known_cards(state: AziState, seat: int | None) -> set[Card]:
    known = {card for _, card in state.played}
    if state.exposed is not None:
        known.add(state.exposed)
    if seat is not None and 0 <= seat < state.seats:
        known.update(state.hands[seat])
        discard = state.discards[seat]
        if discard is not None:
            known.add(discard)
    return known


def _own_discard(state: AziState, own: int | None) -> str | None:
    discard = None if own is None else state.discards[own]
    return None if discard is None else str(discard)


def _seats_where(flags: tuple[bool, ...]) -> list[int]:
    return [seat for seat, flag in enumerate(flags) if flag]


def _table(state: AziState) -> JSON:
    in_game = state.phase not in (Phase.NEEDS_DEAL, Phase.MATCH_OVER) or state.redeal
    return {
        "game_number": state.game_number,
        "deal_number": state.deal_number,
        "redeal": state.redeal,
        "button": state.button,
        "participants": list(state.participants),
        "sitting_out": [seat for seat in range(state.seats) if in_game and not state.left[seat]
                        and seat not in state.participants],
        "left": _seats_where(state.left),
        "folded": _seats_where(state.folded),
        "all_in": [seat for seat in range(state.seats) if state.is_all_in(seat)],
        "hand_sizes": [len(hand) for hand in state.hands],
        "discarded": [seat for seat in range(state.seats) if state.discards[seat] is not None],
        "exposed_card": None if state.exposed is None else str(state.exposed),
        "exposed_seat": state.exposed_owner,
        "trump": state.trump,
        "six_on_scene": state.six_on_scene,
    }


def _money(state: AziState) -> JSON:
    return {
        "stacks": list(state.stacks),
        "pot": state.pot,
        "dead_money": state.dead_money,
        "contributions": list(state.contributions),
        "bets": list(state.bets),
        "high": state.high,
        "high_bidder": state.high_bidder,
        "opener": state.opener,
        "bids": list(state.bids),
        "raises": state.raises,
    }


def _tricks(state: AziState) -> JSON:
    return {
        "leader": state.leader,
        "tricks": _finished_tricks(state),
        "trick": [{"seat": seat, "card": str(card)} for seat, card in state.trick],
        "tricks_won": list(state.tricks_won),
        "last_trick": [{"seat": seat, "card": str(card)} for seat, card in state.last_trick],
        "last_trick_winner": state.last_trick_winner,
    }


def _finished_tricks(state: AziState) -> list[JSON]:
    """The tricks completed in this deal, in order, with their winners (every card played is
    public)."""
    return [{"number": number, "winner": winner,
             "cards": [{"seat": seat, "card": str(card)} for seat, card in cards]}
            for number, (winner, cards) in enumerate(state.tricks, start=1)]


def _buy_in(state: AziState) -> JSON | None:
    if not state.azi_players:
        return None
    return {
        "price": state.buy_in_price,
        "free": list(state.azi_players),
        "waiting": list(state.buy_in_queue),
        "decisions": [{"seat": seat, "bought": bought} for seat, bought in state.buy_in_decisions],
        "buy_ins": list(state.buy_ins),
    }
