"""A schema-driven fuzz run over every HTTP endpoint: no input makes the server fail (5xx), and every
answer's status is one the OpenAPI document gives for that operation."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance
from support import make_settings

from app.main import create_app

EXAMPLES_PER_OPERATION = 25
CHECKS = [not_a_server_error, status_code_conformance]


def fuzz(operation: Any, headers: dict[str, str]) -> None:
    @given(case=operation.as_strategy())
    @settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    def run(case: Any) -> None:
        response = case.call(headers=headers)
        case.validate_response(response, checks=CHECKS)

    run()


def test_no_input_fails_the_server_or_gets_an_undocumented_status(database_url: str) -> None:
    schema = schemathesis.openapi.from_asgi(
        "/openapi.json", create_app(make_settings(database_url), run_migrations=False))
    operations = {(operation.method.upper(), operation.path): operation
                  for operation in (result.ok() for result in schema.get_all_operations())}
    assert len(operations) >= 14
    guest = operations["POST", "/api/players"].Case(body={"name": "Fuzzer"}).call()
    assert guest.status_code == 201, guest.text
    for operation in operations.values():
        fuzz(operation, headers={"Authorization": f"Bearer {guest.json()['token']}"})
