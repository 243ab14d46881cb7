"""Retention: ``cardroom archive --older-than DAYS --out FILE`` writes the finished matches older than
DAYS in full to an NDJSON file, then removes their action logs and decks while history, statistics,
ratings and the ledger stay; a second run archives nothing; bad input changes nothing. On SQLite and
PostgreSQL, a database of its own for each run, real matches played through the app."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from support import query
from support.db import OLD_DAYS, archive, backdate
from support.played_matches import Played, app_client, play_matches, what_the_server_says

from app.db import models


def logged_actions(url: str) -> dict[str, int]:
    return dict(query(url, select(models.Action.match_id, func.count()).group_by(models.Action.match_id)))


def without(detail: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {key: value for key, value in detail.items() if key not in keys}


def test_old_matches_are_archived_to_ndjson_and_keep_their_results(own_database: str, tmp_path: Path) -> None:
    url = own_database
    with app_client(url) as http:
        old = play_matches(http, "Old", seed=5)
        recent = play_matches(http, "New", seed=6)
    backdate(url, old.match_ids, OLD_DAYS)
    backdate(url, recent.match_ids, 29)
    played = Played(old.match_ids + recent.match_ids, old.player_ids + recent.player_ids)
    with app_client(url) as http:
        before = what_the_server_says(http, url, played)
    logs = logged_actions(url)
    assert all(logs[match_id] > 0 for match_id in played.match_ids)
    assert not any(detail["archived"] for detail in before["matches"].values())

    out = tmp_path / "archive.ndjson"
    first = archive(url, "--older-than", "30", "--out", str(out))
    assert first.returncode == 0, first.stderr
    assert "2 matches" in first.stderr and str(out) in first.stderr

    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2
    assert {record["id"]: record for record in records} == {match_id: before["matches"][match_id]
                                                             for match_id in old.match_ids}
    assert all(deal["deck"] for record in records for deal in record["deals"])
    assert all(record["actions"] and record["result"] for record in records)

    remaining = logged_actions(url)
    assert remaining == {match_id: logs[match_id] for match_id in recent.match_ids}
    with app_client(url) as http:
        after = what_the_server_says(http, url, played)
        replays = {match_id: http.get(f"/api/matches/{match_id}/replay") for match_id in played.match_ids}
    assert {match_id: (answer.status_code, answer.json().get("error", {}).get("code"))
            for match_id, answer in replays.items()} == {
        **{match_id: (409, "match/archived") for match_id in old.match_ids},
        **{match_id: (200, None) for match_id in recent.match_ids}}, "an archived match has no replay"
    assert after["list"] == before["list"], "history lists the archived matches as before"
    assert after["players"] == before["players"], "chips, statistics and ratings stay"
    assert after["ledger"] == before["ledger"]
    for match_id in recent.match_ids:
        assert after["matches"][match_id] == before["matches"][match_id]
    for match_id in old.match_ids:
        kept, was = after["matches"][match_id], before["matches"][match_id]
        assert kept["archived"] is True and kept["actions"] == []
        assert without(kept, "archived", "actions", "deals") == without(was, "archived", "actions", "deals")
        assert [deal["deck"] for deal in kept["deals"]] == [None] * len(was["deals"])
        assert [without(deal, "deck") for deal in kept["deals"]] == [without(deal, "deck")
                                                                     for deal in was["deals"]]

    again = tmp_path / "again.ndjson"
    second = archive(url, "--older-than", "30", "--out", str(again))
    assert second.returncode == 0 and "0 matches" in second.stderr, second.stderr
    assert again.read_text() == ""
    assert archive(url, "--older-than", "30", "--out", str(out)).returncode == 0
    assert [json.loads(line) for line in out.read_text().splitlines()] == records, "appended nothing"
    assert logged_actions(url) == remaining
    with app_client(url) as http:
        assert what_the_server_says(http, url, played) == after


def test_bad_input_is_refused_with_a_sentence_and_archives_nothing(own_database: str, tmp_path: Path) -> None:
    url = own_database
    with app_client(url) as http:
        played = play_matches(http, "Bad", seed=7)
    backdate(url, played.match_ids, OLD_DAYS)
    logs = logged_actions(url)
    out = tmp_path / "archive.ndjson"
    cases = [(("--older-than", "-1", "--out", str(out)), "DAYS must be a whole number of days, 0 or more"),
             (("--older-than", "ten", "--out", str(out)), "DAYS must be a whole number"),
             (("--older-than", "1.5", "--out", str(out)), "DAYS must be a whole number"),
             (("--out", str(out)), "--older-than"),
             (("--older-than", "30"), "--out"),
             (("--older-than", "30", "--out", str(tmp_path / "missing" / "a.ndjson")),
              "cannot write " + str(tmp_path / "missing" / "a.ndjson")),
             (("--older-than", "30", "--out", str(tmp_path)), "nothing was archived")]
    for args, words in cases:
        done = archive(url, *args)
        assert done.returncode == 2 and words in done.stderr, (args, done.stderr)
    assert not out.exists()
    assert logged_actions(url) == logs
    with app_client(url) as http:
        details = [http.get(f"/api/matches/{match_id}").json() for match_id in played.match_ids]
    assert not any(detail["archived"] for detail in details)

