"""Suite-wide test setup.

* Redis: the settings switch ``REDIS_URL`` to database 15 under pytest (a test run never
  touches a running service's data); this file mirrors that in the environment for any
  subprocess and flushes database 15 when the session ends.
* ``@pytest.mark.postgres`` / ``@pytest.mark.redis`` tests are skipped when that service is
  not configured (``DATABASE_URL`` / ``REDIS_URL``), except under ``CI=true``, where such a
  skip would hide a broken CI setup and so is a failure.
* The cache is cleared around every test, so throttle counters never leak between tests.
"""

from __future__ import annotations

import os

import pytest

from config.settings import REDIS_TEST_DB, redis_url_with_db

if os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = redis_url_with_db(os.environ["REDIS_URL"], REDIS_TEST_DB)

IN_CI = os.environ.get("CI") == "true"


def using_postgres() -> bool:
    from django.conf import settings

    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def using_redis() -> bool:
    from django.conf import settings

    return "RedisCache" in settings.CACHES["default"]["BACKEND"]


def _skip_or_fail(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason}, but CI=true requires it (a skip here would hide a broken CI)")
    pytest.skip(reason)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres") and not using_postgres():
        _skip_or_fail("needs PostgreSQL (set DATABASE_URL=postgres://...)")
    if item.get_closest_marker("redis") and not using_redis():
        _skip_or_fail("needs Redis (set REDIS_URL=redis://...)")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Leave the test Redis database empty (it is never the service's own database)."""
    try:
        from django.conf import settings

        url = settings.REDIS_URL
    except Exception:  # settings never loaded: nothing to clean
        return
    if not url:
        return
    import redis

    assert url.endswith(f"/{REDIS_TEST_DB}"), url
    try:
        redis.Redis.from_url(url).flushdb()
    except redis.RedisError:
        pass


@pytest.fixture(autouse=True)
def _clear_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
