"""Server settings, read from the environment (prefix ``CARDROOM_``)."""

from __future__ import annotations

import secrets
import socket
from functools import lru_cache
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CARDROOM_")

    database_url: str = "sqlite+aiosqlite:///./data/cardroom.db"
    db_lock_timeout: float = 5.0
    db_pool_size: int = Field(default=20, ge=1, le=1000)
    """Database connections a node keeps (as many again while busy): with several nodes, keep
    nodes x 2 x this under PostgreSQL's ``max_connections``."""
    host: str = "127.0.0.1"
    port: int = 8000
    test_mode: bool = False
    reveal_pause: float = 2.5
    deal_pause_seconds: float = 20.0
    rematch_seconds: float = Field(default=30.0, ge=0)
    bot_delay: float = 0.8
    starting_chips: int = 1000
    topup_below: int = 200
    topup_period_hours: float = 24.0
    max_message_bytes: int = 4096
    max_body_bytes: int = 65536
    ws_messages_per_second: float = 20.0
    ws_message_burst: float = 40.0
    chat_lines_per_second: float = Field(default=1.0, gt=0)
    chat_burst: float = Field(default=5.0, ge=1)
    max_connections_per_ip: int = 50
    max_rooms_per_player: int = 5
    guests_per_hour: int = 20
    room_idle_minutes: float = 30.0
    room_sweep_seconds: float = 60.0
    rooms_page_max: int = 100
    grace_period: float = 60.0
    seed_wait: float = 3.0
    turn_seconds_public: int = 30
    arrange_seconds_public: int = 120
    missed_turns_limit: int = 2
    history_max_limit: int = 100
    history_stream_batch: int = 500
    signin_max_failures: int = 5
    signin_address_failures: int = 20
    signin_first_delay_seconds: float = 1.0
    signin_max_delay_seconds: float = 900.0
    signin_window_seconds: float = 900.0
    bench_endpoints: bool = False
    log_level: Literal["critical", "error", "warning", "info", "debug", "trace"] = "info"
    log_format: Literal["text", "json"] = "text"
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    metrics_host: str = "127.0.0.1"
    drain_seconds: float = Field(default=0.0, ge=0)
    node_id: str = Field(default_factory=lambda: f"{socket.gethostname()}-{secrets.token_hex(3)}",
                         max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    redis_url: str | None = None
    """Cluster mode: every node of one cluster names the same Redis and the same PostgreSQL database."""
    redis_prefix: str = Field(default="cardroom", max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._:-]*$")
    """The start of every Redis key of the cluster (several clusters may share one Redis)."""
    node_address: str | None = None
    """Where the other nodes reach this one (``http://host:port``); by default the host and port served."""
    lease_seconds: float = Field(default=5.0, gt=0, le=300)
    """How long a node holds a room without renewing its lease; a dead node's rooms move this long after."""
    forwarded_allow_ips: str | None = None
    """The proxies whose ``X-Forwarded-For`` names the client (addresses or networks, comma-separated, or
    ``*``); unset, the header is ignored and the client is the connection's peer."""
    reports_per_window: int = Field(default=5, ge=1)
    report_window_seconds: float = Field(default=3600.0, gt=0)


@lru_cache
def get_settings() -> Settings:
    return Settings()
