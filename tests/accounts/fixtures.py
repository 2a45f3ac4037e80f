"""Fixtures of the accounts tests (tests/accounts, tests/hostile/test_accounts.py): generous
throttles unless a test lowers them, boards under a prefix of this session, rebuilt inline,
and the stored daily deals (no solver)."""

from __future__ import annotations

import os

import pytest

from games.daily import utc_today
from tests.factories import own_boards, store_daily
from tests.fairplay.conftest import detector_records

__all__ = ["detector_records"]


@pytest.fixture(autouse=True)
def _accounts_settings(settings, monkeypatch):
    with own_boards(settings, monkeypatch, f"acctest{os.getpid()}:"):
        yield settings


@pytest.fixture
def today_deals(db):
    return store_daily(utc_today())
