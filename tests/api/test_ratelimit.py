"""RateLimit headers, exact counting and trusted proxies of the throttles (in-process;
tests/faults/test_throttles.py does the same through gunicorn, in parallel, without Redis)."""

from __future__ import annotations

import re

import pytest
from django.test import RequestFactory

from config.web.throttling import client_address

from .helpers import assert_problem, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def low_rates(settings):
    rates = {"plays": "3/min", "moves": "2/min", "auth": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def test_every_counted_answer_carries_the_ratelimit_headers(client, low_rates):
    for remaining in (2, 1, 0):
        response = start(client, preset="easthaven", seed=1)
        assert response.status_code == 201
        assert response["RateLimit-Policy"] == '"plays";q=3;w=60'
        match = re.fullmatch(r'"plays";r=(\d+);t=(\d+)', response["RateLimit"])
        assert match and int(match[1]) == remaining and 0 < int(match[2]) <= 60
    refused = start(client, preset="easthaven", seed=1)
    assert_problem(refused, 429, "throttled")
    assert re.fullmatch(r'"plays";r=0;t=\d+', refused["RateLimit"])
    assert 0 < int(refused["Retry-After"]) <= 60


def test_unthrottled_endpoints_carry_no_ratelimit_headers(anon):
    response = anon.get("/api/v1/presets")
    assert "RateLimit" not in response and "RateLimit-Policy" not in response


def test_forged_forwarded_for_does_not_reset_the_auth_limit(anon, low_rates):
    body = {"username": "nobody", "password": "whatever-it-is"}
    for n in range(2):
        headers = {"X-Forwarded-For": f"203.0.113.{n}"}
        assert (
            anon.post("/api/v1/auth/token", body, format="json", headers=headers).status_code == 401
        )
    forged = {"X-Forwarded-For": "198.51.100.7"}
    assert_problem(anon.post("/api/v1/auth/token", body, format="json", headers=forged), 429)


@pytest.mark.parametrize(
    "proxies, forwarded, remote, expected",
    [
        (0, "1.2.3.4", "10.0.0.9", "10.0.0.9"),
        (0, "", "10.0.0.9", "10.0.0.9"),
        (1, "1.2.3.4", "10.0.0.9", "1.2.3.4"),
        (1, "6.6.6.6, 1.2.3.4", "10.0.0.9", "1.2.3.4"),
        (1, "", "10.0.0.9", "10.0.0.9"),
        (2, "6.6.6.6, 1.2.3.4, 10.0.0.8", "10.0.0.9", "1.2.3.4"),
        (2, "1.2.3.4, 10.0.0.8", "10.0.0.9", "1.2.3.4"),
        (1, "not-an-address", "10.0.0.9", "10.0.0.9"),
        (1, "2001:DB8::1", "10.0.0.9", "2001:db8::1"),
    ],
)
def test_client_address_counts_only_trusted_hops(settings, proxies, forwarded, remote, expected):
    settings.TRUSTED_PROXY_COUNT = proxies
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected
