"""Wherever Django itself answers (bad Host, media types, methods, multipart, CSRF, unknown
URLs), the body is a problem document."""

from __future__ import annotations

import pytest
from django.test import Client

from .routes import api_routes, benign, json_endpoints, takes_json_body
from .tally import check, record

pytestmark = pytest.mark.django_db

ROUTES = api_routes()


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "localhost.evil.example",
        "a b",
        "localhost:8000:80",
        "[::1",
        "local\x00host",
        "x" * 300,
        "",
    ],
)
@pytest.mark.parametrize("path", ["/api/v1/presets", "/api/v1/plays", "/admin/", "/nowhere"])
def test_a_forged_host_header_is_a_400_problem(path, host):
    response = Client().get(path, HTTP_HOST=host)
    check("edge", response, {400}, "bad_request")


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "application/xml",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=xyz",
        "multipart/form-data",
        "application/json-patch+json",
        "application/octet-stream",
    ],
)
@pytest.mark.parametrize(
    ("route", "method"),
    json_endpoints(),
    ids=[f"{m.upper()} /{r.template}" for r, m in json_endpoints()],
)
def test_an_unsupported_media_type_is_a_4xx_problem(client, route, method, content_type):
    url = route.url(**benign(route))
    response = getattr(client, method)(url, b"--xyz\r\ngarbage", content_type=content_type)
    if takes_json_body(route, method):
        check("edge", response, {415}, "unsupported_media_type")
    else:
        check("edge", response, range(200, 500))


METHOD_CASES = [
    (route, method)
    for route in ROUTES
    for method in ("get", "post", "put", "patch", "delete")
    if method not in route.methods
]


@pytest.mark.parametrize(
    ("route", "method"),
    METHOD_CASES,
    ids=[f"{m.upper()} /{r.template}" for r, m in METHOD_CASES],
)
def test_a_method_not_allowed_is_a_405_problem(client, route, method):
    response = getattr(client, method)(route.url(**benign(route)))
    check("edge", response, {405}, "method_not_allowed")


@pytest.mark.parametrize("route", ROUTES, ids=[f"/{r.template}" for r in ROUTES])
def test_head_and_options_never_fail(client, route):
    url = route.url(**benign(route))
    check("edge", client.options(url), range(200, 500))
    head = client.head(url)  # no body to be a problem document: the status is the answer
    record("edge", head.status_code, head.status_code < 500)
    assert head.status_code < 500


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/nowhere",
        "/api/v1/",
        "/api/v1/plays/",
        "/api/v2/plays",
        "/static/nothing.css",
        "/api/v1/schemas",  # /api/v1/schema is served with and without the slash (issue 46)
        "/api/v1/plays/not-a-uuid",
        "/api/v1/groups/1.5",
        "/%ff%fe",
        "/api/v1/players/%ff",
    ],
)
def test_unknown_urls_are_404_problems(anon, path):
    check("edge", anon.get(path), {404})


def test_an_admin_post_without_csrf_is_a_403_problem():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/admin/login/", {"username": "a", "password": "b"})
    check("edge", response, {403}, "csrf_failed")


def test_malformed_multipart_to_a_django_form_is_a_4xx_problem():
    client = Client(enforce_csrf_checks=True)
    response = client.generic(
        "POST",
        "/admin/login/",
        b"--xyz\r\nContent-Disposition: form-data; name=\r\n\r\n--",
        content_type="multipart/form-data; boundary=xyz",
    )
    check("edge", response, range(400, 500))


def test_a_multipart_body_without_boundary_is_a_4xx_problem():
    client = Client(enforce_csrf_checks=True)
    response = client.generic(
        "POST", "/admin/login/", b"whatever", content_type="multipart/form-data"
    )
    check("edge", response, range(400, 500))


def test_not_acceptable_is_a_problem(client):
    check("edge", client.get("/api/v1/plays", HTTP_ACCEPT="text/html"), {406})
