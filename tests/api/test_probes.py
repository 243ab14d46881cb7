"""The probes: liveness always answers while the process serves; readiness answers 503 while the node
drains or its database does not answer, 200 otherwise; both are in the OpenAPI document with every
status they answer."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from sqlalchemy import make_url
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine
from starlette.testclient import TestClient
from support import make_settings
from support.live import free_port

from app.api.routes import health
from app.db.store import Store
from app.main import create_app


def unreachable_url(database_url: str, tmp_path: Path) -> str:
    """A database of the same kind that cannot be reached: a file in a folder that does not exist, or a
    server on a port where nothing listens."""
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'missing' / 'cardroom.db'}"
    return url.set(host="127.0.0.1", port=free_port()).render_as_string(hide_password=False)


def test_a_node_with_its_database_is_ready(db_client: TestClient) -> None:
    response = db_client.get("/api/ready")
    assert response.status_code == 200 and response.json() == {"status": "ready"}
    assert db_client.get("/api/health").json() == {"status": "ok"}


def test_a_node_whose_database_is_unreachable_is_not_ready_until_it_is_back(
        db_client: TestClient, database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store: Store = db_client.app.state.store  # type: ignore[attr-defined]
    reachable = store.sessions
    engine = create_async_engine(unreachable_url(database_url, tmp_path))
    monkeypatch.setattr(store, "sessions", async_sessionmaker(engine))
    gone = db_client.get("/api/ready")
    alive = db_client.get("/api/health")
    monkeypatch.setattr(store, "sessions", reachable)
    back = db_client.get("/api/ready")
    assert db_client.portal is not None
    db_client.portal.call(engine.dispose)
    assert gone.status_code == 503 and gone.json()["error"]["code"] == "server/database_unreachable"
    assert int(gone.headers["retry-after"]) > 0
    assert alive.status_code == 200
    assert back.status_code == 200 and back.json() == {"status": "ready"}


@pytest.mark.postgres
def test_a_database_that_does_not_answer_in_time_makes_the_node_not_ready(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.create_server(("127.0.0.1", 0)) as silent, TestClient(
            create_app(make_settings(postgres_url), run_migrations=False)) as http:
        url = make_url(postgres_url).set(port=silent.getsockname()[1])
        engine = create_async_engine(url.render_as_string(hide_password=False))
        monkeypatch.setattr(health, "READY_TIMEOUT", 0.2)
        monkeypatch.setattr(http.app.state.store, "sessions", async_sessionmaker(engine))  # type: ignore[attr-defined]
        response = http.get("/api/ready")
        assert http.portal is not None
        http.portal.call(engine.dispose)
    assert response.status_code == 503 and response.json()["error"]["code"] == "server/database_unreachable"


def test_a_draining_node_is_alive_but_not_ready(client: TestClient) -> None:
    client.app.state.drain.draining = True  # type: ignore[attr-defined]
    response = client.get("/api/ready")
    assert response.status_code == 503 and response.json()["error"]["code"] == "server/draining"
    assert client.get("/api/health").json() == {"status": "ok"}


def test_the_probes_document_every_status_they_answer(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    ready = paths["/api/ready"]["get"]["responses"]
    assert {"200", "503"} <= set(ready)
    assert "draining" in ready["503"]["description"] and "database" in ready["503"]["description"]
    assert "200" in paths["/api/health"]["get"]["responses"]
