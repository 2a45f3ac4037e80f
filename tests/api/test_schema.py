"""The OpenAPI schema: valid OpenAPI 3, every endpoint of API.md, problem responses."""

from __future__ import annotations

import json

import pytest
from drf_spectacular.validation import validate_schema

pytestmark = pytest.mark.django_db

ENDPOINTS = {
    ("/api/v1/auth/register", "post"),
    ("/api/v1/auth/token", "post"),
    ("/api/v1/auth/token/refresh", "post"),
    ("/api/v1/presets", "get"),
    ("/api/v1/daily/{date}", "get"),
    ("/api/v1/plays", "get"),
    ("/api/v1/plays", "post"),
    ("/api/v1/plays/{play_id}", "get"),
    ("/api/v1/plays/{play_id}/moves", "get"),
    ("/api/v1/plays/{play_id}/moves", "post"),
    ("/api/v1/health", "get"),
}


@pytest.fixture
def schema(anon):
    response = anon.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return json.loads(response.content)


def test_schema_is_valid_openapi_3(schema):
    assert schema["openapi"].startswith("3.")
    validate_schema(schema)


def test_schema_has_every_endpoint(schema):
    found = {(path, method) for path, ops in schema["paths"].items() for method in ops}
    assert found >= ENDPOINTS


def test_errors_are_documented_as_problem_details(schema):
    post = schema["paths"]["/api/v1/plays/{play_id}/moves"]["post"]
    for status in ("400", "404", "409", "422"):
        content = post["responses"][status]["content"]
        assert "application/problem+json" in content
    problem = schema["components"]["schemas"]["Problem"]
    assert {"type", "title", "status", "detail", "code"} <= set(problem["properties"])
    assert any(p["name"] == "Idempotency-Key" for p in post["parameters"])


def test_play_response_shows_the_visible_state(schema):
    play = schema["components"]["schemas"]["Play"]["properties"]
    assert {
        "tableau",
        "foundations",
        "cells",
        "stock",
        "waste",
        "legal_moves",
        "seq",
        "score",
    } <= set(play)
    assert "deck" not in play
    assert "state" not in play


def test_examples_carry_no_deck(schema):
    def walk(node, in_example=False):
        if isinstance(node, dict):
            for key, value in node.items():
                yield from walk(value, in_example or key in ("example", "examples"))
        elif isinstance(node, list):
            if in_example:
                yield node
            for value in node:
                yield from walk(value, in_example)

    # The Card enum lists the 52 cards: a type, not an example of a dealt deck.
    for lst in walk(schema):
        assert len(lst) < 52 or not all(isinstance(x, str) and len(x) <= 3 for x in lst)


def test_swagger_ui_is_served(anon):
    response = anon.get("/api/v1/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
