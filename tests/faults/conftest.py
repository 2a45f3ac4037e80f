"""Fixtures of the fault tests: a Redis of the test's own, gunicorn on the test database,
today's daily deals and players with tokens (see ``servers`` and ``players``).

The servers read the rows this process writes, so these tests commit
(``transaction=True``) and need PostgreSQL; without ``redis-server`` on ``PATH`` they are
skipped, except under ``CI=true`` where that is a failure.
"""

from __future__ import annotations

import os
import shutil

import pytest
from django.contrib.auth import get_user_model

from games.daily import utc_today
from games.models import Deal
from tests.factories import store_daily

from .servers import Gunicorn, RedisServer, database_url, server_env

IN_CI = os.environ.get("CI") == "true"


@pytest.fixture(autouse=True)
def _needs_redis_server():
    if shutil.which("redis-server") is None:
        if IN_CI:
            pytest.fail("redis-server is not on PATH, but CI=true requires the fault tests")
        pytest.skip("needs redis-server on PATH")


@pytest.fixture
def own_redis():
    server = RedisServer()
    yield server
    server.stop()


@pytest.fixture
def web(transactional_db, own_redis):
    """gunicorn (2 workers, the repository's gunicorn.conf.py) on the test database."""
    server = Gunicorn(server_env(own_redis.url, database_url("haven-faults-web")))
    yield server
    server.stop()


@pytest.fixture
def today_deals(transactional_db) -> dict[str, Deal]:
    """One made-up daily deal per preset for today (the solver stays out of the tests)."""
    return store_daily(utc_today(), seed_base=4000)


@pytest.fixture
def make_users(transactional_db):
    def make(count: int, prefix: str = "p"):
        users = get_user_model()
        return [users.objects.create_user(username=f"{prefix}{i:03d}") for i in range(count)]

    return make
