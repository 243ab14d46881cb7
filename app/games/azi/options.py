"""The Azi table options (rules section 2.5) and their derived defaults (AZ-3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from app.games.base import JSON, OptionSpec, read_options

PER_PLAYER = "per_player"
TOTAL = "total"
HALF_POT = "half_pot"
NO_BUY_IN = "none"
RETURNED = "returned"
TO_POT = "to_pot"
NO_LIMIT = "none"
POT_LIMIT = "pot"
MAX_STAKE = 1_000_000
MAX_BIDS = 20

OPTION_SPECS = (
    OptionSpec("stake", 10, "the ante T every participant pays at the start of a game (AZ-3, AZ-5)",
               minimum=1, maximum=MAX_STAKE),
    OptionSpec("min_bet", None, "the smallest opening bet (AZ-7.1); default: the stake",
               minimum=1, maximum=MAX_STAKE),
    OptionSpec("min_raise", None, "the smallest raise increment (AZ-7.3); default: the stake",
               minimum=1, maximum=MAX_STAKE),
    OptionSpec("max_bids", 3, "bids per player per betting phase, the opening bet included "
               "(per_player), or raises per betting phase over all players (total)", minimum=1,
               maximum=MAX_BIDS),
    OptionSpec("raise_cap", PER_PLAYER, "how max_bids counts: per player, the opening bet "
               "included (seed), or raises in total (ambiguity 9)", choices=(PER_PLAYER, TOTAL)),
    OptionSpec("hand_size", 3, "cards dealt to each participant; with 4 each discards one face "
               "down before betting (AZ-6)", choices=(3, 4)),
    OptionSpec("azi_buy_in", HALF_POT, "after an Azi: players without a trick may buy in for "
               "half the pot, rounded up (AZ-13), or only the one-trick players replay",
               choices=(HALF_POT, NO_BUY_IN)),
    OptionSpec("folded_excess", RETURNED, "a folded player's chips above an all-in winner's "
               "contribution go back to him (AZ-11), or to the winner", choices=(RETURNED, TO_POT)),
    OptionSpec("bet_limit", NO_LIMIT, "none: a bet or raise may take the whole stack (AZ-7); pot: "
               "no opening bet above the pot, no raise by more than the pot after the call",
               choices=(NO_LIMIT, POT_LIMIT)),
)

_DERIVED_FROM_STAKE = ("min_bet", "min_raise")


def make_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Every option checked, defaults filled in; ``min_bet`` and ``min_raise`` default to the
    stake (ambiguity 10). An explicit None for them also means "the default". Raises
    ``InvalidOptions``."""
    given = {name: value for name, value in raw.items()
             if not (name in _DERIVED_FROM_STAKE and value is None)}
    options = read_options(OPTION_SPECS, given)
    for name in _DERIVED_FROM_STAKE:
        if options[name] is None:
            options[name] = options["stake"]
    return options


@dataclass(frozen=True)
class AziOptions:
    """The options of one table, all filled in."""

    stake: int = 10
    min_bet: int = 10
    min_raise: int = 10
    max_bids: int = 3
    raise_cap: str = PER_PLAYER
    hand_size: int = 3
    azi_buy_in: str = HALF_POT
    folded_excess: str = RETURNED
    bet_limit: str = NO_LIMIT

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> AziOptions:
        return cls(**make_options(raw))

    def to_json(self) -> JSON:
        return asdict(self)
