"""A schema-driven fuzz run over every HTTP endpoint, with input that fits the schema and input that
does not: no input makes the server fail (5xx), and every answer's status is one the OpenAPI document
gives for that operation."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance
from support import make_settings

from app.main import create_app

EXAMPLES_PER_OPERATION = 12
CHECKS = [not_a_server_error, status_code_conformance]


def fuzz(operation: Any, headers: dict[str, str], mode: GenerationMode) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    def run(case: Any) -> None:
        response = case.call(headers=headers)
        case.validate_response(response, checks=CHECKS)

    run()


def modes(operation: Any) -> list[GenerationMode]:
    """Input that fits the schema, and input that does not where there is a body or a query to break
    (a path or header parameter here is any string)."""
    if operation.body or operation.query:
        return [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
    return [GenerationMode.POSITIVE]


def test_no_input_fails_the_server_or_gets_an_undocumented_status(database_url: str) -> None:
    schema = schemathesis.openapi.from_asgi(
        "/openapi.json", create_app(make_settings(database_url), run_migrations=False))
    operations = {(operation.method.upper(), operation.path): operation
                  for operation in (result.ok() for result in schema.get_all_operations())}
    assert len(operations) >= 14
    guest = operations["POST", "/api/players"].Case(body={"name": "Fuzzer"}).call()
    assert guest.status_code == 201, guest.text
    for operation in operations.values():
        for mode in modes(operation):
            fuzz(operation, {"Authorization": f"Bearer {guest.json()['token']}"}, mode)
