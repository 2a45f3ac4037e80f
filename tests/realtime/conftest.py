"""A Redis of the tests' own and uvicorn (config.asgi) on the test database.

The server reads what this process commits, so these tests use ``transactional_db``.
"""

from __future__ import annotations

import os
import shutil

import httpx
import pytest

from games.daily import utc_today
from tests.factories import store_daily
from tests.faults.servers import (
    RedisServer,
    Server,
    database_url,
    free_port,
    server_env,
    wait_until,
)

IN_CI = os.environ.get("CI") == "true"


@pytest.fixture
def own_redis():
    if shutil.which("redis-server") is None:
        if IN_CI:
            pytest.fail("redis-server is not on PATH, but CI=true requires the stream tests")
        pytest.skip("needs redis-server on PATH")
    server = RedisServer()
    yield server
    server.stop()


class Uvicorn(Server):
    """uvicorn serving config.asgi on a free port (one worker: the streams' event loop)."""

    def __init__(self, env: dict[str, str], app: str = "config.asgi:application") -> None:
        self.port = free_port()
        super().__init__(
            [
                "uvicorn",
                app,
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--no-access-log",
                "--timeout-graceful-shutdown",
                "1",
            ],
            env,
            "uvicorn",
        )
        self.base = f"http://127.0.0.1:{self.port}"
        try:
            wait_until(self._answers, 40, step=0.1, what="uvicorn up")
        except TimeoutError:
            output = self.output()
            self.stop()
            raise AssertionError(f"uvicorn did not start:\n{output[-3000:]}") from None

    def _answers(self) -> bool:
        assert self.process.poll() is None, self.output()[-3000:]
        return httpx.get(f"{self.base}/api/v1/health", timeout=2).status_code == 200


def start_uvicorn(
    own_redis, settings, app: str = "config.asgi:application", **extra: str
) -> Uvicorn:
    return Uvicorn(
        server_env(
            own_redis.url,
            database_url("haven-realtime"),
            REALTIME_REDIS_PREFIX=settings.REALTIME_REDIS_PREFIX,
            LEADERBOARD_REDIS_PREFIX=settings.LEADERBOARD_REDIS_PREFIX,
            REALTIME_KEEPALIVE_SECONDS="1",
            **extra,
        ),
        app,
    )


@pytest.fixture
def asgi(transactional_db, own_redis, settings):
    """uvicorn on the test database and the tests' Redis (streams served directly)."""
    server = start_uvicorn(own_redis, settings)
    yield server
    server.stop()


@pytest.fixture
def asgi_django(transactional_db, own_redis, settings):
    """The same, every request through Django's handler and middleware (the old path)."""
    server = start_uvicorn(own_redis, settings, "config.asgi:django_application")
    yield server
    server.stop()


@pytest.fixture
def today_deals(transactional_db):
    return store_daily(utc_today(), seed_base=4200)
