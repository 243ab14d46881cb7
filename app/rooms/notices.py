"""Sentences for what the server did for a player: what the autopilot decided when time ran out."""

from __future__ import annotations

from app.games.base import JSON

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
BID_NAMES = {"little_pepper": "little pepper", "big_pepper": "big pepper"}
KEEPS_SEAT = " It keeps playing for you until you take your seat back."


def what_was_done(action: JSON, drafted: bool) -> str:
    """The autopilot's decision, in the second person's terms (``played 10H for you``)."""
    kind = action.get("kind")
    if kind == "up":
        return "completed your arrangement" if drafted else "arranged your hand for you"
    done = {
        "play": f"played {action.get('card')} for you",
        "discard": f"discarded {action.get('card')} for you",
        "bid": f"bid {BID_NAMES.get(str(action.get('value')), action.get('value'))} for you",
        "pass": "passed for you",
        "trump": f"chose {SUIT_NAMES.get(str(action.get('suit')), action.get('suit'))} as trump for you",
        "bet": f"bet {action.get('amount')} for you",
        "call": "called for you",
        "raise": f"raised to {action.get('to')} for you",
        "fold": "folded for you",
        "buy_in": "bought in for you",
        "decline": "declined the buy-in for you",
    }
    return done.get(str(kind), "made your decision")


def timeout_text(action: JSON, drafted: bool, autopilot_holds: bool) -> str:
    text = f"Time ran out: the autopilot {what_was_done(action, drafted)}."
    return text + KEEPS_SEAT if autopilot_holds else text


def timeout_text_for_others(name: str, autopilot_holds: bool) -> str:
    text = f"Time ran out for {name}: the autopilot decided for them."
    return text + " It keeps playing for them until they come back." if autopilot_holds else text
