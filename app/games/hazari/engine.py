"""The Hazari engine behind the shared interface (``app.games.base.Engine``); rules HZ-1..HZ-9."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import chain
from typing import Any

import app.games.hazari.view as views
from app.games.base import (
    JSON,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Seating,
    Transition,
    read_options,
)
from app.games.cards import Card, card_texts, check_deck, standard_deck
from app.games.events import Event, RoundShown
from app.games.hazari.actions import HazariAction, Up, action_to_json, parse_action, parse_draft
from app.games.hazari.arrangements import (
    GROUP_SIZES,
    check_arrangement,
    check_draft,
    random_arrangement,
)
from app.games.hazari.combos import cards_points, key_of
from app.games.hazari.state import (
    MATCH_TIES,
    SEATS,
    TIE_RULES,
    HazariState,
    Phase,
    Play,
    Round,
    Rules,
)

ROUNDS = len(GROUP_SIZES)

OPTION_SPECS = (
    OptionSpec("target", 1000, "the match ends after the deal in which someone reaches it (HZ-9)",
               minimum=5, maximum=10_000, multiple_of=5),
    OptionSpec("tie_rule", TIE_RULES[0], "which of equal top groups takes a round (HZ-7)",
               choices=TIE_RULES),
    OptionSpec("match_tie", MATCH_TIES[0], "a shared top score at the end: joint winners, or "
               "further deals until one leads (HZ-9)", choices=MATCH_TIES),
)


DECK = standard_deck()
_DECK_SET = frozenset(DECK)


def _deal_hands(deck: Sequence[Card], dealer: int) -> tuple[tuple[Card, ...], ...]:
    """HZ-3: one card at a time, the first to seat ``dealer+1``, then counter-clockwise (+1)."""
    first = (dealer + 1) % SEATS
    return tuple(tuple(deck[(seat - first) % SEATS::SEATS]) for seat in range(SEATS))


def _round_winner(plays: Sequence[Play], tie_rule: str) -> int:
    """HZ-7: the highest key; among equal keys the later play (``later_wins``) or the earlier."""
    best = plays[0]
    for play in plays[1:]:
        if play.key > best.key or (play.key == best.key and tie_rule == "later_wins"):
            best = play
    return best.seat


def _match_winners(rules: Rules, scores: Sequence[int]) -> tuple[int, ...]:
    """HZ-9, checked after a scored deal: the highest total once someone reached the target; a
    shared top is a joint win, or (``play_on``) no end yet."""
    top = max(scores)
    if top < rules.target:
        return ()
    leaders = tuple(seat for seat in range(SEATS) if scores[seat] == top)
    if len(leaders) > 1 and rules.match_tie == "play_on":
        return ()
    return leaders


class HazariEngine:
    """Hazari for four players; see the package docstring for the variant choices."""

    name = "hazari"
    title = "Hazari"
    min_seats = SEATS
    max_seats = SEATS
    option_specs: tuple[OptionSpec, ...] = OPTION_SPECS
    chips = None

    def full_deck(self) -> tuple[Card, ...]:
        return DECK

    def make_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(raw, Mapping):
            raise InvalidOptions(f"options must be a JSON object, got {raw!r}")
        return read_options(self.option_specs, raw)

    def start(self, options: Mapping[str, Any], seating: Seating) -> HazariState:
        rules = Rules(**self.make_options(options))
        if seating.players != SEATS:
            raise InvalidOptions(f"Hazari needs exactly {SEATS} players (HZ-1), got {seating.players}",
                                 code="options/seats")
        if not 0 <= seating.first_dealer < SEATS:
            raise InvalidOptions(f"first dealer must be a seat 0..3, got {seating.first_dealer}",
                                 code="options/seats")
        return HazariState(rules=rules, phase=Phase.DEALING, dealer=seating.first_dealer)

    # -- dealing (HZ-3) -------------------------------------------------------------------------

    def needs_deck(self, state: HazariState) -> bool:
        return state.phase is Phase.DEALING

    def deal(self, state: HazariState, deck: Sequence[Card]) -> Transition[HazariState]:
        if state.phase is Phase.FINISHED:
            raise GameOver("the match is over; no more deals")
        if state.phase is not Phase.DEALING:
            raise IllegalAction(f"no deal is due while {state.phase.value}", code="deal/not_due")
        if len(deck) != len(DECK) or frozenset(deck) != _DECK_SET:
            check_deck(deck, DECK)
        number = state.deal_number + 1
        new = state.but(phase=Phase.ARRANGING, deal_number=number,
                      hands=_deal_hands(deck, state.dealer), arrangements=(None,) * SEATS,
                      rounds=(), piles=((),) * SEATS)
        return Transition(new, ({"type": "deal_start", "number": number, "dealer": state.dealer},))

    # -- arranging (HZ-4) -----------------------------------------------------------------------

    def to_act(self, state: HazariState) -> tuple[int, ...]:
        return views.to_act(state)

    def parse_action(self, raw: Any) -> HazariAction:
        return parse_action(raw)

    def action_to_json(self, action: HazariAction) -> JSON:
        return action_to_json(action)

    def legal_actions(self, state: HazariState, seat: int) -> list[JSON]:
        return [{"kind": "up"}] if seat in self.to_act(state) else []

    def _check_may_arrange(self, state: HazariState, seat: int) -> None:
        if state.phase is Phase.FINISHED:
            raise GameOver("the match is over")
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise NotYourTurn(f"there is no seat {seat!r} at a Hazari table", code="action/no_such_seat")
        if state.phase is not Phase.ARRANGING:
            raise NotYourTurn(f"nobody arranges now: the deal is {state.phase.value}")
        if state.arrangements[seat] is not None:
            raise IllegalAction(f"seat {seat} has already called up; the arrangement is locked (HZ-4)",
                                code="action/already_up")

    @property
    def drafts(self) -> Callable[[HazariState, int, Any], list[list[str]]]:
        return self.check_draft

    def check_draft(self, state: HazariState, seat: int, raw: Any) -> list[list[str]]:
        """A seat's arrangement in the making (``arrangements.check_draft``), as card texts."""
        self._check_may_arrange(state, seat)
        groups = parse_draft(raw)
        check_draft(state.hands[seat], groups)
        return [card_texts(group) for group in groups]

    def random_action(self, state: HazariState, seat: int, rng: random.Random) -> HazariAction:
        self._check_may_arrange(state, seat)
        return Up(random_arrangement(state.hands[seat], rng))

    def apply(self, state: HazariState, seat: int, action: HazariAction) -> Transition[HazariState]:
        self._check_may_arrange(state, seat)
        if not isinstance(action, Up):
            raise InvalidAction(f"not a Hazari action: {action!r}", code="action/unknown_kind")
        check_arrangement(state.hands[seat], action.groups)
        arrangements = (*state.arrangements[:seat], action.groups, *state.arrangements[seat + 1:])
        all_up = all(groups is not None for groups in arrangements)
        new = state.but(arrangements=arrangements,
                      phase=Phase.SHOWING if all_up else Phase.ARRANGING)
        return Transition(new, ({"type": "up", "seat": seat},))

    # -- showing (HZ-6, HZ-7) and scoring (HZ-8, HZ-9) ------------------------------------------

    def has_auto_step(self, state: HazariState) -> bool:
        return state.phase is Phase.SHOWING

    def next_leader(self, state: HazariState) -> int:
        """HZ-6: round 1 is led by ``dealer+1``, later rounds by the previous round's winner."""
        return views.next_leader(state)

    def auto_step(self, state: HazariState) -> Transition[HazariState]:
        """Reveal the next round: every player's next group from the leader on, counter-clockwise."""
        if state.phase is Phase.FINISHED:
            raise GameOver("the match is over")
        if state.phase is not Phase.SHOWING:
            raise IllegalAction(f"no round to show while {state.phase.value}", code="step/not_due")
        number = len(state.rounds) + 1
        leader = self.next_leader(state)
        plays = []
        for seat in (*range(leader, SEATS), *range(leader)):
            groups = state.arrangements[seat]
            assert groups is not None
            group = groups[number - 1]
            plays.append(Play(seat, group, key_of(group)))
        winner = _round_winner(plays, state.rules.tie_rule)
        taken = tuple(chain.from_iterable(play.cards for play in plays))
        rnd = Round(number, leader, tuple(plays), winner, cards_points(taken))
        piles = list(state.piles)
        piles[winner] += taken
        new = state.but(rounds=(*state.rounds, rnd), piles=tuple(piles))
        shown: RoundShown = {"type": "round", **rnd.to_json()}
        events: tuple[Event, ...] = (shown,)
        if number < ROUNDS:
            return Transition(new, events)
        scored = self._score_deal(new)
        return Transition(scored.state, events + scored.events)

    def _score_deal(self, state: HazariState) -> Transition[HazariState]:
        """HZ-8: each player scores the card points of his won pile; then HZ-9."""
        points = tuple(cards_points(pile) for pile in state.piles)
        scores = tuple(total + won for total, won in zip(state.scores, points, strict=True))
        rounds_won = [sum(1 for rnd in state.rounds if rnd.winner == s) for s in range(SEATS)]
        events: list[Event] = [{"type": "deal_end", "number": state.deal_number, "points": list(points),
                               "detail": {"dealer": state.dealer, "rounds_won": rounds_won,
                                          "scores": list(scores)}}]
        winners = _match_winners(state.rules, scores)
        if winners:
            new = state.but(phase=Phase.FINISHED, scores=scores, winners=winners,
                          history=(*state.history, points))
            events.append({"type": "match_end", "winners": list(winners), "scores": list(scores)})
        else:
            new = state.but(phase=Phase.DEALING, scores=scores, history=(*state.history, points),
                          dealer=(state.dealer + 1) % SEATS)
        return Transition(new, tuple(events))

    # -- what a seat may know (``view``) -------------------------------------------------------

    def hidden_cards(self, state: HazariState, seat: int | None) -> frozenset[Card]:
        return views.hidden_cards(state, seat)

    def view(self, state: HazariState, seat: int | None) -> JSON:
        return views.view(state, seat)

    def outcome(self, state: HazariState) -> Outcome | None:
        if state.phase is not Phase.FINISHED:
            return None
        return Outcome(winners=state.winners, totals=state.scores)



ENGINE = HazariEngine()
