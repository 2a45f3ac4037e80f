"""Hostile clients: generous throttles (the throttles are another test's subject), no solver,
and the per-class counters written out at the end (``HOSTILE_REPORT``)."""

from __future__ import annotations

import json
import os

import pytest

from tests.client_fixtures import _generous_throttles, _no_daily_preparation, anon, client, player

from . import tally

__all__ = ["_generous_throttles", "_no_daily_preparation", "anon", "client", "player"]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = os.environ.get("HOSTILE_REPORT")
    if path:
        with open(path, "w") as out:
            json.dump({"exitstatus": int(exitstatus), "classes": tally.report()}, out, indent=1)
