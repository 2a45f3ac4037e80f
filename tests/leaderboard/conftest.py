"""Fixtures of the leaderboard tests.

Board keys live under a prefix of their own per test session (other sessions may share Redis
db 15), rebuilds run inline (no background thread to wait for), and the keys are deleted
around every test.
"""

from __future__ import annotations

import os

import pytest

from leaderboard import store
from tests.factories import HIGH_RATES, no_daily_preparation


@pytest.fixture(autouse=True)
def _leaderboard_settings(settings):
    settings.LEADERBOARD_REDIS_PREFIX = f"lbtest{os.getpid()}:"
    settings.LEADERBOARD_REBUILD_INLINE = True
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}
    if store.configured():
        store.delete_all()
    yield settings
    if store.configured():
        try:
            store.delete_all()
        except store.StoreUnavailable:  # the test pointed REDIS_URL at nothing
            pass


@pytest.fixture(autouse=True)
def _no_daily_preparation(monkeypatch):
    """The tests store their own daily deals; the solver stays out."""
    no_daily_preparation(monkeypatch)


@pytest.fixture
def no_redis(settings):
    """Run without Redis: every board is served by PostgreSQL."""
    settings.REDIS_URL = ""
    return settings
