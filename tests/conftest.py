"""Suite-wide test setup.

* Redis: the settings switch ``REDIS_URL`` to database 15 under pytest (a test run never
  touches a running service's data) and give the session a key prefix of its own; this
  file mirrors the URL in the environment for any subprocess and deletes the session's
  keys around every test and when the session ends.
* ``@pytest.mark.postgres`` / ``@pytest.mark.redis`` tests are skipped when that service is
  not configured (``DATABASE_URL`` / ``REDIS_URL``), ``@pytest.mark.pypy`` ones when no
  ``pypy3`` is on ``PATH``, ``@pytest.mark.native`` ones when the native prover is not
  built, except under ``CI=true``, where such a skip would hide a broken
  CI setup and so is a failure.
* The cache is cleared around every test, so throttle counters never leak between tests.
"""

from __future__ import annotations

import os
import shutil

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
    if item.get_closest_marker("pypy") and shutil.which("pypy3") is None:
        _skip_or_fail("needs pypy3 on PATH (apt-get install pypy3)")
    if item.get_closest_marker("native"):
        from games.solver import native

        if not native.available():
            _skip_or_fail("needs the native prover (make native: cargo build --release)")


def _delete_own_redis_keys() -> None:
    """Delete this session's cache keys (``<KEY_PREFIX>:*``) from the test Redis database.

    Not ``FLUSHDB``: another test session on the same machine may be using database 15.
    """
    import redis
    from django.conf import settings

    url = settings.REDIS_URL
    assert url.endswith(f"/{REDIS_TEST_DB}"), url
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    client = redis.Redis.from_url(url)
    # The cache's keys, and the boards, rebuild locks and epoch marker that tests using the
    # default leaderboard prefix left (a stale board or marker would mislead the next run).
    for pattern in (f"{prefix}:*", f"{settings.LEADERBOARD_REDIS_PREFIX}*"):
        keys = list(client.scan_iter(match=pattern, count=1000))
        if keys:
            client.delete(*keys)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Leave the test Redis database as it was found (it is never the service's own)."""
    try:
        redis_in_use = using_redis()
    except Exception:  # settings never loaded: nothing to clean
        return
    if redis_in_use:
        import redis

        try:
            _delete_own_redis_keys()
        except redis.RedisError:
            pass


@pytest.fixture(autouse=True)
def _fair_play_analysis(request, settings):
    """The detectors judge finished ranked plays only in tests/fairplay: elsewhere the test
    clients play at machine speed, which the detectors rightly flag as a bot and hide."""
    settings.FAIRPLAY_ANALYSE = "tests/fairplay" in str(request.node.path).replace("\\", "/")
    yield


@pytest.fixture(autouse=True)
def _clear_cache():
    """A fresh cache for every test, so throttle counters never leak between tests."""
    from django.core.cache import cache

    if using_redis():
        _delete_own_redis_keys()
        yield
        _delete_own_redis_keys()
    else:
        cache.clear()
        yield
        cache.clear()


@pytest.fixture(autouse=True)
def _forget_checked_accounts():
    """The move endpoint caches whether an account is active (accounts.auth); a test's rolled
    back users must not leave a verdict for the next test's user with the same id."""
    from accounts import auth

    auth.forget_all()
    yield
    auth.forget_all()


@pytest.fixture(autouse=True)
def _closed_redis_breaker():
    """Every test starts with the process's Redis circuit breaker closed (config.redis_guard)."""
    from config.redis_guard import breaker

    breaker.reset()
    yield
    breaker.reset()
