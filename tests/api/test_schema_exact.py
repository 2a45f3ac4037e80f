"""The schema is exact enough for generated clients to use unedited (issue 22)."""

from __future__ import annotations

import json
import re

import pytest

from config.web.catalogue import CATALOGUE

from .helpers import assert_problem

pytestmark = pytest.mark.django_db

PUBLIC = {
    ("/api/v1/presets", "get"),
    ("/api/v1/daily/{date}", "get"),
    ("/api/v1/daily/{date}/replays", "get"),
    ("/api/v1/health", "get"),
    ("/api/v1/auth/register", "post"),
    ("/api/v1/auth/token", "post"),
    ("/api/v1/auth/token/refresh", "post"),
    ("/api/v1/auth/guest", "post"),
    ("/api/v1/auth/logout", "post"),
    ("/api/v1/players/{username}", "get"),
}
# Public, but a token changes the answer (around=me, group=): declared optional, so a
# generated client set up with a token sends it.
TOKEN_OPTIONAL = {
    ("/api/v1/leaderboards/{preset}/daily/{date}", "get"),
    ("/api/v1/leaderboards/{preset}/weekly/{week}", "get"),
    ("/api/v1/leaderboards/{preset}/all-time", "get"),
}
PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}


@pytest.fixture
def schema(anon):
    return json.loads(anon.get("/api/v1/schema/?format=json").content)


def operations(schema):
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            yield path, method, op


def test_every_operation_declares_its_security(schema):
    for path, method, op in operations(schema):
        if (path, method) in PUBLIC:
            assert op["security"] == [], (path, method)
        elif (path, method) in TOKEN_OPTIONAL:
            assert op["security"] == [{}, {"jwtAuth": []}], (path, method)
            assert "401" in op["responses"], (path, method)
        else:
            assert op["security"] == [{"jwtAuth": []}], (path, method)
            assert set(op["responses"]["401"]["x-problem-codes"]) >= {
                "not_authenticated",
                "token_not_valid",
            }


def test_plays_list_declares_its_pagination(schema):
    names = {p["name"] for p in schema["paths"]["/api/v1/plays"]["get"]["parameters"]}
    assert {"cursor", "page_size"} <= names


def test_moves_are_one_discriminated_union_for_requests_and_legal_moves(schema):
    components = schema["components"]["schemas"]
    union = components["Move"]
    assert union["discriminator"]["propertyName"] == "type"
    assert set(union["discriminator"]["mapping"]) == {"move", "deal", "undo", "resign"}
    assert components["CardMove"]["required"] == ["type", "from", "to"]
    assert set(components["DealMove"]["properties"]) == {"type"}
    ref = {"$ref": "#/components/schemas/Move"}
    assert components["Play"]["properties"]["legal_moves"]["items"] == ref
    body = schema["paths"]["/api/v1/plays/{play_id}/moves"]["post"]["requestBody"]
    request = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert components[request]["oneOf"] == [
        {"$ref": "#/components/schemas/OneMoveRequest"},
        {"$ref": "#/components/schemas/MoveBatchRequest"},
    ]
    assert components["OneMoveRequest"]["properties"]["move"] == ref
    assert components["MoveBatchRequest"]["properties"]["moves"]["items"] == ref
    assert components["Hint"]["properties"]["move"]["anyOf"][0] == ref  # or null
    for name in ("CardMove", "DealMove", "UndoMove", "ResignMove"):
        assert components[name]["additionalProperties"] is False
    assert components["LoggedMove"]["properties"]["move"] == ref
    assert "MoveRequest" not in components and "TypeEnum" not in components


def test_every_error_response_refers_to_the_one_problem_and_lists_its_codes(schema):
    for path, method, op in operations(schema):
        for status, response in op["responses"].items():
            if int(status) >= 400 and path != "/api/v1/health":  # 503: the health body
                problem = response["content"]["application/problem+json"]["schema"]
                assert problem == PROBLEM_REF, (path, method, status)
                assert response["x-problem-codes"], (path, method, status)
                for code in response["x-problem-codes"]:
                    assert f"`{code}`" in response["description"], (path, method, code)


def test_response_headers_are_declared(schema):
    paths = schema["paths"]
    create = paths["/api/v1/plays"]["post"]["responses"]
    assert "Location" in create["201"]["headers"]
    assert "Retry-After" in create["429"]["headers"]
    play = paths["/api/v1/plays/{play_id}"]["get"]["responses"]
    assert {"ETag", "Cache-Control"} <= set(play["200"]["headers"])
    assert "304" in play
    move = paths["/api/v1/plays/{play_id}/moves"]["post"]
    assert "Idempotent-Replayed" in move["responses"]["200"]["headers"]
    assert {"If-Match", "Idempotency-Key"} <= {p["name"] for p in move["parameters"]}
    board = paths["/api/v1/leaderboards/{preset}/daily/{date}"]["get"]["responses"]["200"]
    assert "X-Leaderboard-Source" in board["headers"]
    presets = paths["/api/v1/presets"]["get"]
    assert "lang" in {p["name"] for p in presets["parameters"]}


def test_examples_are_request_only(schema):
    for path in ("/api/v1/plays", "/api/v1/plays/{play_id}/moves"):
        operation = schema["paths"][path]["post"]
        for response in operation["responses"].values():
            for content in response.get("content", {}).values():
                assert "examples" not in content, path
        assert operation["requestBody"]["content"]["application/json"]["examples"], path


def test_verdict_has_no_blank_member(schema):
    assert schema["components"]["schemas"]["VerdictEnum"]["enum"] == [
        "winnable",
        "unwinnable",
        "unknown",
    ]
    assert "BlankEnum" not in schema["components"]["schemas"]


def test_presets_carry_rules(schema):
    preset = schema["components"]["schemas"]["Preset"]
    assert "rules" in preset["required"]
    assert preset["properties"]["rules"]["items"]["type"] == "string"


def test_docs_assets_are_served_locally(anon):
    for url in ("/api/v1/docs/", "/api/v1/redoc/"):
        page = anon.get(url).content.decode()
        assets = re.findall(r'(?:src|href)="([^"]+)"', page)
        assert assets, url
        assert all(asset.startswith("/") for asset in assets), (url, assets)  # same origin
        assert "<script>" not in page  # no inline script: a strict CSP can allow self only
        assert anon.get(assets[-1]).status_code == 200


def test_auth_refusals_use_catalogued_codes(anon, player):
    body = assert_problem(
        anon.post("/api/v1/auth/token", {"username": "x", "password": "wrong one"}, format="json"),
        401,
    )
    assert body["code"] in CATALOGUE
    body = assert_problem(
        anon.post("/api/v1/auth/token/refresh", {"refresh": "garbage"}, format="json"), 401
    )
    assert body["code"] == "token_not_valid"
    body = assert_problem(anon.get("/api/v1/plays", HTTP_AUTHORIZATION="Bearer garbage"), 401)
    assert body["code"] == "token_not_valid"
