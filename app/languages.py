"""The languages of cardroom's interface: those a player may choose, those the client has a message
catalog for (``frontend/i18n/<code>.json``), and the best of them for an ``Accept-Language`` header."""

from __future__ import annotations

from functools import cache
from pathlib import Path

LANGUAGES = ("en", "bn", "hi", "ru", "ka", "kk", "el", "pl", "de")
CATALOG_DIR = Path(__file__).resolve().parents[1] / "frontend" / "i18n"


@cache
def catalog_languages() -> tuple[str, ...]:
    """The languages with a catalog, English first."""
    return tuple(code for code in LANGUAGES if (CATALOG_DIR / f"{code}.json").is_file())


def best_language(header: str, available: tuple[str, ...]) -> str:
    """The language of ``available`` the header asks for with the highest weight (the earliest among
    equals, ``q=0`` never), by primary subtag; English when it asks for none of them."""
    asked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        code = tag.strip().lower().split("-")[0]
        if weight > 0 and code in available:
            asked.append((-weight, index, code))
    return min(asked)[2] if asked else "en"
