"""Streams served past Django's middleware (config.direct_asgi) answer as the stack did:
the same status, problem document and headers for every refusal and for a stream, the
request id, the language, CORS; HEAD holds nothing open; other paths still reach Django.

Each case is asked of two servers on the same database and Redis: ``application`` (the
direct path) and ``django_application`` (every request through Django's handler)."""

from __future__ import annotations

import httpx
import pytest
from django.conf import settings

from config import direct_asgi

from .conftest import start_uvicorn
from .players import bearer, board_stream_url, make_player
from .sse_client import Stream

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

ORIGIN = "https://app.example"
#: Headers whose values differ between two answers by nature.
VOLATILE = {"date", "server", "x-request-id", "content-length", "transfer-encoding"}


@pytest.fixture
def both(transactional_db, own_redis, settings):
    servers = [
        start_uvicorn(own_redis, settings, app, CORS_ALLOWED_ORIGINS=ORIGIN)
        for app in ("config.asgi:application", "config.asgi:django_application")
    ]
    yield servers
    for server in servers:
        server.stop()


def _headers(answer: httpx.Response) -> dict[str, str]:
    return {k: v for k, v in answer.headers.items() if k not in VOLATILE}


def _asked_of_both(both, method: str, path: str, headers: dict[str, str]):
    # Identity: gzip's random padding (BREACH) makes compressing a body a coin toss.
    headers = {"Accept-Encoding": "identity", **headers}
    return [
        httpx.request(method, f"{server.base}{path}", headers=headers, timeout=10)
        for server in both
    ]


@pytest.mark.parametrize(
    ("path", "headers", "status", "code"),
    [
        ("/api/v1/players/me/stream", {}, 401, "not_authenticated"),
        ("/api/v1/players/me/stream?ticket=forged", {}, 401, "token_not_valid"),
        ("/api/v1/players/me/stream", {"Authorization": "Bearer x"}, 401, "token_not_valid"),
        ("/api/v1/players/me/stream?lang=de", {}, 401, "not_authenticated"),
        ("/api/v1/players/me/stream?lang=xx", {}, 400, "unsupported_language"),
        ("/api/v1/players/me/stream", {"Accept-Language": "ru"}, 401, "not_authenticated"),
        ("/api/v1/leaderboards/easthaven/daily/%01/stream", {}, 400, "invalid_url"),
        ("/api/v1/players/me/stream", {"Host": "evil.example"}, 400, "bad_request"),
        ("/api/v1/groups/1/stream", {"Origin": ORIGIN}, 401, "not_authenticated"),
    ],
)
def test_a_refusal_is_the_stacks_own(both, path, headers, status, code):
    direct, django = _asked_of_both(both, "GET", path, headers)
    assert direct.status_code == django.status_code == status
    assert direct.json() == django.json() and direct.json()["code"] == code
    assert _headers(direct) == _headers(django)
    assert direct.headers["content-type"] == "application/problem+json"
    assert direct.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'none'" in direct.headers["content-security-policy"]


def test_refusals_speak_the_asked_language(both):
    [direct, _] = _asked_of_both(both, "GET", "/api/v1/players/me/stream?lang=de", {})
    assert direct.headers["content-language"] == "de"
    english = httpx.get(f"{both[0].base}/api/v1/players/me/stream", timeout=10)
    assert direct.json()["title"] != english.json()["title"]


def test_a_stream_has_the_stacks_headers_and_its_own(both, today_deals):
    user = make_player("headers")
    asked = {**bearer(user), "Origin": ORIGIN, "X-Request-ID": "trace-42"}
    answers = []
    for server in both:
        stream = Stream(board_stream_url(server.base), asked)
        try:
            assert stream.take(1)[0].event == "snapshot"
            answers.append(stream.response)
        finally:
            stream.close()
    direct, django = answers
    assert direct.status_code == django.status_code == 200
    assert _headers(direct) == _headers(django)
    assert direct.headers["x-request-id"] == django.headers["x-request-id"] == "trace-42"
    assert direct.headers["content-type"].startswith("text/event-stream")
    assert direct.headers["cache-control"] == "no-store"
    assert direct.headers["access-control-allow-origin"] == ORIGIN
    assert direct.headers["x-frame-options"] == "DENY"


def test_a_request_id_is_made_when_none_is_given(asgi):
    answer = httpx.get(f"{asgi.base}/api/v1/players/me/stream", timeout=10)
    assert len(answer.headers["x-request-id"]) >= 16


def test_head_answers_the_headers_and_holds_nothing_open(asgi, today_deals):
    user = make_player("head")
    answer = httpx.head(board_stream_url(asgi.base), headers=bearer(user), timeout=5)
    assert answer.status_code == 200 and answer.content == b""
    assert answer.headers["content-type"].startswith("text/event-stream")


def test_other_methods_and_paths_are_djangos(both):
    for server in both:
        posted = httpx.post(f"{server.base}/api/v1/players/me/stream", timeout=10)
        assert posted.status_code == 405 and posted.headers["allow"] == "GET, HEAD"
        missing = httpx.get(f"{server.base}/api/v1/nothing/stream", timeout=10)
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        health = httpx.get(f"{server.base}/api/v1/health", timeout=10)
        assert health.status_code == 200


def test_every_middleware_is_covered_or_left_out_on_purpose():
    assert set(direct_asgi.COVERED).isdisjoint(direct_asgi.LEFT_OUT)
    assert set(settings.MIDDLEWARE) == {*direct_asgi.COVERED, *direct_asgi.LEFT_OUT}
    in_stack = [name for name in settings.MIDDLEWARE if name in direct_asgi.COVERED]
    assert in_stack == list(direct_asgi.COVERED)  # the direct path's order is the stack's
