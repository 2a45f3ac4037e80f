"""Throttles under parallel load, with Redis and without it, through gunicorn.

N parallel clients get exactly the limit through (one Lua script counts atomically across
workers); every answer carries ``RateLimit-Policy`` / ``RateLimit``; a 429 is a problem
document with ``Retry-After``; with Redis killed each worker counts on its own and nothing
answers 5xx; a forged ``X-Forwarded-For`` neither resets nor dodges the per-address limit.
"""

from __future__ import annotations

import re
import threading
import time
import uuid

import pytest
import requests

from .players import Tally
from .servers import Gunicorn, database_url, server_env

pytestmark = [pytest.mark.faults, pytest.mark.postgres, pytest.mark.redis]

LIMIT = 40
CLIENTS = 8
EACH = 10  # 80 requests for a limit of 40


def burst(base: str, tally: Tally, forge: bool = False) -> list[requests.Response]:
    """CLIENTS threads, EACH refresh attempts each (a cheap request in the auth scope)."""
    answers: list[requests.Response] = []
    lock = threading.Lock()

    def client() -> None:
        with requests.Session() as session:
            for _ in range(EACH):
                headers = {"X-Forwarded-For": f"10.{uuid.uuid4().int % 250}.0.1"} if forge else {}
                started = time.monotonic()
                response = session.post(
                    f"{base}/api/v1/auth/token/refresh",
                    json={"refresh": "not-a-token"},
                    headers=headers,
                    timeout=15,
                )
                tally.record(response, (401, 429), time.monotonic() - started)
                with lock:
                    answers.append(response)

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def check_headers(answers: list[requests.Response]) -> None:
    for response in answers:
        assert response.headers["RateLimit-Policy"] == f'"auth";q={LIMIT};w=60'
        match = re.fullmatch(r'"auth";r=(\d+);t=(\d+)', response.headers["RateLimit"])
        assert match, response.headers["RateLimit"]
        assert 0 <= int(match[1]) < LIMIT and 0 < int(match[2]) <= 60
        if response.status_code == 429:
            assert int(match[1]) == 0
            assert 0 < int(response.headers["Retry-After"]) <= 60
            assert response.headers["Content-Type"].startswith("application/problem+json")
            assert response.json()["code"] == "throttled"


@pytest.fixture
def limited(transactional_db, own_redis):
    env = server_env(own_redis.url, database_url("haven-faults-web"), THROTTLE_AUTH=f"{LIMIT}/min")
    server = Gunicorn(env)
    yield server
    server.stop()


def test_parallel_clients_get_exactly_the_limit(limited):
    tally = Tally(f"{CLIENTS} parallel clients, {CLIENTS * EACH} requests, limit {LIMIT}/min")
    answers = burst(limited.base, tally)
    through = sum(1 for r in answers if r.status_code != 429)
    check_headers(answers)
    tally.report(let_through=through, limit=LIMIT)
    assert through == LIMIT
    tally.assert_clean()


def test_forged_forwarded_for_neither_resets_nor_dodges(limited):
    tally = Tally("forged X-Forwarded-For on every request (TRUSTED_PROXY_COUNT=0)")
    answers = burst(limited.base, tally, forge=True)
    through = sum(1 for r in answers if r.status_code != 429)
    tally.report(let_through=through, limit=LIMIT)
    assert through == LIMIT
    tally.assert_clean()


def test_without_redis_each_worker_limits_on_its_own(limited, own_redis):
    tally = Tally("Redis killed: per-process throttles (2 workers)")
    own_redis.kill()
    answers = burst(limited.base, tally)
    through = sum(1 for r in answers if r.status_code != 429)
    health = limited.health()
    tally.report(let_through=through, limit=LIMIT)
    assert health.status_code == 200
    assert health.json()["status"] == "degraded"
    assert health.json()["throttles"] == "per-process"
    # Each of the two workers allows LIMIT on its own; both may have served requests.
    assert LIMIT <= through <= 2 * LIMIT
    check_headers(answers)
    tally.assert_clean()
