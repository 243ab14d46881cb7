"""The history API: every filter of ``GET /api/matches``, the cursor (a match finishing between two
pages included), the NDJSON stream, bad requests, the indexes the list reads, profile statistics and
the migration that adds them. Real matches are played through the app."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import text
from starlette.testclient import TestClient
from support import Client, seat_all, seat_owner_with_bots
from support.hazari import hazari_match
from support.played_matches import app_client, people, play_out

from app.db import migrate
from app.db.history import HistoryFilter, encode_cursor, explain_list
from app.db.session import close_engine, make_engine, make_sessionmaker
from app.db.store import Store
from app.db.tokens import hash_token


@pytest.fixture
def http(database_url: str) -> Iterator[TestClient]:
    """The app on SQLite and on PostgreSQL (one database per session, shared by its tests)."""
    with app_client(database_url) as client:
        yield client


def bot_match(owner: Client, game: str, options: dict[str, Any], seed: int = 1) -> str:
    """``owner`` at seat 0 with random bots in the other seats plays a whole match."""
    room_id = owner.create_room(game, options, private=True)
    with owner.connected(room_id):
        seat_owner_with_bots(owner)
        owner.send({"type": "start"})
        final = play_out({0: owner}, random.Random(seed))
    match_id: str = final["room"]["match_id"]
    return match_id


def ids(http: TestClient, **params: Any) -> list[str]:
    response = http.get("/api/matches", params={"limit": 100, **params})
    assert response.status_code == 200, response.text
    return [match["id"] for match in response.json()["matches"]]


def finished_at(http: TestClient, match_id: str) -> str:
    stamp: str = http.get(f"/api/matches/{match_id}").json()["finished_at"]
    return stamp


def test_every_filter_of_the_list(http: TestClient) -> None:
    a, b, c, d, e = people(http, "Filter", 5)
    first = hazari_match([b, a, c, d])
    second = hazari_match([a, c, d, e])
    third = bot_match(a, "hasenpfeffer", {"target": 1})
    third_won = http.get(f"/api/matches/{third}").json()["result"]["winners"] == [0]

    assert ids(http, player=a.id) == [third, second, first]
    assert ids(http, player=a.id, game="hazari") == [second, first]
    assert ids(http, player=a.id, game="hasenpfeffer") == [third]
    assert ids(http, player=a.id, game="azi") == []
    assert ids(http, player=a.id, opponent=b.id) == [first]
    assert ids(http, player=a.id, opponent=e.id) == [second]
    assert ids(http, player=a.id, opponent=c.id) == [second, first]
    assert ids(http, player=b.id, opponent=e.id) == []
    assert ids(http, player=a.id, result="won") == [third] * third_won + [first]
    assert ids(http, player=a.id, result="lost") == [third] * (not third_won) + [second]
    assert ids(http, player=c.id, result="won", game="hazari") == [second]
    assert ids(http, player=a.id, game="hazari", result="lost", opponent=e.id) == [second]
    assert ids(http, player=a.id, since=finished_at(http, second)) == [third, second]
    assert ids(http, player=a.id, until=finished_at(http, second)) == [first]
    assert ids(http, player=a.id, since=finished_at(http, first),
               until=finished_at(http, third)) == [second, first]
    assert ids(http, player=a.id, rated="false") == [third, second, first]
    assert ids(http, player=a.id, rated="true") == []
    hazari = ids(http, game="hazari")
    assert first in hazari and second in hazari and third not in hazari
    assert ids(http, game="hazari", since=finished_at(http, second)) == [second]
    everything = ids(http)
    assert everything[:3] == [third, second, first]


def test_the_rated_filter(http: TestClient) -> None:
    players = people(http, "Rated", 4)
    for player in players:
        response = http.post(f"/api/players/{player.id}/claim", headers=player.auth,
                             json={"password": "correct horse"})
        assert response.status_code == 200, response.text
    rated = hazari_match(players)
    guest = people(http, "Unrated", 1)[0]
    unrated = hazari_match([players[0], guest, players[2], players[3]])
    assert ids(http, player=players[0].id, rated="true") == [rated]
    assert ids(http, player=players[0].id, rated="false") == [unrated]
    assert ids(http, player=players[0].id, rated="1") == [rated]
    assert rated in ids(http, rated="true") and unrated not in ids(http, rated="true")
    assert ids(http, rated="false", game="hazari")[0] == unrated
    summary = http.get("/api/matches", params={"player": players[0].id}).json()["matches"]
    assert [match["rated"] for match in summary] == [False, True]


def test_the_cursor_is_stable_while_a_match_finishes_between_two_pages(http: TestClient) -> None:
    four = people(http, "Pager", 4)
    played = [hazari_match(four) for _ in range(3)]
    mine = {"player": four[2].id, "limit": 2}
    page = http.get("/api/matches", params=mine).json()
    assert [match["id"] for match in page["matches"]] == played[:0:-1]
    assert page["next"] is not None

    newest = hazari_match(four)
    following = http.get("/api/matches", params={**mine, "before": page["next"]}).json()
    assert [match["id"] for match in following["matches"]] == [played[0]]
    assert following["next"] is None
    fresh = http.get("/api/matches", params=mine).json()
    assert [match["id"] for match in fresh["matches"]] == [newest, played[2]]

    seen, cursor = [], None
    while True:
        params: dict[str, Any] = {"limit": 1, "game": "hazari"}
        if cursor is not None:
            params["before"] = cursor
        page = http.get("/api/matches", params=params).json()
        seen += [match["id"] for match in page["matches"]]
        if (cursor := page["next"]) is None:
            break
    assert len(seen) == len(set(seen)), "no match twice"
    assert [match_id for match_id in seen if match_id in (*played, newest)] == [newest, *played[::-1]]
    stamps = [http.get(f"/api/matches/{match_id}").json()["finished_at"] for match_id in seen[:5]]
    assert stamps == sorted(stamps, reverse=True)


def test_the_ndjson_stream(fresh_sqlite_url: str) -> None:
    with app_client(fresh_sqlite_url, history_stream_batch=2) as http:
        four = people(http, "Stream", 4)
        played = [hazari_match(four) for _ in range(5)]
        other = hazari_match(people(http, "Other", 4))
        response = http.get(f"/api/players/{four[1].id}/matches.ndjson")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in response.text.splitlines()]
        assert [line["id"] for line in lines] == played[::-1] and other not in response.text
        assert lines[0] == http.get("/api/matches", params={"player": four[1].id}).json()["matches"][0]
        assert response.text.endswith("\n")

        won = http.get(f"/api/players/{four[1].id}/matches.ndjson", params={"result": "won"})
        assert [json.loads(line)["id"] for line in won.text.splitlines()] == played[::-1]
        lost = http.get(f"/api/players/{four[1].id}/matches.ndjson",
                        params={"result": "lost", "game": "hazari"})
        assert lost.status_code == 200 and lost.text == ""
        since = http.get(f"/api/players/{four[0].id}/matches.ndjson",
                         params={"since": finished_at(http, played[3])})
        assert [json.loads(line)["id"] for line in since.text.splitlines()] == [played[4], played[3]]

        for params, status, code in [
            ({}, 404, "player/not_found"),
            ({"player": four[0].id}, 400, "request/unknown_filter"),
            ({"limit": 5}, 400, "request/unknown_filter"),
            ({"since": "yesterday"}, 400, "request/bad_filter"),
        ]:
            player = "nobody" if status == 404 else four[0].id
            refused = http.get(f"/api/players/{player}/matches.ndjson", params=params)
            assert refused.status_code == status and refused.json()["error"]["code"] == code


@pytest.mark.parametrize(("params", "status", "code"), [
    ({"colour": "red"}, 400, "request/unknown_filter"),
    ({"page": 2}, 400, "request/unknown_filter"),
    ({"before": "%%%"}, 400, "request/bad_cursor"),
    ({"before": "bm90IGEgY3Vyc29y"}, 400, "request/bad_cursor"),
    ({"limit": "ten"}, 400, "request/bad_limit"),
    ({"limit": 0}, 400, "request/bad_limit"),
    ({"limit": 101}, 400, "request/bad_limit"),
    ({"since": "2026-03-01T00:00:00Z", "until": "2026-02-01T00:00:00Z"}, 400, "request/bad_range"),
    ({"since": "last tuesday"}, 400, "request/bad_filter"),
    ({"until": "2026-13-01"}, 400, "request/bad_filter"),
    ({"result": "won"}, 400, "request/bad_filter"),
    ({"opponent": "someone"}, 400, "request/bad_filter"),
    ({"player": "PLAYER", "result": "draw"}, 400, "request/bad_filter"),
    ({"rated": "maybe"}, 400, "request/bad_filter"),
    ({"game": "poker"}, 400, "request/unknown_game"),
    ({"player": "nobody"}, 404, "player/not_found"),
    ({"player": "PLAYER", "opponent": "nobody"}, 404, "player/not_found"),
])
def test_bad_history_requests(client: TestClient, params: dict[str, Any], status: int, code: str) -> None:
    player = Client(client, "Asker")
    params = {key: player.id if value == "PLAYER" else value for key, value in params.items()}
    response = client.get("/api/matches", params=params)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"]["code"] == code and body["error"]["message"]


def test_a_cursor_and_timestamps_with_offsets_are_read(client: TestClient) -> None:
    four = people(client, "Offset", 4)
    match_id = hazari_match(four)
    stamp = finished_at(client, match_id)
    shifted = stamp.replace("Z", "") + "+00:00"
    assert ids(client, player=four[0].id, since=shifted) == [match_id]
    assert ids(client, player=four[0].id, until=stamp.replace("Z", "")) == []
    assert ids(client, player=four[0].id, before=encode_cursor((moment(stamp), "~"))) == [match_id]
    assert ids(client, player=four[0].id, before=encode_cursor((moment(stamp), match_id))) == []


def moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.removesuffix("Z"))


SHAPES: list[tuple[dict[str, Any], str]] = [
    ({}, "ix_matches_finished"),
    ({"game": "hazari"}, "ix_matches_game_finished"),
    ({"rated": True}, "ix_matches_rated_finished"),
    ({"player": "p"}, "ix_match_seats_player_finished"),
    ({"player": "p", "game": "azi"}, "ix_match_seats_player_game_finished"),
    ({"player": "p", "result": "won"}, "ix_match_seats_player_won_finished"),
    ({"player": "p", "game": "azi", "result": "lost"}, "ix_match_seats_player_game_won_finished"),
    ({"player": "p", "opponent": "q"}, "ix_match_seats_player_finished"),
    ({"player": "p", "rated": False}, "ix_match_seats_player_finished"),
]


def test_every_list_query_reads_an_index(database_url: str) -> None:
    """The plan of each filter's query reads an index in order: on SQLite the one made for it. On
    PostgreSQL, told not to scan whole tables (its tiny test tables would make a scan the cheaper
    plan), one of the family made for it: with a few rows the costs of the candidates tie, and the
    benchmark (``bench/history.py``) shows the plans on 100,000 matches."""
    async def plans() -> list[str]:
        engine = make_engine(database_url)
        sessions = make_sessionmaker(engine)
        found = []
        try:
            for params, _ in SHAPES:
                async with sessions.begin() as session:
                    if engine.dialect.name == "postgresql":
                        await session.execute(text("SET LOCAL enable_seqscan = off"))
                    cursor = encode_cursor((moment("2026-01-01T00:00:00"), "x"))
                    found.append(await explain_list(session, HistoryFilter(**params), before=cursor))
        finally:
            await close_engine(engine)
        return found
    sqlite = database_url.startswith("sqlite")
    for (params, index), plan in zip(SHAPES, asyncio.run(plans()), strict=True):
        family = index if sqlite else ("ix_match_seats_player" if "player" in params else "ix_matches_")
        assert family in plan, (params, plan)
        assert "Seq Scan" not in plan and "SCAN matches" not in plan and "SCAN match_seats" not in plan


def test_profile_statistics(client: TestClient) -> None:
    a, b, c, d = people(client, "Stats", 4)
    hazari_match([b, a, c, d])
    hazari_match([a, b, c, d])
    room_id = a.create_room("hazari", {"target": 300}, private=True)
    with ExitStack() as stack:
        seat_all([a, b, c, d], room_id, stack)
        a.send({"type": "start"})
        a.state_where(lambda m: m["view"]["phase"] == "arranging")
        profile = client.get(f"/api/players/{a.id}").json()
    assert profile["stats"]["hazari"] == {"matches": 3, "finished": 2, "wins": 1, "abandoned": 0,
                                          "deals": 2,
                                          "avg_points_per_deal": 180.0, "avg_total": 180.0, "best": 360}
    assert profile["claimed"] is False and profile["ratings"] == {} and profile["rating_history"] == []
    loser = client.get(f"/api/players/{c.id}").json()["stats"]["hazari"]
    assert loser["wins"] == 0 and loser["best"] == 0 and loser["avg_points_per_deal"] == 0.0


def test_profile_statistics_of_team_and_chip_games(fresh_sqlite_url: str) -> None:
    with app_client(fresh_sqlite_url) as http:
        owner = people(http, "Teams", 1)[0]
        match_id = bot_match(owner, "hasenpfeffer", {"target": 1}, seed=4)
        detail = http.get(f"/api/matches/{match_id}").json()
        stats = http.get(f"/api/players/{owner.id}").json()["stats"]["hasenpfeffer"]
    own_team = [deal["points"][0] for deal in detail["deals"]]
    assert stats["deals"] == len(own_team)
    assert stats["avg_points_per_deal"] == round(sum(own_team) / len(own_team), 2)
    assert stats["best"] == detail["result"]["totals"][0]
    assert stats["wins"] == int(detail["result"]["winners"] == [0])


def test_the_migration_copies_tokens_and_fills_the_seats_of_finished_matches(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    url = f"sqlite+aiosqlite:///{path}"
    config = migrate.alembic_config(url)
    command.upgrade(config, "0002")
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO players VALUES ('p1', 'Old', ?, '2026-01-01 00:00:00')",
                   (hash_token("old-token"),))
        db.execute("INSERT INTO rooms (id, game, options, private, owner_id, status, created_at) "
                   "VALUES ('r1', 'hasenpfeffer', '{}', 0, 'p1', 'finished', '2026-01-01 00:00:00')")
        db.execute("INSERT INTO matches VALUES ('m1', 'r1', 'hasenpfeffer', '{}', 0, NULL, 'finished', "
                   "'2026-01-01 00:00:00', '2026-01-01 01:00:00', ?)",
                   (json.dumps({"winners": [1], "totals": [4, 10], "teams": [[0, 2], [1, 3]]}),))
        for seat in range(4):
            db.execute("INSERT INTO match_seats VALUES ('m1', ?, ?, ?, ?)",
                       (seat, "p1" if seat == 1 else None, f"S{seat}", None if seat == 1 else "random"))
        for number, points in ((1, [4, 2]), (2, [0, 8])):
            db.execute("INSERT INTO deals VALUES ('m1', ?, '[]', ?, NULL)", (number, json.dumps(points)))
    command.upgrade(config, "head")
    with sqlite3.connect(path) as db:
        tokens = db.execute("SELECT player_id, token_hash, revoked_at FROM tokens").fetchall()
        seats = db.execute("SELECT seat, game, finished_at, won, total, deal_points, deals FROM match_seats "
                           "ORDER BY seat").fetchall()
        rated = db.execute("SELECT rated FROM matches").fetchall()
    assert tokens == [("p1", hash_token("old-token"), None)]
    assert seats[1][:2] == (1, "hasenpfeffer") and seats[1][2].startswith("2026-01-01 01:00:00")
    assert [seat[3:] for seat in seats] == [(0, 4, 4, 2), (1, 10, 10, 2), (0, 4, 4, 2), (1, 10, 10, 2)]
    assert rated == [(0,)]

    async def who() -> str | None:
        engine = make_engine(url)
        try:
            player = await Store(make_sessionmaker(engine)).player_by_token("old-token")
            return None if player is None else player.id
        finally:
            await close_engine(engine)
    assert asyncio.run(who()) == "p1"
    command.downgrade(config, "0002")
    command.upgrade(config, "head")

