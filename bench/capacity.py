"""The largest move rate a server or a cluster sustains: ``python bench/capacity.py``.

For each setup (``--setups``: ``1`` is one server as ``bench/load.py`` runs it, ``1c`` one node of a
cluster, ``2`` two nodes, ...) it runs ``bench/load.py --rate R --seconds 30`` (moves only) at rising
rates R, each on a fresh database and fresh processes, until a rate is not sustained: fewer than 95%
of the moves asked for were made, a move failed, or the p99 from a move to the last seat's state was
above ``--p99`` ms. On a machine shared with other jobs, ``--quiet L`` waits before each run until the
load average is below L, and ``--tries 2`` runs a rate again before giving up on it. Prints each
run's figures (with the load average before and after), the largest rate each setup sustained, and
the ratio of each setup's to the first one's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

PROJECT = Path(__file__).resolve().parents[1]
MADE_SHARE = 0.95


@dataclass(frozen=True)
class Setup:
    name: str

    @property
    def arguments(self) -> list[str]:
        if self.name == "1":
            return ["--nodes", "1", "--moves-only"]
        if self.name == "1c":
            return ["--nodes", "1", "--cluster"]
        return ["--nodes", self.name]

    @property
    def label(self) -> str:
        if self.name == "1":
            return "one server"
        if self.name == "1c":
            return "a cluster of one node"
        return f"a cluster of {self.name} nodes"


def wait_quiet(below: float, most: float) -> float:
    """Wait (at most ``most`` seconds) until the machine's load average over a minute is below
    ``below``; returns it."""
    deadline = time.monotonic() + most
    while os.getloadavg()[0] >= below and time.monotonic() < deadline:
        time.sleep(10)
    return os.getloadavg()[0]


def measure(setup: Setup, rate: int, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        figures = Path(folder) / "figures.json"
        command = [sys.executable, str(PROJECT / "bench" / "load.py"), *setup.arguments, "--rate", str(rate),
                   "--seconds", str(args.seconds), "--spread", str(args.spread), "--json", str(figures),
                   "--database", args.database, "--pg-host", args.pg_host]
        done = subprocess.run(command, cwd=PROJECT, capture_output=True, text=True, timeout=args.timeout)
        if done.returncode != 0 or not figures.exists():
            print(done.stdout[-2000:], done.stderr[-4000:], sep="\n", file=sys.stderr)
            raise SystemExit(f"{setup.label} at {rate} moves/s: bench/load.py failed ({done.returncode})")
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{setup.name}-{rate}.txt").write_text(done.stdout)
            (args.out / f"{setup.name}-{rate}.json").write_bytes(figures.read_bytes())
        result: dict[str, Any] = orjson.loads(figures.read_bytes())
        return result


def sustained(rate: int, figures: dict[str, Any], p99_limit: float) -> bool:
    p99 = figures["owned"]["p99"]
    return (figures["moves_per_second"] >= MADE_SHARE * rate and figures["errors"] == 0
            and p99 is not None and p99 <= p99_limit)


HEADER = ("setup   rate  moves/s   p50 ms   p99 ms    max ms  server CPU     client CPU  load before, after  "
          "sustained")


def line(setup: Setup, rate: int, figures: dict[str, Any], load: float, kept: bool) -> str:
    owned = {name: "-" if value is None else f"{value:.2f}" for name, value in figures["owned"].items()}
    cpu = " + ".join(f"{share * 100:.0f}%" for share in figures["node_cpu"])
    return (f"{setup.name:>5} {rate:>6} {figures['moves_per_second']:>8.0f} {owned['p50']:>8} "
            f"{owned['p99']:>8} {owned['max']:>9}  {cpu:<14} {figures['client_cpu'] * 100:>9.0f}% "
            f"{load:>5.1f}, {figures['load_average']:>5.1f}       {'yes' if kept else 'no'}")


def attempt(setup: Setup, rate: int, args: argparse.Namespace) -> bool:
    """One run at ``rate``, printed; whether it sustained the rate."""
    load = os.getloadavg()[0] if args.quiet is None else wait_quiet(args.quiet, args.quiet_wait)
    figures = measure(setup, rate, args)
    kept = sustained(rate, figures, args.p99)
    print(line(setup, rate, figures, load, kept), flush=True)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setups", default="1,2", help="comma-separated: 1 (one server), 1c, 2, 3, ...")
    parser.add_argument("--start", type=int, default=200, help="the first rate, moves a second")
    parser.add_argument("--step", type=int, default=200)
    parser.add_argument("--most", type=int, default=3000, help="the highest rate tried")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--spread", type=float, default=30)
    parser.add_argument("--p99", type=float, default=25.0, help="the highest p99 sustained, ms")
    parser.add_argument("--database", default="cardroom_capacity")
    parser.add_argument("--pg-host", default="127.0.0.1")
    parser.add_argument("--timeout", type=float, default=900, help="seconds one run may take at most")
    parser.add_argument("--quiet", type=float, default=None,
                        help="before each run, wait until the load average is below this (other jobs on a "
                             "shared machine), at most --quiet-wait seconds")
    parser.add_argument("--quiet-wait", type=float, default=900)
    parser.add_argument("--tries", type=int, default=1,
                        help="runs at a rate before it counts as not sustained (other jobs on a shared "
                             "machine may spoil one)")
    parser.add_argument("--out", type=Path, default=None,
                        help="keep each run's report and figures in this folder (<setup>-<rate>.txt, .json)")
    args = parser.parse_args()
    setups = [Setup(name.strip()) for name in args.setups.split(",")]
    best: dict[str, int] = {}
    print(HEADER)
    for setup in setups:
        for rate in range(args.start, args.most + 1, args.step):
            if not any(attempt(setup, rate, args) for _ in range(args.tries)):
                break
            best[setup.name] = rate
    print(f"machine: {os.cpu_count()} cores")
    for setup in setups:
        print(f"{setup.label}: {best.get(setup.name, 0)} moves/s sustained with p99 <= {args.p99:g} ms")
    first = best.get(setups[0].name, 0)
    for setup in setups[1:]:
        if first:
            print(f"{setup.label} / {setups[0].label}: {best.get(setup.name, 0) / first:.2f}x")


if __name__ == "__main__":
    main()
