"""The metrics: real moves through the room WebSocket move every metric the server names, read from
``/metrics`` on the metrics port before and after; the players' port never serves them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import ExitStack

import httpx2 as httpx
import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient
from support import Client, make_settings
from support.db import new_match, open_store, step
from support.hazari import start, up
from support.live import free_port

from app.main import create_app

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
LAG_WAIT_SECONDS = 30


@pytest.fixture
def monitored(database_url: str) -> Iterator[tuple[TestClient, int]]:
    """The app with its metrics on a port of their own; the autopilot holds a seat after one timeout."""
    port = free_port()
    settings = make_settings(database_url, metrics_port=port, missed_turns_limit=1)
    with TestClient(create_app(settings, run_migrations=False)) as http:
        yield http, port


def scrape(port: int) -> Samples:
    response = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(response.text) for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples: Samples, name: str) -> float:
    """The sum of ``name`` over all its labels."""
    return sum(found for (sample, _labels), found in samples.items() if sample == name)


def scrape_once_the_loop_was_timed(port: int, before: Samples) -> Samples:
    """The event loop's lag is sampled on a timer: the first scrape after it has been."""
    deadline = time.monotonic() + LAG_WAIT_SECONDS
    while True:
        samples = scrape(port)
        moved = total(samples, "cardroom_event_loop_lag_seconds_count") > total(
            before, "cardroom_event_loop_lag_seconds_count")
        if moved or time.monotonic() > deadline:
            return samples


def test_moves_through_the_socket_move_every_metric(monitored: tuple[TestClient, int]) -> None:
    http, port = monitored
    before = scrape(port)
    players = [Client(http, f"M{seat}") for seat in range(4)]
    with ExitStack() as stack:
        start(players, stack, arrange_seconds=1)
        playing = scrape(port)
        players[0].act({"kind": "up", "groups": [["AS"]]})
        refusal = players[0].error()
        for seat, player in enumerate(players[:3]):
            up(player, f"m{seat}")
        players[3].until(lambda m: m["type"] == "notice" and m["code"] == "timer/expired")
    with http.websocket_connect("/ws/rooms/nowhere") as refused:
        assert refused.receive_json()["code"] == "room/not_found"
    after = scrape_once_the_loop_was_timed(port, before)

    # The database may hold rooms of other tests, which the app restored when it started.
    rooms = "cardroom_rooms"
    assert value(playing, rooms, game="hazari", status="playing") == value(
        before, rooms, game="hazari", status="playing") + 1
    for gauge in ("cardroom_sockets", "cardroom_players_connected"):
        assert value(playing, gauge) == value(before, gauge) + 4
        assert value(after, gauge) == value(before, gauge)

    def grew(name: str, at_least: float = 1, **labels: str) -> bool:
        return value(after, name, **labels) - value(before, name, **labels) >= at_least

    assert grew("cardroom_moves_total", 4, game="hazari")
    for stage in ("judge", "store", "announce"):
        assert grew("cardroom_move_stage_seconds_count", 4, stage=stage)
    assert grew("cardroom_move_seconds_count", 4)
    assert grew("cardroom_step_batch_size_count") and grew("cardroom_step_commit_seconds_count")
    assert grew("cardroom_bot_decision_seconds_count", game="hazari", level="strong")
    assert grew("cardroom_turn_timeouts_total", game="hazari")
    assert grew("cardroom_autopilot_takeovers_total", game="hazari")
    assert grew("cardroom_rejections_total", code=refusal["code"])
    assert grew("cardroom_websocket_closes_total", code="1008", by="server")
    assert grew("cardroom_websocket_closes_total", 4, code="1000", by="client")
    for name in ("cardroom_event_loop_lag_seconds_count", "cardroom_gc_pause_seconds_count"):
        assert total(after, name) > total(before, name), name
    assert value(after, "process_resident_memory_bytes") > 0
    assert ("process_cpu_seconds_total", frozenset()) in after


def test_a_failed_step_write_is_counted(database_url: str) -> None:
    def failures() -> dict[str, float]:
        name = "cardroom_step_write_failures_total"
        return {scope: REGISTRY.get_sample_value(name, {"scope": scope}) or 0.0
                for scope in ("batch", "step")}

    async def write_a_bad_step_among_good_ones() -> None:
        async with open_store(database_url) as store:
            matches = [match_id for match_id, _ in [await new_match(store) for _ in range(3)]]
            await store.record_step(step(matches[0], 1))
            results = await asyncio.gather(*(store.record_step(step(match_id, 1 if index == 0 else 2))
                                             for index, match_id in enumerate(matches)),
                                           return_exceptions=True)
            assert isinstance(results[0], Exception) and results[1:] == [None, None]

    before = failures()
    asyncio.run(write_a_bad_step_among_good_ones())
    after = failures()
    assert after["step"] == before["step"] + 1
    assert after["batch"] - before["batch"] in (0, 1), "a batch fails when the bad step shared one"


def test_the_players_port_does_not_serve_the_metrics(client: TestClient) -> None:
    response = client.get("/metrics")
    assert response.status_code == 404
    assert "cardroom_" not in response.text and "process_" not in response.text


def test_the_metrics_port_serves_only_the_metrics(monitored: tuple[TestClient, int]) -> None:
    _http, port = monitored
    base = f"http://127.0.0.1:{port}"
    assert httpx.get(f"{base}/", timeout=10).status_code == 404
    assert httpx.post(f"{base}/metrics", timeout=10).status_code == 405
    head = httpx.head(f"{base}/metrics", timeout=10)
    assert head.status_code == 200 and head.content == b""
    openmetrics = httpx.get(f"{base}/metrics", headers={"Accept": "application/openmetrics-text"}, timeout=10)
    assert openmetrics.headers["content-type"].startswith("application/openmetrics-text")
    assert openmetrics.text.rstrip().endswith("# EOF")
