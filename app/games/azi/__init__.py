"""Azi, the three-suit trick-and-bet game, played as a table session on chip stacks.

The rules are ``azi.md`` in the shared rules directory (AZ-1..AZ-15 and its ambiguities); rule numbers are
cited where each rule is implemented. Choices made by this engine:

* 2..6 seats (``Seating.players``), one chip stack each (``Seating.stacks``, required); the first
  button is ``Seating.first_dealer``. Seat ``i+1`` is left of seat ``i``: increasing index is
  clockwise, the direction of dealing, betting and play (AZ-1).
* A match is a table session: game after game until fewer than two seated players can pay the
  ante (checked at the start, after every game and after every departure), or until the room
  owner closes the table between games (:meth:`AziEngine.close`) (AZ-4, AZ-15). A game is one
  deal plus any Azi re-deals, and ends when the pot is awarded.
* 27 cards, 6..A of hearts, diamonds and spades (AZ-2, ambiguity 1); the last card dealt is
  exposed and fixes trump, an exposed Ace puts the six on the scene (AZ-6). In the 4-card variant
  the exposed card stays public knowledge even if its owner discards it face down; whether he
  did is not shown.
* Betting per AZ-7: the opener must bet; ``raise_cap = per_player`` counts the opening bet as one
  of the opener's ``max_bids``; ``raise_cap = total`` allows ``max_bids`` raises (the opening bet
  not included) over all players in one betting phase.
* Settlement per AZ-10/AZ-11/AZ-12 (``pot.settle``); ``folded_excess`` decides where a
  folded player's chips above an all-in winner's contribution go.
* After an Azi the button stays; the buy-in ``ceil(P/2)`` is offered one seat at a time,
  clockwise from the button, to the seated players who can pay it (AZ-13).
* Between games the next game is an automatic step that gives the button to the winner (AZ-14);
  until then, and until the next game's deal, a seat may ``leave``. A seat that has left is
  skipped when the button is placed.
* Chips: every stack change is a ``chips`` event; a deal's ``deal_end`` points are each seat's net
  chips in that deal (payouts minus ante, bets and the buy-ins paid for that deal). Scores and
  the match totals are net chips over the session; the winners are the seats with the largest
  gain.
* Every card played in a deal stays on view until the next deal; the others' hands, all
  discards but one's own, and the undealt cards are never shown.
"""

from __future__ import annotations

from app.games.azi.actions import (
    AziAction,
    Bet,
    BuyIn,
    Call,
    Decline,
    Discard,
    Fold,
    Leave,
    Play,
    Raise,
    concrete_action,
)
from app.games.azi.engine import ENGINE, AziEngine
from app.games.azi.options import OPTION_SPECS, AziOptions, make_options
from app.games.azi.pot import net_results, settle
from app.games.azi.state import AziState, GameResult, Phase
from app.games.base import Engine

_CHECKED: Engine[AziState, AziAction] = ENGINE  # mypy verifies the structural fit

__all__ = [
    "ENGINE", "OPTION_SPECS", "AziAction", "AziEngine", "AziOptions", "AziState", "Bet", "BuyIn",
    "Call", "Decline", "Discard", "Fold", "GameResult", "Leave", "Phase", "Play", "Raise",
    "concrete_action", "make_options", "net_results", "settle",
]
