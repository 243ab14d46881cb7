"""The languages of each game's rules page as `GET /api/games` lists them, and the pages themselves:
each listed page is served, and a translated page keeps the English page's sections and rule numbers."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

RULES_LANGUAGES = {
    "hazari": ["en", "bn", "hi"],
    "azi": ["en", "el", "ka", "kk", "ru"],
    "hasenpfeffer": ["en", "de", "pl"],
}


def rule_numbers_of_sections(text: str) -> list[str]:
    """The rule numbers in the brackets of each section heading, in order (empty for a section without)."""
    return [" ".join(re.findall(r"[A-Z]{2}-\d+", heading))
            for heading in re.findall(r"^##\s+(.*)$", text, re.M)]


def test_the_games_list_the_languages_of_their_rules(client: TestClient) -> None:
    listed = {game["game"]: game["rules_languages"] for game in client.get("/api/games").json()}
    assert listed == RULES_LANGUAGES


@pytest.mark.parametrize("game, language", [(game, language) for game, languages in RULES_LANGUAGES.items()
                                            for language in languages if language != "en"])
def test_each_translated_page_is_served_with_the_english_sections(client: TestClient, game: str,
                                                                 language: str) -> None:
    english = client.get(f"/rules/{game}.md")
    translated = client.get(f"/rules/{game}.{language}.md")
    assert english.status_code == translated.status_code == 200
    assert rule_numbers_of_sections(translated.text) == rule_numbers_of_sections(english.text)
