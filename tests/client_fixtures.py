"""Fixtures shared by the API and the hostile-client tests (imported by their conftests):
a player with a token, an anonymous client, throttles too generous for any test to reach,
and no solver behind the daily deals."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import HIGH_RATES, client_for, make_user, no_daily_preparation


@pytest.fixture(autouse=True)
def _generous_throttles(settings):
    """Throttles stay on, with rates no test reaches unless it lowers them itself."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}


@pytest.fixture(autouse=True)
def _no_daily_preparation(monkeypatch):
    """These tests use the daily deals they store themselves; the solver stays out."""
    no_daily_preparation(monkeypatch)


@pytest.fixture
def player(db):
    return make_user()


@pytest.fixture
def client(player) -> APIClient:
    return client_for(player)


@pytest.fixture
def anon() -> APIClient:
    return APIClient()
