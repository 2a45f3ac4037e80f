"""Fixtures of the accounts tests (tests/accounts, tests/hostile/test_accounts.py): generous
throttles unless a test lowers them, boards under a prefix of this session, rebuilt inline,
and the stored daily deals (no solver)."""

from __future__ import annotations

import os

import pytest

from games.daily import utc_today
from leaderboard import store
from tests.factories import HIGH_RATES, no_daily_preparation, store_daily
from tests.fairplay.conftest import detector_records

__all__ = ["detector_records"]


@pytest.fixture(autouse=True)
def _accounts_settings(settings, monkeypatch):
    settings.LEADERBOARD_REDIS_PREFIX = f"acctest{os.getpid()}:"
    settings.LEADERBOARD_REBUILD_INLINE = True
    settings.FAIRPLAY_MIN_ACCOUNT_AGE_HOURS = 0
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}
    no_daily_preparation(monkeypatch)
    if store.configured():
        store.delete_all()
    yield settings
    if store.configured():
        try:
            store.delete_all()
        except store.StoreUnavailable:
            pass


@pytest.fixture
def today_deals(db):
    return store_daily(utc_today())
