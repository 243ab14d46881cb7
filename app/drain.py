"""Draining: between the signal to stop (SIGTERM, or SIGINT) and the shutdown, the node keeps serving
everything while its readiness probe (``GET /api/ready``) answers 503, so that a load balancer sends it
nobody new. The drain lasts ``CARDROOM_DRAIN_SECONDS``; a second signal ends it at once."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType

import uvicorn

log = logging.getLogger(__name__)


@dataclass
class Drain:
    draining: bool = False


class DrainingServer(uvicorn.Server):
    """uvicorn's server, whose shutdown waits for the drain and ends with ``after_shutdown`` (the
    process is then ended by the signal it was given, with no chance to clean up). The signal handler
    only sets fields (it may interrupt anything, a log call included); the server's tick, ten times a
    second, acts on them."""

    def __init__(self, config: uvicorn.Config, drain: Drain, seconds: float,
                 after_shutdown: Callable[[], None]) -> None:
        super().__init__(config)
        self.drain = drain
        self.seconds = seconds
        self.after_shutdown = after_shutdown
        self.signal: int | None = None
        self.until: float | None = None
        self.announced = False

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.drain.draining or self.seconds <= 0:
            self.drain.draining, self.until = True, None
            super().handle_exit(sig, frame)
            return
        self.drain.draining = True
        self.signal, self.until = sig, time.monotonic() + self.seconds

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await super().shutdown(sockets)
        self.after_shutdown()

    async def on_tick(self, counter: int) -> bool:
        if self.drain.draining and not self.announced:
            self.announced = True
            log.info("draining: not ready from now on; shutting down in at most %g s", self.seconds)
        if self.until is not None and time.monotonic() >= self.until and self.signal is not None:
            self.until = None
            super().handle_exit(self.signal, None)
        return await super().on_tick(counter)
