"""Fixtures of the generated-client tests: a live server with today's deals, its schema.

The clients are generated from the schema the live server serves, exactly as a front-end
team would, so a schema change that breaks a client fails here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

from games.daily import utc_today
from leaderboard import store
from tests.factories import HIGH_RATES, no_daily_preparation, store_daily

IN_CI = os.environ.get("CI") == "true"
ROOT = Path(__file__).resolve().parents[2]
# Generous but bounded: a generator or npm hanging must not hold CI.
STEP_TIMEOUT = 300


def need(*programs: str) -> None:
    missing = [name for name in programs if shutil.which(name) is None]
    if missing:
        reason = f"needs {', '.join(missing)} on PATH (apt-get install nodejs npm)"
        if IN_CI:
            pytest.fail(f"{reason}, but CI=true requires it")
        pytest.skip(reason)


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a step; its output is the failure message when it fails."""
    result = subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
    )
    output = f"$ {' '.join(command)}\n{result.stdout}\n{result.stderr}"
    assert result.returncode == 0, output
    return output


@pytest.fixture
def haven(live_server, settings, monkeypatch, transactional_db):
    """The live server's base URL, with today's deals stored and throttles out of reach."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}
    # Boards of this session only: the test Redis database is shared with other sessions
    # (and keeps what earlier runs left), and the client tests read today's board.
    settings.LEADERBOARD_REDIS_PREFIX = f"lbclients{os.getpid()}:"
    if store.configured():
        store.delete_all()
    no_daily_preparation(monkeypatch)
    store_daily(utc_today())
    yield live_server.url
    if store.configured():
        store.delete_all()


@pytest.fixture
def schema_file(haven, tmp_path) -> Path:
    with urllib.request.urlopen(f"{haven}/api/v1/schema/?format=json", timeout=30) as answer:
        path = tmp_path / "schema.json"
        path.write_bytes(answer.read())
    return path
