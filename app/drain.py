"""Draining: between the signal to stop (SIGTERM, or SIGINT) and the shutdown, the node keeps serving
everything while its readiness probe (``GET /api/ready``) answers 503, so that a load balancer sends it
nobody new. The drain lasts ``CARDROOM_DRAIN_SECONDS``; a second signal ends it at once."""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import FrameType

import uvicorn

log = logging.getLogger(__name__)


HAND_OVER_SECONDS = 15.0
"""The longest a cluster's node takes to hand its rooms over when told to stop."""


@dataclass
class Drain:
    draining: bool = False
    hand_over: Callable[[], Awaitable[None]] | None = None
    """In a cluster: gives the node's rooms to the other nodes. Once the drain begins the node stops
    listening (a load balancer's next try goes elsewhere), hands its rooms over and shuts down."""


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
        self.handing_over: asyncio.Task[None] | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        seconds = self.seconds if self.drain.hand_over is None else max(self.seconds, HAND_OVER_SECONDS)
        if self.drain.draining or seconds <= 0:
            self.drain.draining, self.until = True, None
            super().handle_exit(sig, frame)
            return
        self.drain.draining = True
        self.signal, self.until = sig, time.monotonic() + seconds

    async def _hand_over(self, hand_over: Callable[[], Awaitable[None]]) -> None:
        for server in self.servers:
            server.close()
        try:
            await hand_over()
        except Exception:
            log.exception("handing the rooms over failed")
        log.info("draining: every room handed over; shutting down")
        self.until = time.monotonic()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await super().shutdown(sockets)
        self.after_shutdown()

    async def on_tick(self, counter: int) -> bool:
        if self.drain.draining and not self.announced:
            self.announced = True
            log.info("draining: not ready from now on; shutting down in at most %g s", self.seconds)
            if self.drain.hand_over is not None:
                self.handing_over = asyncio.create_task(self._hand_over(self.drain.hand_over))
        if self.until is not None and time.monotonic() >= self.until and self.signal is not None:
            self.until = None
            super().handle_exit(self.signal, None)
        return await super().on_tick(counter)
