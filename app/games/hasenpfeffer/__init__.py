"""Hasenpfeffer: the 25-card bid euchre with the Joker, for four players in two partnerships.

The rules are ``hasenpfeffer.md`` in the shared rules directory (rule numbers HP-1..HP-11 cited in the code).
What this engine plays:

* Seats 0..3, clockwise = increasing index; team A (index 0) = seats {0, 2}, team B (1) = {1, 3}
  (HP-1). Pack: 9..A of four suits and ``JK`` (HP-2). Trumps high to low: ``JK``, right bower,
  left bower (the Jack of the same colour, S-C and H-D), then ``A K Q 10 9`` (HP-3).
* The room chooses the first dealer (``Seating.first_dealer``); packets of 3 from the dealer's
  left, twice round, the 25th card is the widow; the deal passes left after every deal, a thrown-in
  one included (HP-4).
* An open auction from the dealer's left: strictly rising bids, a pass is final, it ends when three
  have passed and the fourth holds the highest bid, or at once on a bid nobody can overcall (6, or
  Big Pepper) (HP-5). If all pass, the Joker holder is publicly forced to a contract of 3; if the
  Joker is the widow the deal is thrown in (HP-6).
* The bidder takes the widow automatically, names one of four suits, discards any one card face
  down (HP-7). Six tricks are always played, led first by the dealer's left (or the bidder, option
  ``first_lead``); follow the led card's effective suit; no going alone (HP-8).
* Bidders score +tricks if made, minus the contract if set; defenders +1 per trick (option
  ``defenders_score``); scores may go negative (HP-9). The match ends after the deal in which a
  partnership reaches ``target`` (10); if both do, the bidders win, or with ``both_reach_target =
  higher_total`` the higher total does, the bidders on equality (HP-10).
* ``bidding = pepper``: bids 1..5, ``little_pepper`` (six tricks, +-6), ``big_pepper`` (six tricks,
  +-12, biddable at any turn, never overcalled); the forced bid is still 3 (HP-11).

Where the rules leave the engine a choice: a bid of 0 or 7 is malformed (``InvalidAction``); a
pepper bid at a standard table and a numeric 6 at a pepper table are ``IllegalAction``; an action
from a seat that has passed, or from anyone but the bidder while trump and discard are awaited, is
``NotYourTurn`` with its own code. The discard is never shown in a view; the ``deal_end`` event
carries it for the server to keep until the match is over.
"""

from __future__ import annotations

from app.games.base import Engine
from app.games.hasenpfeffer.actions import HasenpfefferAction, parse_action
from app.games.hasenpfeffer.engine import ENGINE, HasenpfefferEngine
from app.games.hasenpfeffer.state import HasenpfefferState, Phase

_CHECKED: Engine[HasenpfefferState, HasenpfefferAction] = ENGINE  # mypy verifies the structural fit

__all__ = ["ENGINE", "HasenpfefferAction", "HasenpfefferEngine", "HasenpfefferState", "Phase",
           "parse_action"]
