"""Faults in-process: the Redis circuit breaker, the guarded cache, per-process throttles
when Redis is unreachable, health while degraded, and PostgreSQL errors as the documented
503 (tests/faults does all of it again against real processes)."""

from __future__ import annotations

import socket
import sys
import time
import uuid

import pytest
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.db import OperationalError

from config import redis_guard
from config.cache import GuardedRedisCache
from config.web.problems import server_error
from games import services

from .helpers import assert_problem, start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_local_counters():
    """The per-process fallback counters (``CACHES["local"]``) start empty in each test."""
    from django.core.cache import caches

    caches["local"].clear()
    yield
    caches["local"].clear()


def dead_redis_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"redis://127.0.0.1:{probe.getsockname()[1]}/0"


def test_breaker_opens_skips_probes_once_and_closes_with_the_hooks():
    now = [0.0]
    breaker = redis_guard.Breaker(lambda: 2.0)
    recovered: list[float] = []
    breaker.on_recovery(recovered.append)
    real_monotonic = time.monotonic
    try:
        time.monotonic = lambda: now[0]  # type: ignore[assignment]
        assert breaker.state() == "closed" and breaker.allow()
        breaker.failure(ConnectionError("refused"))
        assert breaker.state() == "open" and not breaker.allow()
        now[0] = 2.5
        assert breaker.state() == "half-open"
        assert breaker.allow()  # this caller probes ...
        assert not breaker.allow()  # ... and nobody else until the probe's cool-down ends
        breaker.failure(ConnectionError("still refused"))
        assert not breaker.allow() and not recovered
        now[0] = 5.0
        assert breaker.allow()
        breaker.success()
    finally:
        time.monotonic = real_monotonic  # type: ignore[assignment]
    assert breaker.state() == "closed" and breaker.allow()
    assert len(recovered) == 1


def test_guarded_cache_answers_misses_at_once_when_redis_is_gone():
    cache = GuardedRedisCache(dead_redis_url(), {"OPTIONS": redis_guard.connection_options()})
    started = time.monotonic()
    assert cache.get("k", "default") == "default"
    assert cache.set("k", 1, DEFAULT_TIMEOUT) is None
    assert cache.add("k", 1) is False
    assert cache.get_many(["a", "b"]) == {}
    with pytest.raises(ValueError):
        cache.incr("k")
    assert time.monotonic() - started < 1.0
    assert redis_guard.breaker.is_open


def test_throttles_count_per_process_when_redis_is_unreachable(client, settings):
    settings.REDIS_URL = dead_redis_url()
    rates = {"plays": "2/min", "moves": "2/min", "auth": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    for _ in range(2):
        response = start(client, preset="easthaven", seed=1)
        assert response.status_code == 201
        assert response["RateLimit-Policy"] == '"plays";q=2;w=60'
    refused = start(client, preset="easthaven", seed=1)
    assert_problem(refused, 429, "throttled")
    assert int(refused["Retry-After"]) > 0
    assert redis_guard.breaker.is_open


def test_health_is_degraded_not_down_while_the_breaker_is_open(anon, settings):
    settings.REDIS_BREAKER_COOLDOWN = 60
    redis_guard.breaker.failure(ConnectionError("gone"))
    response = anon.get("/api/v1/health")
    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "cache": "unavailable",
        "throttles": "per-process",
        "leaderboards": "postgres",
    }


def test_a_database_error_is_the_documented_503(client, monkeypatch):
    def unreachable(*args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1 failed: Connection refused")

    monkeypatch.setattr(services, "get_play", unreachable)
    response = client.get(f"/api/v1/plays/{uuid.uuid4()}")
    problem = assert_problem(response, 503, "database_unavailable")
    assert "retry" in problem["detail"]
    assert int(response["Retry-After"]) > 0


def test_handler500_answers_a_database_error_with_the_503(rf):
    try:
        raise OperationalError("terminating connection due to administrator command")
    except OperationalError:
        assert sys.exc_info()[0] is OperationalError
        response = server_error(rf.get("/admin/"))
    assert response.status_code == 503
    assert response["Content-Type"] == "application/problem+json"
    assert int(response["Retry-After"]) > 0
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        assert server_error(rf.get("/")).status_code == 500


@pytest.mark.redis
def test_health_alone_closes_the_breaker_once_redis_is_back(anon, settings):
    """A worker whose only traffic is the load balancer's health check must still notice
    that Redis returned: the check itself is the half-open probe (it used to claim the
    probe and then let the cache call refuse, so the breaker never closed)."""
    settings.REDIS_BREAKER_COOLDOWN = 0.2
    redis_guard.breaker.failure(ConnectionError("gone for a moment"))
    assert anon.get("/api/v1/health").json()["cache"] == "unavailable"  # still cooling down
    time.sleep(0.3)
    response = anon.get("/api/v1/health")
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert redis_guard.breaker.state() == "closed"
