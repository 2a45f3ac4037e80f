"""The schema declares what the docs and the catalogue promise of limits and outages: the
RateLimit headers and 429 (with Retry-After) on every throttled operation, and 503
database_unavailable (with Retry-After) on every operation; real answers match it."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.db import OperationalError
from drf_spectacular.generators import SchemaGenerator
from rest_framework.settings import api_settings

from games import services

from .helpers import assert_problem, start

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


@pytest.fixture
def schema(anon):
    return json.loads(anon.get("/api/v1/schema/?format=json").content)


def throttled_operations() -> set[tuple[str, str]]:
    """From the views themselves, not from the hook under test."""
    generator = SchemaGenerator()
    generator._initialise_endpoints()
    rates = api_settings.DEFAULT_THROTTLE_RATES
    return {
        (path, method.lower())
        for path, _regex, method, callback in generator.endpoints
        if rates.get(getattr(callback.cls, "throttle_scope", None) or "")
    }


def codes(response: dict) -> list[str]:
    assert response["content"][PROBLEM]["schema"] == {"$ref": "#/components/schemas/Problem"}
    return response["x-problem-codes"]


def test_throttled_operations_declare_429_and_the_ratelimit_headers(schema):
    throttled = throttled_operations()
    assert ("/api/v1/plays/{play_id}/moves", "post") in throttled
    assert ("/api/v1/auth/token", "post") in throttled
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            success = next(responses[s] for s in responses if s.startswith("2"))
            if (path, method) not in throttled:
                assert "RateLimit" not in success.get("headers", {}), (path, method)
                continue
            too_many = responses["429"]
            assert codes(too_many) == ["throttled"]
            headers = too_many["headers"]
            assert {"RateLimit-Policy", "RateLimit", "Retry-After"} <= set(headers)
            assert all(headers[name]["required"] for name in headers), (path, method)
            assert {"RateLimit-Policy", "RateLimit"} <= set(success["headers"]), (path, method)


def test_every_operation_declares_the_database_outage(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            unavailable = operation["responses"]["503"]
            assert "Retry-After" in unavailable["headers"], (path, method)
            if path == "/api/v1/health":  # its own body, "database": "unavailable"
                assert unavailable["headers"]["Retry-After"]["required"]
                continue
            assert "database_unavailable" in codes(unavailable), (path, method)
            if codes(unavailable) == ["database_unavailable"]:
                assert unavailable["headers"]["Retry-After"]["required"], (path, method)


def test_real_answers_match_the_declared_headers(schema, client, settings):
    rates = {"plays": "2/min", "moves": "2/min", "auth": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    declared = schema["paths"]["/api/v1/plays"]["post"]["responses"]
    answers = [start(client, preset="easthaven", seed=1) for _ in range(3)]
    assert [answer.status_code for answer in answers] == [201, 201, 429]
    for answer in answers:
        headers = declared[str(answer.status_code)]["headers"]
        for name in ("RateLimit-Policy", "RateLimit", "Retry-After"):
            if name in answer:
                assert re.fullmatch(headers[name]["schema"]["pattern"], answer[name]), name
            else:
                assert not headers.get(name, {}).get("required"), name
    assert "Retry-After" in answers[2]


def test_the_database_outage_matches_its_declaration(schema, client, monkeypatch):
    def unreachable(*args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    monkeypatch.setattr(services, "get_play", unreachable)
    response = client.get(f"/api/v1/plays/{uuid.uuid4()}")
    assert_problem(response, 503, "database_unavailable")
    declared = schema["paths"]["/api/v1/plays/{play_id}"]["get"]["responses"]["503"]
    pattern = declared["headers"]["Retry-After"]["schema"]["pattern"]
    assert re.fullmatch(pattern, response["Retry-After"])
