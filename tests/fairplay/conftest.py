"""Fixtures of the fair-play tests: the leaderboard's own settings (a key prefix per
session, inline rebuilds, no throttling, no solver), today's daily deals, and fake
detectors (the real ones live in ``fairplay.detectors``, written and measured apart)."""

from __future__ import annotations

import os

import pytest

from fairplay.detectors import Finding, PlayRecord
from games.daily import utc_today
from tests.factories import own_boards, store_daily


@pytest.fixture(autouse=True)
def _fairplay_settings(settings, monkeypatch):
    with own_boards(settings, monkeypatch, f"fptest{os.getpid()}:"):
        yield settings


@pytest.fixture
def today_deals(db):
    return store_daily(utc_today())


@pytest.fixture
def detector_records(monkeypatch) -> list[PlayRecord]:
    """Fake detectors: linked accounts flag any play with linked reveals, speed never flags.
    Returns the records they were given, for the tests to inspect."""
    seen: list[PlayRecord] = []

    def fake(record: PlayRecord, thresholds=None) -> list[Finding]:
        seen.append(record)
        linked = bool(record.linked_reveals)
        return [
            Finding(
                "linked_accounts",
                1.0 if linked else 0.0,
                linked,
                f"{len(record.linked_reveals)} card(s) seen first by a linked account",
                {"cards": sorted(record.linked_reveals)},
            ),
            Finding("inhuman_speed", 0.1, False, "human move times"),
        ]

    monkeypatch.setattr("fairplay.detectors.run_detectors", fake)
    return seen
