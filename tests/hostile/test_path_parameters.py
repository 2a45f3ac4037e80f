"""Hostile values in every path parameter of every route, and in the query parameters.

NUL (a 500 on PostgreSQL before: ``/players/%00``), control characters, huge numbers, very
long strings, non-ASCII digits: each is a 4xx problem document, never a 5xx.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

from .routes import api_routes, benign
from .tally import check

pytestmark = pytest.mark.django_db

HOSTILE_VALUES = {
    "nul": "\x00",
    "nul-inside": "ab\x00cd",
    "soh": "\x01",
    "newline": "a\nb",
    "tab": "\t",
    "del": "\x7f",
    "c1-nel": "\x85",
    "huge-number": "9" * 40,
    "bigint-plus-one": str(2**63),
    "negative": "-1",
    "zero": "0",
    "long-string": "a" * 5000,
    "fullwidth-digits": "２０２６-１２-０３",
    "arabic-digits": "٢٠٢٦",
    "dots": "..",
    "percent": "%",
    "emoji": "\U0001f0a1",
}

ROUTES_WITH_PARAMS = [route for route in api_routes() if route.params]
CASES = [
    (route, method, name, value_id)
    for route in ROUTES_WITH_PARAMS
    for method in route.methods
    for name, _ in route.params
    for value_id in HOSTILE_VALUES
]


def test_every_route_with_a_path_parameter_is_found():
    names = {name for route in ROUTES_WITH_PARAMS for name, _ in route.params}
    assert {"date", "week", "preset", "username", "play_id", "group_id"} <= names


@pytest.mark.parametrize(
    ("route", "method", "name", "value_id"),
    CASES,
    ids=[f"{m.upper()} /{r.template} {n}={v}" for r, m, n, v in CASES],
)
def test_hostile_path_parameter_is_a_4xx_problem(client, route, method, name, value_id):
    values = {key: quote(value, safe="") for key, value in benign(route).items()}
    values[name] = quote(HOSTILE_VALUES[value_id], safe="")
    response = getattr(client, method)(route.url(**values))
    check("path", response)


BASE = "/api/v1/leaderboards/easthaven"


@pytest.mark.parametrize(
    ("path", "code"),
    [
        (f"{BASE}/weekly/9999-W52", "invalid_week"),
        (f"{BASE}/weekly/9999-W01", "invalid_week"),
        (f"{BASE}/weekly/0001-W01", "invalid_week"),
        (f"{BASE}/weekly/1999-W52", "invalid_week"),
        (f"{BASE}/weekly/3000-W01", "invalid_week"),
        (f"{BASE}/weekly/2026-W00", "invalid_week"),
        (f"{BASE}/weekly/2026-W54", "invalid_week"),
        (f"{BASE}/weekly/2026-W5", "invalid_week"),
        (f"{BASE}/weekly/2026W49", "invalid_week"),
        (f"{BASE}/weekly/2026-w49", "invalid_week"),
        (f"{BASE}/weekly/{quote('２０２６-W49')}", "invalid_week"),
        (f"{BASE}/weekly/2026-12-03", "invalid_week"),
        (f"{BASE}/daily/9999-12-31", "invalid_date"),
        (f"{BASE}/daily/0001-01-01", "invalid_date"),
        (f"{BASE}/daily/2026-W49", "invalid_date"),
        (f"{BASE}/daily/2026-W49-1", "invalid_date"),
        (f"{BASE}/daily/20261203", "invalid_date"),
        (f"{BASE}/daily/2026-12-3", "invalid_date"),
        (f"{BASE}/daily/{quote('２０２６-１２-０３')}", "invalid_date"),
        (f"{BASE}/daily/2026-02-30", "invalid_date"),
        ("/api/v1/daily/2026-W49", "invalid_date"),
        ("/api/v1/daily/2026-W49-4", "invalid_date"),
        ("/api/v1/daily/9999-12-31", "invalid_date"),
        ("/api/v1/daily/3000-01-01", "invalid_date"),
        ("/api/v1/daily/1999-12-31", "invalid_date"),
        ("/api/v1/daily/2026-12-03T00:00", "invalid_date"),
        ("/api/v1/daily/%2B2026-12-03", "invalid_date"),
    ],
)
def test_dates_and_weeks_are_strict_and_in_range(anon, path, code):
    check("dates", anon.get(path), {400}, code)


def test_the_last_week_and_day_the_service_holds_answer(anon):
    """The range's ends are served (no overflow computing a week's end or a board's TTL)."""
    check("dates", anon.get(f"{BASE}/weekly/2999-W52"), {200})
    check("dates", anon.get(f"{BASE}/weekly/2000-W01"), {200})
    check("dates", anon.get(f"{BASE}/daily/2000-01-01"), {200})
    check("dates", anon.get("/api/v1/daily/2999-12-31"), {404})


QUERY_VALUES = ["%00", "9" * 40, str(2**63), "-1", "1e9", "a" * 5000, "%0A", "%C2%85", ""]
BOARDS = [f"{BASE}/all-time", f"{BASE}/weekly/current", f"{BASE}/daily/today"]


@pytest.mark.parametrize("param", ["group", "page_size", "n", "cursor", "options", "around"])
@pytest.mark.parametrize("value", QUERY_VALUES, ids=lambda v: v[:12] or "empty")
@pytest.mark.parametrize("board", BOARDS)
def test_hostile_query_parameters_never_fail(client, board, param, value):
    extra = "&around=me" if param == "n" else ""
    response = client.get(f"{board}?{param}={value}{extra}")
    check("query", response, range(200, 500))


def test_a_flood_of_query_parameters_is_a_400_problem(client):
    query = "&".join(f"p{i}=1" for i in range(1500))
    check("query", client.get(f"{BASE}/all-time?{query}"), {400})


@pytest.mark.postgres
@pytest.mark.parametrize("path", ["/api/v1/players/%00", "/api/v1/players/a%00b"])
def test_nul_in_a_text_parameter_on_postgresql(client, path):
    """The reported 500: a NUL reaching a PostgreSQL text comparison."""
    check("path", client.get(path), {400}, "invalid_url")
