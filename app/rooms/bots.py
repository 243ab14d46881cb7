"""Bots at the table. Their decisions are computed in a separate process, so that a long search never
holds the event loop (nor, through the GIL, slows it): see ``bench/bots_loop.py``."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import random
import secrets
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from functools import cache

from app.bots.base import Bot
from app.bots.registry import make_bot
from app.games.base import JSON
from app.metrics import bot_decisions

BOT_PROCESSES = 1
PR_SET_PDEATHSIG = 1
ORPHAN_CHECK_SECONDS = 0.5
_executor: ProcessPoolExecutor | None = None


@cache
def bot_for(game: str, level: str) -> Bot:
    return make_bot(game, level)


def decide(game: str, level: str, view: JSON, legal: list[JSON], seed: int) -> JSON:
    """One decision, in the bots' process: the bot sees the seat's view and legal actions only."""
    return bot_for(game, level).choose(view, legal, random.Random(seed))


def end_with_parent(parent: int, spawned_by_main_thread: bool) -> None:
    """Runs first in each worker: the worker ends when the server process ends, whatever the signal.

    Linux's parent-death signal is sent when the thread that spawned the worker ends, so it is only
    asked for when that thread is the main one; a thread that polls the parent's id covers the rest
    (and other systems)."""
    if spawned_by_main_thread:
        with contextlib.suppress(AttributeError, OSError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(0)
    threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True,
                     name="parent-watchdog").start()


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK_SECONDS)
    os._exit(0)


def executor() -> ProcessPoolExecutor:
    global _executor
    if _executor is None:
        on_main_thread = threading.current_thread() is threading.main_thread()
        _executor = ProcessPoolExecutor(max_workers=BOT_PROCESSES,
                                        mp_context=multiprocessing.get_context("spawn"),
                                        initializer=end_with_parent, initargs=(os.getpid(), on_main_thread))
    return _executor


def stop_workers() -> None:
    """End the bots' processes and free what they share with the server (the server is shutting
    down; an exit by signal would leave the semaphores to multiprocessing's resource tracker, which
    warns about them on standard error)."""
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=True, cancel_futures=True)
        _executor = None


class BotSeats:
    """The bots of one room."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.rng = random.Random(secrets.randbits(64))

    async def choose(self, level: str, view: JSON, legal: list[JSON]) -> JSON:
        seed = self.rng.getrandbits(64)
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        action = await loop.run_in_executor(executor(), decide, self.game, level, view, legal, seed)
        bot_decisions(self.game, level).observe(time.perf_counter() - started)
        return action
