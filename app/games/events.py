"""What a step reports: the engines' events, one typed dict per kind, discriminated by ``type``.

An event is a plain dict[str, Any] object (it goes into replays and the simulator's tallies as it is); its
type says which fields it has. The kinds the room reads are shared by every game where they apply:
``deal_end``, ``match_end``, ``chips`` and ``trick``. The others belong to one game each.
"""

# The annotations are evaluated (no ``from __future__ import annotations``), so that each kind knows
# at run time which of its fields are NotRequired.
from typing import Any, Literal, NotRequired, TypedDict

# --- every game -------------------------------------------------------------------------------------

class DealEnd(TypedDict):
    """A deal is scored: ``points`` per seat (Hazari), per team (Hasenpfeffer) or net chips per seat
    (Azi); ``detail`` how it ended, in the game's own terms."""

    type: Literal["deal_end"]
    number: int
    points: list[int]
    detail: dict[str, Any]


class MatchEnd(TypedDict):
    """The match is over: its winners and the final scores (Hazari ``scores``) or totals."""

    type: Literal["match_end"]
    winners: list[int]
    scores: NotRequired[list[int]]
    totals: NotRequired[list[int]]
    teams: NotRequired[list[list[int]]]
    reason: NotRequired[str]


class ChipsMoved(TypedDict):
    """A chip stack changed; ``delta`` < 0 puts chips into the pot."""

    type: Literal["chips"]
    seat: int
    delta: int
    reason: str


class CardPlayed(TypedDict):
    type: Literal["play"]
    seat: int
    card: str


# --- Hazari ---------------------------------------------------------------------------------------

class HazariDealStart(TypedDict):
    type: Literal["deal_start"]
    number: int
    dealer: int


class CalledUp(TypedDict):
    type: Literal["up"]
    seat: int


class RoundSummary(TypedDict):
    """HZ-6/HZ-7: a round revealed, its plays in exposure order, its winner and the points taken."""

    number: int
    leader: int
    plays: list[dict[str, Any]]
    winner: int
    points: int


class RoundShown(RoundSummary):
    type: Literal["round"]


# --- Azi --------------------------------------------------------------------------------------------

class GameStart(TypedDict):
    type: Literal["game_start"]
    number: int
    button: int
    participants: list[int]
    sitting_out: list[int]


class AziDealt(TypedDict):
    type: Literal["deal"]
    number: int
    game: int
    redeal: bool
    button: int
    participants: list[int]
    exposed: str
    exposed_seat: int
    trump: str
    trump_name: str
    six_on_scene: bool


class Discarded(TypedDict):
    """A seat has put a card face down (which, only it knows): Azi's ``discard`` with more than
    three cards, Hasenpfeffer's ``discarded`` after taking the widow."""

    type: Literal["discard", "discarded"]
    seat: int


class NoBetting(TypedDict):
    type: Literal["no_betting"]
    leader: int


class BettingStart(TypedDict):
    type: Literal["betting_start"]
    opener: int


class BetMade(TypedDict):
    type: Literal["bet"]
    seat: int
    amount: int


class Raised(TypedDict):
    type: Literal["raise"]
    seat: int
    to: int


class Called(TypedDict):
    type: Literal["call"]
    seat: int
    amount: int
    all_in: bool


class Folded(TypedDict):
    type: Literal["fold"]
    seat: int


class BettingEnd(TypedDict):
    type: Literal["betting_end"]
    high: int
    leader: int


class PlayStart(TypedDict):
    type: Literal["play_start"]
    leader: int


class AziTrick(TypedDict):
    type: Literal["trick"]
    number: int
    winner: int
    cards: list[dict[str, Any]]


class AziDeclared(TypedDict):
    """AZ-9: an Azi; the pot is carried into a re-deal, which ``offered`` may buy into at ``price``."""

    type: Literal["azi"]
    pot: int
    players: list[int]
    price: int
    offered: list[int]


class BuyInAnswered(TypedDict):
    type: Literal["buy_in", "decline"]
    seat: int


class GameSummary(TypedDict):
    """AZ-11: a game of the session settled: who took the pot, why, and each seat's payout and net."""

    number: int
    winner: int
    reason: str
    pot: int
    payouts: list[int]
    net: list[int]
    deals: int


class GameEnd(GameSummary):
    type: Literal["game_end"]


class ButtonMoved(TypedDict):
    type: Literal["button"]
    seat: int


class Left(TypedDict):
    type: Literal["leave"]
    seat: int
    stack: int


# --- Hasenpfeffer -----------------------------------------------------------------------------------

class HasenpfefferDealt(TypedDict):
    type: Literal["deal"]
    number: int
    dealer: int


class Passed(TypedDict):
    type: Literal["pass"]
    seat: int


class BidMade(TypedDict):
    type: Literal["bid"]
    seat: int
    value: int | str


class JokerForced(TypedDict):
    type: Literal["joker_forced"]
    seat: int


class AuctionEnd(TypedDict):
    type: Literal["auction_end"]
    bidder: int
    contract: int | str
    forced: bool


class WidowTaken(TypedDict):
    type: Literal["widow_taken"]
    seat: int


class TrumpNamed(TypedDict):
    type: Literal["trump"]
    seat: int
    suit: str


class Led(TypedDict):
    type: Literal["lead"]
    seat: int
    trick: int


class HasenpfefferTrick(TypedDict):
    type: Literal["trick"]
    number: int
    leader: int
    cards: list[str]
    winner: int
    team: int


Event = (DealEnd | MatchEnd | ChipsMoved | CardPlayed
         | HazariDealStart | CalledUp | RoundShown
         | GameStart | AziDealt | Discarded | NoBetting | BettingStart | BetMade | Raised | Called
         | Folded | BettingEnd | PlayStart | AziTrick | AziDeclared | BuyInAnswered | GameEnd
         | ButtonMoved | Left
         | HasenpfefferDealt | Passed | BidMade | JokerForced | AuctionEnd | WidowTaken | TrumpNamed
         | Led | HasenpfefferTrick)
"""Every event of every game."""
