"""The project's frame: the Dockerfile lints clean, the Compose files are valid, the CLI answers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from support import PROJECT_DIR

BIN = Path(sys.executable).parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=PROJECT_DIR, capture_output=True, text=True, check=False)


def test_dockerfile_passes_hadolint() -> None:
    result = run(str(BIN / "hadolint"), "Dockerfile")
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerfile_runs_as_non_root_and_migrates_before_serving() -> None:
    text = (PROJECT_DIR / "Dockerfile").read_text()
    assert "-slim" in text.splitlines()[0]
    assert "\nUSER 10001\n" in text
    assert "cardroom migrate && exec cardroom serve" in text


@pytest.mark.parametrize("compose_file", ["docker-compose.yml", "docker-compose.cluster.yml"])
def test_compose_file_matches_the_compose_specification(compose_file: str) -> None:
    result = run(str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.compose-spec", compose_file)
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_app_waits_for_a_healthy_postgres_16_with_a_volume() -> None:
    compose = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())
    db, app = compose["services"]["db"], compose["services"]["app"]
    assert db["image"] == "postgres:16"
    assert "healthcheck" in db
    assert any(volume.startswith("pgdata:") for volume in db["volumes"])
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert app["environment"]["CARDROOM_DATABASE_URL"].startswith("postgresql+asyncpg://")


def test_the_image_probes_liveness_and_the_stack_readiness_with_metrics_kept_inside() -> None:
    dockerfile = (PROJECT_DIR / "Dockerfile").read_text()
    healthcheck = dockerfile[dockerfile.index("HEALTHCHECK"):].splitlines()[1]
    assert "/api/health" in healthcheck and "CARDROOM_LOG_FORMAT=json" in dockerfile
    app = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())["services"]["app"]
    assert "/api/ready" in " ".join(app["healthcheck"]["test"])
    assert app["environment"]["CARDROOM_METRICS_PORT"] == "9100" and app["expose"] == ["9100"]
    assert not any("9100" in port for port in app["ports"]), "the metrics are not published"


def test_cli_migrates_a_fresh_sqlite_database(tmp_path: Path) -> None:
    database = tmp_path / "fresh" / "cardroom.db"
    result = subprocess.run([str(BIN / "cardroom"), "migrate"], capture_output=True, text=True,
                            env={"CARDROOM_DATABASE_URL": f"sqlite+aiosqlite:///{database}",
                                 "PATH": str(BIN)}, check=False)
    assert result.returncode == 0, result.stderr
    assert database.exists()


def test_hadolint_really_reports_a_bad_dockerfile(tmp_path: Path) -> None:
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python\nRUN cd /tmp && pip install flask\n")
    result = run(str(BIN / "hadolint"), str(bad))
    assert result.returncode != 0


def test_the_server_process_leaves_its_startup_objects_out_of_garbage_collection() -> None:
    script = ("import gc; from app.cli import GC_THRESHOLDS, tune_garbage_collector; "
              "tune_garbage_collector(); "
              "print(gc.get_freeze_count(), gc.get_threshold() == GC_THRESHOLDS != (700, 10, 10))")
    done = subprocess.run([sys.executable, "-c", script], cwd=PROJECT_DIR, capture_output=True, text=True,
                          check=True)
    frozen, rare_older_collections = done.stdout.split()
    assert int(frozen) > 50_000, "the modules of the server are frozen"
    assert rare_older_collections == "True"
