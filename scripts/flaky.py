"""Runs the protocol and browser tests several times, each time in a different random order
(pytest-randomly, a new seed per run), and reports every test that did not pass every time.

    python scripts/flaky.py [--runs 3] [--jobs 2] [pytest arguments and test paths...]

Test paths given replace the default set: every folder of tests/ but the engine, bot and simulator
tests (tests/games, tests/bots, tests/sim).

Exit status 0 when every test passed in every run. A failing test is reported with the seeds of the
runs it failed in; ``pytest -p randomly -p xdist -n 2 --randomly-seed=SEED ...`` repeats such a run.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
ENGINE_AND_BOT_TESTS = {"games", "bots", "sim"}


def test_files() -> list[str]:
    folders = (PROJECT / "tests").iterdir()
    return sorted(str(folder.relative_to(PROJECT)) for folder in folders
                  if folder.name not in ENGINE_AND_BOT_TESTS and any(folder.glob("test_*.py")))


def outcomes(report: Path) -> dict[str, str]:
    """Each test's outcome in a JUnit XML report: passed, failed, error or skipped."""
    found: dict[str, str] = {}
    for case in ElementTree.parse(report).iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        result = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        found[name] = "failed" if result == "failure" else result
    return found


def is_test_path(argument: str) -> bool:
    return not argument.startswith("-") and (PROJECT / argument.split("::")[0]).exists()


def run_once(seed: int, jobs: str, extra: list[str], report: Path) -> int:
    paths = [argument for argument in extra if is_test_path(argument)] or test_files()
    options = [argument for argument in extra if not is_test_path(argument)]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "randomly", f"--randomly-seed={seed}",
               "-n", jobs, "--dist", "loadfile", f"--junitxml={report}", *options, *paths]
    print(f"run with seed {seed}: {' '.join(command[3:])}", flush=True)
    return subprocess.run(command, cwd=PROJECT).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", default="2", help="pytest-xdist workers (a number or auto)")
    options, extra = parser.parse_known_args()
    seen: dict[str, dict[int, str]] = defaultdict(dict)
    with tempfile.TemporaryDirectory(prefix="cardroom-flaky-") as folder:
        for run in range(options.runs):
            seed = random.SystemRandom().randrange(2**32)
            report = Path(folder) / f"run-{run}.xml"
            run_once(seed, options.jobs, extra, report)
            if not report.exists():
                print(f"run with seed {seed} produced no report")
                return 2
            for name, outcome in outcomes(report).items():
                seen[name][seed] = outcome
    unstable = {name: runs for name, runs in seen.items()
                if len(runs) < options.runs or any(outcome not in ("passed", "skipped")
                                                  for outcome in runs.values())}
    print(f"\n{len(seen)} tests, {options.runs} runs in random order")
    for name, runs in sorted(unstable.items()):
        results = ", ".join(f"seed {seed}: {outcome}" for seed, outcome in runs.items())
        print(f"UNSTABLE {name} ({results})")
    if not unstable:
        print("every test passed in every run")
    return 1 if unstable else 0


if __name__ == "__main__":
    sys.exit(main())
