"""The bench-only sockets of ``bench/load.py``: refused unless ``CARDROOM_BENCH_ENDPOINTS`` is on; the
durable baselines store one row per frame (in a transaction of its own, or sharing one with the frames
that arrive together) and send the frame to the four sockets of its group."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from support import make_settings

from app.db.bench_writes import BENCH_WRITES
from app.main import create_app


def app_client(database_url: str, bench_endpoints: bool) -> TestClient:
    return TestClient(create_app(make_settings(database_url, bench_endpoints=bench_endpoints),
                                 run_migrations=False))


@pytest.fixture
def bench_http(database_url: str) -> Iterator[TestClient]:
    with app_client(database_url, bench_endpoints=True) as http:
        yield http


async def rows_of(sessions: async_sessionmaker[AsyncSession], group: str) -> int:
    async with sessions() as session:
        count = await session.scalar(
            select(func.count()).select_from(BENCH_WRITES).where(BENCH_WRITES.c.group_id == group))
        return int(count or 0)


def stored_rows(http: TestClient, group: str) -> int:
    assert http.portal is not None
    sessions = http.app.state.store.sessions  # type: ignore[attr-defined]
    return http.portal.call(rows_of, sessions, group)


@pytest.mark.parametrize("path", ["/ws/echo", "/ws/bench/durable/g1", "/ws/bench/grouped/g1"])
def test_the_bench_sockets_are_refused_when_the_setting_is_off(fresh_sqlite_url: str, path: str) -> None:
    with app_client(fresh_sqlite_url, bench_endpoints=False) as http:
        with http.websocket_connect(path) as ws:
            assert ws.receive_json() == {"type": "error", "code": "bench/disabled",
                                         "message": "the bench endpoints are off on this server",
                                         "ref": None}
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
        assert closed.value.code == 1008
        assert stored_rows(http, "g1") == 0


def test_the_echo_sends_each_frame_back(bench_http: TestClient) -> None:
    with bench_http.websocket_connect("/ws/echo") as ws:
        ws.send_text("ping")
        assert ws.receive_text() == "ping"


@pytest.mark.parametrize("flavour", ["durable", "grouped"])
def test_one_frame_writes_one_row_and_reaches_the_four_sockets_of_its_group(bench_http: TestClient,
                                                                           flavour: str) -> None:
    group, other = f"g-{secrets.token_hex(4)}", f"h-{secrets.token_hex(4)}"
    with ExitStack() as stack:
        seats = [stack.enter_context(bench_http.websocket_connect(f"/ws/bench/{flavour}/{group}"))
                 for _ in range(4)]
        outsider = stack.enter_context(bench_http.websocket_connect(f"/ws/bench/{flavour}/{other}"))
        seats[1].send_text('{"n": 1}')
        assert [seat.receive_text() for seat in seats] == ['{"n": 1}'] * 4
        assert stored_rows(bench_http, group) == 1
        # The other group's socket received nothing of it: its first frame is its own.
        outsider.send_text('{"n": 2}')
        assert outsider.receive_text() == '{"n": 2}'
    assert stored_rows(bench_http, group) == 1
    assert stored_rows(bench_http, other) == 1


def test_grouped_frames_sent_together_each_store_a_row_before_they_go_out(bench_http: TestClient) -> None:
    groups = [f"k-{secrets.token_hex(4)}" for _ in range(6)]
    with ExitStack() as stack:
        sockets = [stack.enter_context(bench_http.websocket_connect(f"/ws/bench/grouped/{group}"))
                   for group in groups]
        for index, ws in enumerate(sockets):
            ws.send_text(f'{{"n": {index}}}')
        assert [ws.receive_text() for ws in sockets] == [f'{{"n": {index}}}' for index in range(6)]
        assert [stored_rows(bench_http, group) for group in groups] == [1] * 6
