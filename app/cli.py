"""The ``cardroom`` command: ``serve`` and ``migrate``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from app.config import get_settings


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    settings = get_settings()
    uvicorn.run("app.main:create_app", factory=True, host=args.host or settings.host,
                port=args.port or settings.port, ws="websockets-sansio", loop="uvloop",
                http="httptools", ws_per_message_deflate=False, log_level=settings.log_level)
    return 0


def migrate_database(_args: argparse.Namespace) -> int:
    from app.db import migrate

    migrate.upgrade(get_settings().database_url)
    print("database is at the newest schema")
    return 0


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="cardroom", description="The cardroom server.")
    commands = root.add_subparsers(dest="command", required=True)
    serve_command = commands.add_parser("serve", help="serve (the database is migrated on start)")
    serve_command.add_argument("--host", default=None)
    serve_command.add_argument("--port", type=int, default=None)
    serve_command.set_defaults(run=serve)
    commands.add_parser("migrate", help="bring the database to the newest schema").set_defaults(
        run=migrate_database)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
