"""``docker-compose.cluster.yml``, read as Compose reads it (no Docker daemon runs here): two nodes of
the project's image join one cluster on Redis and PostgreSQL after a single migration, and nginx, the
only service with a published port, is rendered from ``deploy/nginx`` with the nodes it names."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from support import PROJECT_DIR
from support.nginx import TEMPLATE, placeholders

NODES = ("app1", "app2")


def services(name: str = "docker-compose.cluster.yml") -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load((PROJECT_DIR / name).read_text())["services"]
    return found


def seconds(text: str) -> float:
    found = re.fullmatch(r"(\d+)s", text)
    assert found is not None, text
    return float(found.group(1))


def test_only_nginx_publishes_a_port() -> None:
    published = {name: service["ports"] for name, service in services().items() if "ports" in service}
    assert published == {"nginx": ["8000:8000"]}


@pytest.mark.parametrize("name", NODES)
def test_each_node_joins_the_cluster_under_its_own_name_and_address(name: str) -> None:
    node = services()[name]
    environment = node["environment"]
    assert node["build"] == "."
    assert environment["CARDROOM_NODE_ID"] == name
    assert environment["CARDROOM_NODE_ADDRESS"] == f"http://{name}:{environment['CARDROOM_PORT']}"
    assert environment["CARDROOM_REDIS_URL"] == "redis://redis:6379/0"
    assert environment["CARDROOM_HOST"] == "0.0.0.0"
    assert environment["CARDROOM_FORWARDED_ALLOW_IPS"]
    assert seconds(node["stop_grace_period"]) > float(environment["CARDROOM_DRAIN_SECONDS"]) > 0
    assert "/api/ready" in " ".join(node["healthcheck"]["test"])
    assert environment["CARDROOM_METRICS_PORT"] == "9100" and node["expose"] == ["9100"]


def test_the_nodes_share_the_single_process_stack_s_database() -> None:
    cluster, single = services(), services("docker-compose.yml")
    assert cluster["db"] == single["db"]
    urls = {cluster[name]["environment"]["CARDROOM_DATABASE_URL"] for name in (*NODES, "migrate")}
    assert urls == {single["app"]["environment"]["CARDROOM_DATABASE_URL"]}


def test_the_nodes_start_after_one_migration_on_healthy_services() -> None:
    found = services()
    migrate = found["migrate"]
    assert migrate["command"] == ["cardroom", "migrate"] and migrate["restart"] == "no"
    assert migrate["depends_on"] == {"db": {"condition": "service_healthy"}}
    for name in NODES:
        assert "migrate" not in found[name]["command"]
        assert found[name]["depends_on"] == {"migrate": {"condition": "service_completed_successfully"},
                                             "db": {"condition": "service_healthy"},
                                             "redis": {"condition": "service_healthy"}}


def test_redis_keeps_an_append_only_file_on_a_volume() -> None:
    redis = services()["redis"]
    assert redis["image"] == "redis:7"
    assert " ".join(redis["command"]).endswith("--appendonly yes")
    assert "redisdata:/data" in redis["volumes"]
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    assert "redisdata" in yaml.safe_load((PROJECT_DIR / "docker-compose.cluster.yml").read_text())["volumes"]


def test_nginx_renders_the_template_with_the_nodes_it_names() -> None:
    found = services()
    nginx = found["nginx"]
    environment = nginx["environment"]
    [mount] = nginx["volumes"]
    source, target, mode = mount.split(":")
    assert (PROJECT_DIR / source).resolve() == TEMPLATE and mode == "ro"
    assert target.startswith("/etc/nginx/templates/") and target.endswith(".conf.template")
    names = placeholders(TEMPLATE.read_text())
    assert names == {"LISTEN", "APP1", "APP2"} and names <= environment.keys()
    only = re.compile(environment["NGINX_ENVSUBST_FILTER"].replace("$$", "$"))
    assert {name for name in (*environment, "PATH", "HOSTNAME", "HOME") if only.search(name)} == names
    assert nginx["ports"] == [f"{environment['LISTEN']}:{environment['LISTEN']}"]
    for name, upstream in (("app1", environment["APP1"]), ("app2", environment["APP2"])):
        assert upstream == f"{name}:{found[name]['environment']['CARDROOM_PORT']}"
        assert nginx["depends_on"][name] == {"condition": "service_healthy"}
