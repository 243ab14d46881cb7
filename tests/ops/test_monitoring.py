"""The monitoring kit of ``deploy/``: the alert rules and the Grafana dashboard name only metrics a
running server exports (read from a real ``/metrics`` scrape), every rule says how bad it is and what
happened, and the Compose profile that runs them is wired to those files."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient
from support import PROJECT_DIR, make_settings
from support.live import free_port

from app.main import create_app

DEPLOY = PROJECT_DIR / "deploy"
SAMPLE_SUFFIXES = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_sum", "_count", "_created"),
                   "summary": ("_sum", "_count", "_created"), "gauge": ("",), "info": ("_info",)}
# Series Prometheus makes itself (``up``) and those of the blackbox exporter's probe of /api/ready.
SCRAPER_SERIES = {"cardroom": {"up"}, "cardroom-ready": {"probe_success"}}
PROMQL_WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless",
                "bool", "offset", "inf", "nan"}
LABEL_LISTS = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)")
NAME = re.compile(r"(?<![\w.:$])[A-Za-z_:][\w:]*")
CALL = re.compile(r"\s*\(")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """Every series name a running server's ``/metrics`` holds, or would hold once its labelled
    counters and histograms are first used."""
    database = tmp_path_factory.mktemp("monitoring") / "cardroom.db"
    port = free_port()
    settings = make_settings(f"sqlite+aiosqlite:///{database}", metrics_port=port)
    with TestClient(create_app(settings, run_migrations=True)):
        text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    return {family.name + suffix for family in text_string_to_metric_families(text)
            for suffix in SAMPLE_SUFFIXES.get(family.type, ("",))}


def series_names(expression: str) -> set[str]:
    """The series a PromQL expression reads: neither functions, keywords, label names, label values,
    durations nor Grafana's variables."""
    bare = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expression)
    bare = re.sub(r"\{[^}]*\}", "", bare)
    bare = re.sub(r"\[[^\]]*\]", "", bare)
    bare = re.sub(r"\$\w+", "", bare)
    bare = LABEL_LISTS.sub("", bare)
    return {found.group() for found in NAME.finditer(bare)
            if found.group().lower() not in PROMQL_WORDS and not CALL.match(bare, found.end())}


def job_of(expression: str) -> str:
    found = re.search(r'job="([^"]+)"', expression)
    return found.group(1) if found else "cardroom"


def unknown_series(expression: str, exported: set[str]) -> set[str]:
    return series_names(expression) - exported - SCRAPER_SERIES[job_of(expression)]


def alert_rules() -> list[dict[str, Any]]:
    groups = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text())["groups"]
    return [rule for group in groups for rule in group["rules"]]


def dashboard_panels(panels: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for panel in panels:
        yield panel
        yield from dashboard_panels(panel.get("panels", []))


def dashboard() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DEPLOY / "grafana" / "dashboards" / "cardroom.json").read_text())
    return loaded


def test_the_name_check_finds_series_and_nothing_else() -> None:
    expression = ('histogram_quantile(0.99, sum by (instance, le) (rate(cardroom_move_seconds_bucket'
                  '{instance=~"$instance", stage="store"}[5m]))) > 1e3 and on () '
                  'max(cardroom_rooms offset 1h) unless cardroom_movez_total')
    assert series_names(expression) == {"cardroom_move_seconds_bucket", "cardroom_rooms",
                                        "cardroom_movez_total"}


def test_a_misspelled_metric_is_caught(exported: set[str]) -> None:
    assert unknown_series("rate(cardroom_move_total[5m])", exported) == {"cardroom_move_total"}
    assert unknown_series('probe_success{job="cardroom"}', exported) == {"probe_success"}


def test_the_scrape_holds_every_metric_the_server_names(exported: set[str]) -> None:
    for name in ("cardroom_rooms", "cardroom_moves_total", "cardroom_move_stage_seconds_bucket",
                 "cardroom_step_write_failures_total", "cardroom_gc_pause_seconds_bucket",
                 "cardroom_event_loop_lag_seconds_bucket", "process_resident_memory_bytes"):
        assert name in exported, name


def test_every_alert_rule_is_complete_and_reads_existing_metrics(exported: set[str]) -> None:
    rules = alert_rules()
    names = [rule["alert"] for rule in rules]
    assert len(names) == len(set(names))
    assert {"CardroomMovesSlow", "CardroomStepsNotStored", "CardroomEventLoopLag",
            "CardroomNodeWithoutRooms", "CardroomNotReady"} <= set(names)
    for rule in rules:
        assert set(rule) == {"alert", "expr", "for", "labels", "annotations"}, rule["alert"]
        assert re.fullmatch(r"\d+[smh]", rule["for"]), rule["alert"]
        assert rule["labels"]["severity"] in ("warning", "critical"), rule["alert"]
        assert rule["annotations"]["summary"] and rule["annotations"]["description"], rule["alert"]
        assert series_names(rule["expr"]), rule["alert"]
        assert unknown_series(rule["expr"], exported) == set(), rule["alert"]


def test_every_alert_is_explained_for_the_operator() -> None:
    operations = (PROJECT_DIR / "docs" / "operations.md").read_text()
    for rule in alert_rules():
        assert f"`{rule['alert']}`" in operations, rule["alert"]


def test_every_dashboard_panel_reads_existing_metrics(exported: set[str]) -> None:
    board = dashboard()
    panels = [panel for panel in dashboard_panels(board["panels"]) if panel["type"] != "row"]
    assert len(panels) >= 15
    for panel in panels:
        assert panel["datasource"]["uid"] == "prometheus", panel["title"]
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            assert series_names(target["expr"]), panel["title"]
            assert unknown_series(target["expr"], exported) == set(), panel["title"]
    for variable in board["templating"]["list"]:
        metric = re.fullmatch(r"label_values\((\w+), *\w+\)", variable["query"])
        assert metric is not None and metric.group(1) in exported, variable["name"]


def test_the_dashboard_covers_what_an_operator_watches() -> None:
    expressions = " ".join(target["expr"] for panel in dashboard_panels(dashboard()["panels"])
                           for target in panel.get("targets", []))
    for name in ("cardroom_rooms", "cardroom_sockets", "cardroom_players_connected", "cardroom_moves_total",
                 "cardroom_move_seconds_bucket", "cardroom_move_stage_seconds_bucket",
                 "cardroom_step_commit_seconds_bucket", "cardroom_step_write_failures_total",
                 "cardroom_bot_decision_seconds_bucket", "cardroom_turn_timeouts_total",
                 "cardroom_autopilot_takeovers_total", "cardroom_rejections_total",
                 "cardroom_websocket_closes_total", "cardroom_event_loop_lag_seconds_bucket",
                 "cardroom_gc_pause_seconds_bucket", "process_resident_memory_bytes"):
        assert name in expressions, name
    assert "histogram_quantile(0.5," in expressions and "histogram_quantile(0.99," in expressions


def test_the_grafana_provisioning_points_at_prometheus_and_the_dashboard() -> None:
    provisioning = DEPLOY / "grafana" / "provisioning"
    source = yaml.safe_load((provisioning / "datasources" / "prometheus.yml").read_text())["datasources"][0]
    assert source["uid"] == "prometheus" and source["url"] == "http://prometheus:9090"
    provider = yaml.safe_load((provisioning / "dashboards" / "cardroom.yml").read_text())["providers"][0]
    assert provider["options"]["path"] == "/var/lib/grafana/dashboards"


def test_prometheus_scrapes_the_metrics_port_and_probes_readiness() -> None:
    config = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    assert config["rule_files"] == ["/etc/prometheus/alerts.yml"]
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    compose = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())["services"]
    metrics_port = compose["app"]["environment"]["CARDROOM_METRICS_PORT"]
    assert jobs["cardroom"]["static_configs"][0]["targets"] == [f"app:{metrics_port}"]
    ready = jobs["cardroom-ready"]
    assert ready["static_configs"][0]["targets"] == [f"http://app:{compose['app']['environment']['CARDROOM_PORT']}/api/ready"]
    assert ready["relabel_configs"][-1]["replacement"] == "blackbox:9115"


def test_the_monitoring_profile_runs_prometheus_and_grafana_beside_the_app() -> None:
    services = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())["services"]
    for name in ("prometheus", "grafana", "blackbox"):
        assert services[name]["profiles"] == ["monitoring"], name
        assert "build" not in services[name] and "/" in services[name]["image"], name
    assert "profiles" not in services["app"] and "profiles" not in services["db"]
    mounts = services["prometheus"]["volumes"] + services["grafana"]["volumes"]
    for folder in ("./deploy/prometheus", "./deploy/grafana/provisioning", "./deploy/grafana/dashboards"):
        assert any(mount.startswith(f"{folder}:") for mount in mounts), folder
        assert (PROJECT_DIR / folder).is_dir(), folder
