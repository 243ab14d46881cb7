"""The FastAPI application: HTTP API, room WebSockets and the static client."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles

from app.api.bench import DurableGroups
from app.api.bench import router as bench_router
from app.api.body_limit import BodyLimit
from app.api.deps import reject_control_characters
from app.api.errors import install_error_handlers
from app.api.everywhere import Everywhere, NodeActions
from app.api.limits import build_limits
from app.api.routes import (
    admin,
    games,
    health,
    leaderboard,
    matches,
    pages,
    players,
    replays,
    reports,
    rooms,
    sessions,
)
from app.api.security_headers import SecurityHeaders
from app.api.sockets import OpenSockets
from app.api.ws import router as ws_router
from app.cluster.join import joined_cluster
from app.config import Settings, get_settings
from app.db import migrate
from app.db.bench_writes import GroupedBenchWrites
from app.db.session import close_engine, make_engine, make_sessionmaker
from app.db.store import Store
from app.drain import Drain
from app.logs import RequestIds
from app.metrics import Monitoring
from app.redaction import install_redaction
from app.rooms.manager import RoomManager
from app.rooms.timing import Timing

FRONTEND_DIR = Path(__file__).resolve().parents[1] / "frontend"


def create_app(settings: Settings | None = None, *, run_migrations: bool = True,
               drain: Drain | None = None) -> FastAPI:
    """The app; ``drain`` is set by the server when told to stop (:mod:`app.drain`)."""
    settings = settings or get_settings()
    install_redaction()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if run_migrations:
            await asyncio.to_thread(migrate.upgrade, settings.database_url)
        engine = make_engine(settings.database_url, settings.db_lock_timeout)
        store = Store(make_sessionmaker(engine))
        app.state.settings = settings
        app.state.store = store
        app.state.bench_groups = DurableGroups(GroupedBenchWrites(store.sessions))
        app.state.rooms = RoomManager(
            store, Timing(auto_pause=settings.reveal_pause, bot_delay=settings.bot_delay,
                          grace_period=settings.grace_period, missed_limit=settings.missed_turns_limit,
                          seed_wait=settings.seed_wait, deal_pause=settings.deal_pause_seconds,
                          rematch_wait=settings.rematch_seconds),
            test_mode=settings.test_mode,
            turn_seconds=settings.turn_seconds_public, arrange_seconds=settings.arrange_seconds_public,
            max_rooms_per_player=settings.max_rooms_per_player,
            max_connections_per_ip=settings.max_connections_per_ip,
            idle_minutes=settings.room_idle_minutes, node_id=settings.node_id)
        here = NodeActions(app.state.rooms, app.state.open_sockets)
        async with joined_cluster(settings, app.state.rooms, app.state.drain, here) as cluster:
            app.state.everywhere = Everywhere(here, cluster)
            app.state.redis = None if cluster is None else cluster.coordinator.redis
            limits = build_limits(settings, app.state.redis)
            app.state.guest_limit, app.state.report_limit = limits.guests, limits.reports
            app.state.chat_limit, app.state.signin_limiter = limits.chat, limits.signin
            if cluster is None:
                await app.state.rooms.restore()
            app.state.rooms.start_sweeping(settings.room_sweep_seconds)
            monitoring = Monitoring(app.state.rooms, settings.metrics_host, settings.metrics_port)
            try:
                await monitoring.start()
                yield
            finally:
                await monitoring.stop()
                if cluster is not None:
                    await cluster.stop()
                await app.state.rooms.close()
                await store.close()
                await close_engine(engine)

    app = FastAPI(title="cardroom", version="0.1.0", lifespan=lifespan,
                  description="Hazari, Azi and Hasenpfeffer tables over WebSockets, with match history.")
    install_error_handlers(app)
    app.add_middleware(SecurityHeaders)
    app.state.open_sockets = OpenSockets()
    app.state.drain = drain or Drain()
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    for router in (players.router, sessions.router, games.router, rooms.router, matches.router,
                   replays.router, leaderboard.router, health.router, admin.router, reports.router):
        app.include_router(router, dependencies=[Depends(reject_control_characters)])
    app.include_router(ws_router)
    app.include_router(bench_router)
    app.include_router(pages.router)
    app.add_middleware(RequestIds, node_id=settings.node_id)
    app.mount("/rules", StaticFiles(directory=games.RULES_DIR), name="rules")
    app.mount("/", StaticFiles(directory=FRONTEND_DIR, html=True), name="frontend")
    return app
