"""Fixtures for the API tests: players with tokens, today's daily deals, generous throttles."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.daily import utc_today
from games.models import Deal
from tests import factories
from tests.client_fixtures import _generous_throttles, _no_daily_preparation, anon, client, player
from tests.factories import client_for, make_user, store_daily

__all__ = ["_generous_throttles", "_no_daily_preparation", "anon", "client", "player"]


@pytest.fixture
def other_client(db) -> APIClient:
    return client_for(make_user())


@pytest.fixture
def today_deals(db) -> dict[str, Deal]:
    return store_daily(utc_today())


@pytest.fixture
def seahaven_win_deck() -> list[str]:
    return factories.seahaven_win_deck()
