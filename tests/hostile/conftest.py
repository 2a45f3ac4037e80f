"""Hostile clients: generous throttles (the throttles are another test's subject), no solver,
and the per-class counters written out at the end (``HOSTILE_REPORT``)."""

from __future__ import annotations

import json
import os

import pytest
from rest_framework.test import APIClient

from tests.factories import HIGH_RATES, client_for, make_user, no_daily_preparation

from . import tally


@pytest.fixture(autouse=True)
def _generous_throttles(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}


@pytest.fixture(autouse=True)
def _no_daily_preparation(monkeypatch):
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


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = os.environ.get("HOSTILE_REPORT")
    if path:
        with open(path, "w") as out:
            json.dump({"exitstatus": int(exitstatus), "classes": tally.report()}, out, indent=1)
