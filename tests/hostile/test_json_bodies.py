"""Hostile JSON bodies on every endpoint that takes one: deep nesting, oversize, bad text.

The endpoints come from the URL configuration (``routes.json_endpoints``), so a new POST
endpoint is attacked without anyone adding it here.
"""

from __future__ import annotations

import io
import json

import pytest

from config.web.parsers import BoundedJSONParser, nesting_depth
from config.web.problems import Problem
from games.models import Move, Play

from .routes import benign, json_endpoints, takes_json_body
from .tally import check, lost

pytestmark = pytest.mark.django_db

ENDPOINTS = json_endpoints()
IDS = [f"{method.upper()} /{route.template}" for route, method in ENDPOINTS]


def deep_list(depth: int) -> str:
    return "[" * depth + "]" * depth


def deep_object(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


def nested_in_fields(depth: int) -> str:
    """A body with the right field names whose values are deeply nested."""
    value = deep_list(depth)
    fields = ("username", "password", "refresh", "preset", "seed", "seq", "move", "name", "code")
    return "{" + ",".join(f'"{name}":{value}' for name in fields) + "}"


def post(client, route, method, body: str, **extra):
    url = route.url(**benign(route))
    return getattr(client, method)(url, body, content_type="application/json", **extra)


def test_every_json_endpoint_is_found():
    """The URL conf yields the JSON endpoints the contract names (and any added later)."""
    found = {f"/{route.template}" for route, _ in ENDPOINTS}
    assert {
        "/api/v1/auth/register",
        "/api/v1/auth/token",
        "/api/v1/auth/token/refresh",
        "/api/v1/plays",
        "/api/v1/plays/<uuid:play_id>/moves",
        "/api/v1/groups",
        "/api/v1/groups/join",
    } <= found


@pytest.mark.parametrize(("route", "method"), ENDPOINTS, ids=IDS)
@pytest.mark.parametrize(
    "body",
    [deep_list(1000), deep_object(1000), nested_in_fields(1000), deep_list(33), deep_list(100_000)],
    ids=["list-1000", "object-1000", "fields-1000", "list-33", "list-100000"],
)
def test_deep_nesting_is_a_400_on_every_json_endpoint(client, route, method, body):
    response = post(client, route, method, body)
    if len(body) > 64 * 1024:
        check("nesting", response, {413}, "payload_too_large")
    elif takes_json_body(route, method):
        check("nesting", response, {400}, "invalid_json")
    else:  # the endpoint reads no body: whatever it answers, never a 5xx
        check("nesting", response, range(200, 500))


@pytest.mark.parametrize(("route", "method"), ENDPOINTS, ids=IDS)
def test_nesting_at_the_limit_is_judged_by_the_endpoint(client, route, method):
    response = post(client, route, method, '{"x":' + deep_list(31) + "}")
    check("nesting", response, range(200, 500))
    assert response.json().get("code") != "invalid_json"


@pytest.mark.parametrize(("route", "method"), ENDPOINTS, ids=IDS)
@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ('{"username": "\\ud800", "name": "\\udfff", "preset": "\\ud800"}', "application/json"),
        (
            '{"username": "a\\u0000b", "password": "\\u0000" , "preset": "\\u0000",'
            ' "name": "\\u0000", "code": "\\u0000", "refresh": "\\u0000",'
            ' "options": {"\\u0000": true}, "move": {"type": "\\u0000"}, "seq": 0,'
            ' "seed": 1}',
            "application/json",
        ),
        (
            '{"username": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "password": "{{{{{{{{{{"}',
            "application/json",
        ),
        ("\xff\xfe{}", "application/json"),
        ('{"a": 1}', "application/json; charset=bz2_codec"),
        ('{"a": 1}', "application/json; charset=utf-16"),
        ('{"a": NaN, "b": Infinity}', "application/json"),
        ('{"seq": 1' + "0" * 5000 + "}", "application/json"),
        ('{"a": 1} trailing', "application/json"),
        ("", "application/json"),
    ],
    ids=[
        "surrogates",
        "nul",
        "brackets-in-strings",
        "not-utf8",
        "bz2",
        "utf16",
        "nan",
        "huge-int",
        "trailing",
        "empty",
    ],
)
def test_bad_text_is_a_4xx_on_every_json_endpoint(client, route, method, body, content_type):
    url = route.url(**benign(route))
    response = getattr(client, method)(
        url,
        body.encode("latin-1", "surrogatepass") if body.startswith("\xff") else body,
        content_type=content_type,
    )
    # An endpoint that reads no body may answer as usual; one that does must refuse.
    check("body", response, range(400, 500) if takes_json_body(route, method) else range(200, 500))


@pytest.mark.parametrize(("route", "method"), ENDPOINTS, ids=IDS)
def test_oversized_body_is_a_413_on_every_json_endpoint(client, route, method):
    body = json.dumps({"pad": "x" * (70 * 1024)})
    check("body", post(client, route, method, body), {413}, "payload_too_large")


def test_the_parser_enforces_the_size_limit_without_content_length(settings):
    """A body longer than its Content-Length said (or with none) is cut off by the parser."""
    stream = io.BytesIO(b"[" + b"1," * 40_000 + b"1]")
    with pytest.raises(Problem) as refused:
        BoundedJSONParser().parse(stream, "application/json", {})
    assert refused.value.status_code == 413


def test_nesting_depth_ignores_brackets_inside_strings():
    assert nesting_depth('{"a": "[[[[{{{{", "b": ["\\"[[["]}') == 2
    assert nesting_depth(deep_list(1000)) == 1000
    assert nesting_depth("{}") == 1
    assert nesting_depth('"no brackets"') == 0


def test_hostile_bodies_between_real_moves_lose_no_move(client):
    """A play attacked between its moves keeps every move it answered 200 to, in order."""
    play = client.post("/api/v1/plays", {"preset": "westcliff", "seed": 11}, format="json").json()
    url = f"/api/v1/plays/{play['id']}/moves"
    hostile = [deep_list(1000), deep_object(1000), nested_in_fields(1000), '{"seq": "0"}']
    applied = 0
    for _ in range(6):
        for body in hostile:
            check("nesting", client.post(url, body, content_type="application/json"))
        move = {"seq": applied, "move": {"type": "deal"}}
        response = client.post(url, move, format="json")
        check("nesting", response, {200, 422})
        applied += response.status_code == 200
    stored = Move.objects.filter(play_id=play["id"]).order_by("seq")
    assert applied >= 1
    lost("nesting", applied - stored.count())
    assert [row.seq for row in stored] == list(range(applied))
    assert Play.objects.get(pk=play["id"]).seq == applied
