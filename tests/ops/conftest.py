"""Fixtures for the operations tests: the API tests' players and throttles, and metrics on."""

from __future__ import annotations

import pytest

from tests.client_fixtures import _generous_throttles, _no_daily_preparation, anon, client, player

__all__ = ["_generous_throttles", "_no_daily_preparation", "anon", "client", "player"]

TOKEN = "scrape-token-for-tests"


@pytest.fixture
def metrics_on(settings):
    settings.METRICS_ENABLED = True
    settings.METRICS_TOKEN = TOKEN
    return TOKEN
