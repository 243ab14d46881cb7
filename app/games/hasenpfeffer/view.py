"""What each seat may know: its own hand and everything public, never another hand, the widow
(except the bidder's own hand once he has taken it, HP-7) or the discard."""

from __future__ import annotations

from app.games.base import JSON
from app.games.cards import Card, card_texts, hasenpfeffer_deck
from app.games.hasenpfeffer.state import (
    DISCARD,
    PLAY,
    SEATS,
    TEAMS,
    TRUMP,
    HasenpfefferState,
    seats_to_act,
    team_of,
)

FULL_DECK = frozenset(hasenpfeffer_deck())
_WIDOW_PHASES = (TRUMP, DISCARD)


def view(state: HasenpfefferState, seat: int | None) -> JSON:
    """The table as ``seat`` sees it (``None``: a spectator, who sees no hidden card). The public
    part is made once per state (a room asks for every seat's view of the same state in turn); each
    view is a dict of its own, whose values the views of one state share and nobody changes."""
    result = dict(_public(state))
    hand = state.hands[seat] if seat is not None else ()
    result["seat"] = seat
    result["team"] = None if seat is None else team_of(seat)
    result["hand"] = card_texts(hand)
    if seat is not None and seat == state.bidder and state.phase in _WIDOW_PHASES:
        assert state.widow is not None
        result["widow"] = str(state.widow)
    return result


class _LastPublic:
    """The last state asked for and its public part, as one pair (read and replaced whole, so a
    view made in another thread never pairs one state with another's part)."""

    pair: tuple[object, JSON] = (None, {})


def _public(state: HasenpfefferState) -> JSON:
    last_state, public = _LastPublic.pair
    if last_state is state:
        return public
    public = {
        "game": "hasenpfeffer",
        "phase": state.phase.value,
        "teams": [list(team) for team in TEAMS],
        "dealer": state.dealer,
        "deal_number": state.deal_number,
        "to_act": list(seats_to_act(state)),
        "hand_sizes": [len(cards) for cards in state.hands],
        "scores": list(state.scores),
        "options": state.options.to_json(),
        "winners": None if state.winner is None else [state.winner],
        **_auction_view(state),
        **_play_view(state),
    }
    _LastPublic.pair = (state, public)
    return public


def _auction_view(state: HasenpfefferState) -> JSON:
    high = state.high_call
    return {
        "auction": [call.to_json() for call in state.auction],
        "high_bid": None if high is None else high.bid,
        "high_bidder": None if high is None else high.seat,
        "passed": sorted(state.passed),
        "bidder": state.bidder,
        "bidding_team": state.bidding_team,
        "contract": state.contract,
        "forced": state.forced,
        "joker_forced": state.bidder if state.forced else None,
        "widow_taken": state.phase in (TRUMP, DISCARD, PLAY),
    }


def _play_view(state: HasenpfefferState) -> JSON:
    playing = state.phase is PLAY
    last = state.completed[-1] if state.completed else None
    return {
        "trump": state.trump,
        "leader": state.leader if playing else None,
        "trick_number": sum(state.tricks) + 1 if playing else None,
        "trick": _plays(state.leader, state.trick) if playing else [],
        "completed_tricks": [trick.to_json(number)
                             for number, trick in enumerate(state.completed, start=1)],
        "last_trick": _plays(last.leader, last.cards) if last else [],
        "last_trick_winner": last.winner if last else None,
        "tricks": list(state.tricks),
    }


def _plays(leader: int, cards: tuple[Card, ...]) -> list[JSON]:
    return [{"seat": (leader + i) % SEATS, "card": str(card)} for i, card in enumerate(cards)]


def hidden_cards(state: HasenpfefferState, seat: int | None) -> frozenset[Card]:
    """Every card that ``seat`` does not know: all but its own hand and the cards played this
    deal. A forced bid (HP-6) is announced by seat (``joker_forced``), never as a card, so the
    Joker stays among the hidden cards of the others."""
    known = set(state.played) | set(state.trick)
    if seat is not None:
        known |= set(state.hands[seat])
    return FULL_DECK - known
