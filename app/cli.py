"""The ``cardroom`` command: ``serve``, ``migrate``, ``archive``, ``admin``, ``verify`` and ``simulate``."""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import logging
import sys
from collections.abc import Sequence
from functools import partial

from app.config import get_settings
from app.logs import configure_logging

WS_MAX_SIZE = 64 * 1024
"""Frames above this are refused by the server's WebSocket stack itself (close 1009); smaller ones
above ``CARDROOM_MAX_MESSAGE_BYTES`` get an error frame."""


GC_THRESHOLDS = (700, 1_000, 100)
"""The cyclic garbage collector's thresholds (Python's defaults: 700, 10, 10): a young collection as
usual; a middle one after 1,000 young ones, a few minutes at full load; a full one after 100 middle ones."""


def tune_garbage_collector() -> None:
    """Between two of its messages a connection waits in a fresh chain of coroutines (its pending
    receive), so a middle collection scans nearly every connection's chain (at 4,000 connections, 25 to
    45 ms with the event loop stopped; at Python's default, every 2 to 3 seconds), and a full one scans
    every object the server holds (about 0.6 s). Both find almost no garbage: what a room or a
    connection drops is freed at once by reference counting, and the young collections, each a few
    milliseconds, catch the rest. So the modules loaded at startup are left out of every scan
    (``gc.freeze``) and the older collections are made rare."""
    import app.main  # noqa: F401  (everything the server loads, before it is frozen)

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from app.drain import Drain, DrainingServer
    from app.main import create_app
    from app.rooms.bots import stop_workers

    settings = get_settings().model_copy(update={"host": args.host or get_settings().host,
                                                 "port": args.port or get_settings().port})
    tune_garbage_collector()
    drain = Drain()
    # uvicorn is given no logging configuration of its own: its lines go through the server's. Its
    # proxy headers are off unless proxies are named: by itself it would believe any from 127.0.0.1.
    proxies = settings.forwarded_allow_ips or None
    config = uvicorn.Config(partial(create_app, settings, drain=drain), factory=True,
                            host=settings.host, port=settings.port,
                            ws="websockets-sansio", loop="uvloop", http="httptools",
                            ws_per_message_deflate=False, ws_max_size=WS_MAX_SIZE, log_config=None,
                            log_level=settings.log_level, proxy_headers=proxies is not None,
                            forwarded_allow_ips=proxies)
    server = DrainingServer(config, drain, settings.drain_seconds, after_shutdown=stop_workers)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0 if server.started else 1


def migrate_database(_args: argparse.Namespace) -> int:
    from app.db import migrate

    migrate.upgrade(get_settings().database_url)
    logging.getLogger("app.cli").info("database is at the newest schema")
    return 0


def days(text: str) -> int:
    """``--older-than``: a whole number of days, 0 or more."""
    try:
        number = int(text)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"DAYS must be a whole number of days, 0 or more, got {text!r}")
    return number


def archive(args: argparse.Namespace) -> int:
    import asyncio
    from datetime import UTC, datetime, timedelta

    from app.db.archive import archive_matches
    from app.db.session import close_engine, make_engine, make_sessionmaker

    try:
        out = open(args.out, "a", encoding="utf-8")  # noqa: SIM115  (closed below, after the run)
    except OSError as error:
        print(f"cardroom archive: cannot write {args.out}: {error.strerror}; nothing was archived",
              file=sys.stderr)
        return 2

    async def run() -> int:
        engine = make_engine(get_settings().database_url)
        try:
            done = await archive_matches(make_sessionmaker(engine), timedelta(days=args.older_than),
                                         datetime.now(UTC).replace(tzinfo=None), out)
        finally:
            await close_engine(engine)
        print(f"cardroom archive: {done.matches} matches finished over {args.older_than} days ago "
              f"written to {args.out}; {done.actions} logged actions removed", file=sys.stderr)
        return 0

    with out:
        return asyncio.run(run())


def admin(args: argparse.Namespace) -> int:
    """``admin grant NAME`` / ``admin revoke NAME``: the operator's role, audited."""
    import asyncio

    from app.db.operators import OperatorError, set_admin
    from app.db.session import close_engine, make_engine, make_sessionmaker

    granting = args.change == "grant"
    reason = args.reason or f"{args.change} on the server's command line"

    async def run() -> int:
        engine = make_engine(get_settings().database_url)
        try:
            player = await set_admin(make_sessionmaker(engine), args.name, granting, reason)
        except OperatorError as error:
            print(f"cardroom admin: {error.message}", file=sys.stderr)
            return 2
        finally:
            await close_engine(engine)
        done = "now holds" if granting else "no longer holds"
        print(f"cardroom admin: {player.name} (player {player.id}) {done} the admin role", file=sys.stderr)
        return 0

    return asyncio.run(run())


def simulate(args: argparse.Namespace) -> int:
    from app.sim.report import format_table
    from app.sim.simulate import SimConfig
    from app.sim.simulate import simulate as run

    options: dict[str, object] = {}
    for text in args.option:
        name, _, value = text.partition("=")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    config = SimConfig(game=args.game, levels=tuple(args.seats.split(",")), deals=args.deals,
                       seed=args.seed, jobs=args.jobs, stack=args.stack, options=options)
    try:
        result = run(config)
    except ValueError as error:
        print(f"cardroom simulate: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_json(), indent=2) if args.json else format_table(result))
    return 0


def _simulate_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--game", required=True, help="hazari, azi or hasenpfeffer")
    command.add_argument("--seats", required=True,
                         help="one bot level per seat, e.g. strong,random,random,random")
    command.add_argument("--deals", type=int, default=1000,
                         help="deals to play; matches follow one another as they end")
    command.add_argument("--seed", type=int, default=0, help="the same seed gives the same results")
    command.add_argument("--jobs", type=int, default=1, help="worker processes; 0: every core")
    command.add_argument("--stack", type=int, default=1000,
                         help="each seat's starting chips (chip games)")
    command.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                         help="a table option (VALUE read as JSON when it parses)")
    command.add_argument("--json", action="store_true", help="machine-readable output")
    command.set_defaults(run=simulate)


def verify(args: argparse.Namespace) -> int:
    from app.verify import run

    return run(args.server, args.match_id)


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="cardroom", description="The cardroom server.")
    commands = root.add_subparsers(dest="command", required=True)
    serve_command = commands.add_parser("serve", help="serve (the database is migrated on start)")
    serve_command.add_argument("--host", default=None)
    serve_command.add_argument("--port", type=int, default=None)
    serve_command.set_defaults(run=serve)
    commands.add_parser("migrate", help="bring the database to the newest schema").set_defaults(
        run=migrate_database)
    archive_command = commands.add_parser(
        "archive", help="write finished matches older than DAYS to an NDJSON file, then drop their action "
                        "logs and decks, keeping their results (docs/operations.md#retention)")
    archive_command.add_argument("--older-than", type=days, required=True, metavar="DAYS",
                                 help="matches that finished more than DAYS days ago")
    archive_command.add_argument("--out", required=True, metavar="FILE",
                                 help="the NDJSON file, appended to (one match per line)")
    archive_command.set_defaults(run=archive)
    admin_command = commands.add_parser(
        "admin", help="grant or revoke the admin role (the operator's console, docs/operations.md)")
    admin_command.add_argument("change", choices=("grant", "revoke"))
    admin_command.add_argument("name", metavar="NAME", help="a claimed account's name, or a player's id")
    admin_command.add_argument("--reason", default=None, help="written to the audit log")
    admin_command.set_defaults(run=admin)
    verify_command = commands.add_parser(
        "verify", help="check every revealed deal of a match against its seeds (docs/fairness.md)")
    verify_command.add_argument("match_id")
    verify_command.add_argument("--server", default="http://127.0.0.1:8000",
                                help="the cardroom server whose history to read")
    verify_command.set_defaults(run=verify)
    _simulate_arguments(commands.add_parser(
        "simulate", help="play bots against each other in memory; points per deal with 95%% CIs"))
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.run in (serve, migrate_database, archive, admin):
        settings = get_settings()
        configure_logging(settings.log_level, settings.log_format)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
