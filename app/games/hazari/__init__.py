"""Hazari, the four-player 1000-point card game of Bangladesh and eastern India.

The rules are ``hazari.md`` of the project's rules directory (rule numbers HZ-1..HZ-9 are cited where
they are implemented). In short:

* Four players, each for himself; seat ``i+1`` sits to the right of seat ``i``, so increasing seat
  index is counter-clockwise, the direction of dealing and play (HZ-1). One 52-card pack; A, K, Q, J,
  10 score 10 points, 2..9 score 5; the pack holds 360 (HZ-2).
* The room gives the first dealer; the deal goes one card at a time from seat ``dealer+1``, 13 cards
  each, and the next deal is dealt by ``dealer+1`` (HZ-3).
* Everyone arranges at once into three 3-card groups and one 4-card group with
  ``key(G1) >= key(G2) >= key(G3) >= best triple of G4`` (equality allowed) and calls "up"; only a
  valid arrangement is accepted, and it is locked (HZ-4).
* Six categories, Troy > Colour Run > Run > Colour > Pair > Indi, compared by the keys of HZ-5; runs
  rank A-K-Q, A-2-3, K-Q-J, ..., 4-3-2, with no wrap-around (``combos``).
* Once all four are up, the server reveals the four rounds, one per automatic step: round 1 led by
  ``dealer+1``, later rounds by the previous winner; G1, G2, G3, then G4 (HZ-6). The highest key takes
  the round; among equal keys the later exposure wins (option ``tie_rule``: ``first_wins``) (HZ-7).
* Each player scores the points of the cards he took (HZ-8). After a scored deal, if someone has
  reached the target (1000), the highest total wins; a shared top is a joint win (option
  ``match_tie``: ``play_on`` deals on until one leads) (HZ-9).

Modules: ``combos`` (keys, precomputed table), ``arrangements`` (HZ-4 checks, enumeration of every
valid arrangement, uniform random arrangement), ``state`` (frozen values), ``actions`` (the action
and its JSON form), ``view`` (what a seat may know), ``engine`` (the Engine).
"""

from __future__ import annotations

from app.games.base import Engine
from app.games.hazari.actions import HazariAction, Up
from app.games.hazari.engine import ENGINE as _ENGINE
from app.games.hazari.engine import HazariEngine
from app.games.hazari.state import HazariState, Phase

ENGINE: Engine[HazariState, HazariAction] = _ENGINE

__all__ = ["ENGINE", "HazariAction", "HazariEngine", "HazariState", "Phase", "Up"]
