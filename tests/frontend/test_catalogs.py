"""The client's message catalogs (frontend/i18n/<code>.json): every catalog has every key of the
English one and no other, each message keeps the English message's parameters, and every English key
is used by the client (by its literal name, or through a computed name's prefix) while every key
the client names exists."""

from __future__ import annotations

import json
import re
from typing import Any

from app.languages import CATALOG_DIR, catalog_languages

CLIENT = CATALOG_DIR.parent / "js"
# t("area.name" ...) and t(`area.${...}` ...): a literal key, or the prefix of a computed one.
LITERAL_KEY = re.compile(r"""\bt\(\s*["']([\w./-]+)["']""")
COMPUTED_PREFIX = re.compile(r"""\bt\(\s*`([\w./-]*)\$\{""")
PARAMETER = re.compile(r"\{(\w+)\}")


def catalog(code: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((CATALOG_DIR / f"{code}.json").read_text(encoding="utf-8"))
    return loaded


def client_sources() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(CLIENT.glob("*.js")))


def forms(message: Any) -> list[str]:
    return [message] if isinstance(message, str) else list(message.values())


def parameters(message: Any) -> set[str]:
    return {name for text in forms(message) for name in PARAMETER.findall(text)}


ENGLISH = catalog("en")
TRANSLATIONS = [code for code in catalog_languages() if code != "en"]


def test_the_catalog_files_are_the_languages_offered() -> None:
    files = sorted(path.stem for path in CATALOG_DIR.glob("*.json"))
    assert files == sorted(catalog_languages())
    listed = re.search(r"CATALOG_LANGUAGES = \[([^\]]*)\]", (CLIENT / "i18n.js").read_text()).group(1)
    assert re.findall(r'"(\w+)"', listed) == list(catalog_languages())


def test_every_message_is_text_or_plural_forms() -> None:
    for code in catalog_languages():
        for key, message in catalog(code).items():
            assert isinstance(message, str) or (
                isinstance(message, dict) and "other" in message
                and all(isinstance(text, str) for text in message.values())), (code, key)
            assert all(text.strip() for text in forms(message)), f"{code}: {key} is empty"


def test_every_catalog_has_every_english_key_and_no_other() -> None:
    for code in TRANSLATIONS:
        translated = catalog(code)
        assert sorted(set(ENGLISH) - set(translated)) == [], f"{code} lacks these"
        assert sorted(set(translated) - set(ENGLISH)) == [], f"{code} has keys English has not"


def test_every_translation_keeps_the_parameters() -> None:
    for code in TRANSLATIONS:
        translated = catalog(code)
        wrong = {key: (sorted(parameters(message)), sorted(parameters(translated[key])))
                 for key, message in ENGLISH.items() if key in translated
                 and parameters(message) != parameters(translated[key])}
        assert wrong == {}, code


def test_every_english_key_is_used_and_every_used_key_exists() -> None:
    sources = client_sources()
    literal = set(LITERAL_KEY.findall(sources))
    prefixes = tuple(set(COMPUTED_PREFIX.findall(sources)))
    assert sorted(literal - set(ENGLISH)) == [], "the client names these keys the catalog lacks"
    unused = sorted(key for key in ENGLISH if key not in literal and not key.startswith(prefixes))
    assert unused == [], "the catalog has keys the client never uses"
    assert all(prefix for prefix in prefixes), "a computed key needs a literal prefix"

