"""Fixtures for the API tests: players with tokens, today's daily deals, generous throttles."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.daily import utc_today
from games.models import Deal
from tests import factories
from tests.factories import HIGH_RATES, client_for, make_user, no_daily_preparation, store_daily


@pytest.fixture(autouse=True)
def _generous_throttles(settings):
    """Throttles stay on, with rates no test reaches unless it lowers them itself."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}


@pytest.fixture(autouse=True)
def _no_daily_preparation(monkeypatch):
    """API tests use the daily deals they store themselves; the solver stays out of them."""
    no_daily_preparation(monkeypatch)


@pytest.fixture
def player(db):
    return make_user()


@pytest.fixture
def client(player) -> APIClient:
    return client_for(player)


@pytest.fixture
def other_client(db) -> APIClient:
    return client_for(make_user())


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def today_deals(db) -> dict[str, Deal]:
    return store_daily(utc_today())


@pytest.fixture
def seahaven_win_deck() -> list[str]:
    return factories.seahaven_win_deck()
