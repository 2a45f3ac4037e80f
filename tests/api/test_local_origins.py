"""CORS for a front end's dev server: ``make run`` (the embedded mode: no ``DATABASE_URL``)
allows any port of localhost and 127.0.0.1, a deployment only ``CORS_ALLOWED_ORIGINS``.

The settings decide this when they are imported, from the environment, so each mode is
checked in a fresh interpreter: its Django sends real preflights through the middleware.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LOCAL_ORIGINS = ["http://localhost:5173", "http://127.0.0.1:3000", "http://localhost"]
FOREIGN_ORIGINS = ["https://evil.example", "http://localhost.evil.example", "http://127.0.0.2:5173"]
CONFIGURED = "https://app.haven.example"

# A preflight is answered by the CORS middleware before any view: no database is reached,
# so the production run's DATABASE_URL need not name a live server.
PREFLIGHTS = """
import json, sys
import django
django.setup()
from django.conf import settings
from django.test import Client
client = Client()
answers = {}
for origin in json.loads(sys.argv[1]):
    response = client.options(
        "/api/v1/plays",
        HTTP_ORIGIN=origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type",
    )
    answers[origin] = response.headers.get("Access-Control-Allow-Origin")
allow = getattr(settings, "CORS_ALLOW_LOCALHOST", None)
print(json.dumps({"allow_localhost": allow, "answers": answers}))
"""


def preflights(**env: str) -> dict:
    """Run :data:`PREFLIGHTS` under ``config.settings`` with only ``env`` configured."""
    clean = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DATABASE_", "REDIS_", "CORS_", "DEBUG", "PYTEST_", "HAVEN_LOCAL"))
    }
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    origins = json.dumps([*LOCAL_ORIGINS, *FOREIGN_ORIGINS, CONFIGURED])
    done = subprocess.run(
        [sys.executable, "-c", PREFLIGHTS, origins],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_make_run_lets_a_local_dev_server_through_and_no_one_else():
    run = preflights()  # no DATABASE_URL, no DEBUG: what `make run` is on a fresh clone
    assert run["allow_localhost"] is True
    for origin in LOCAL_ORIGINS:
        assert run["answers"][origin] == origin
    for origin in [*FOREIGN_ORIGINS, CONFIGURED]:  # no CORS_ALLOWED_ORIGINS set here
        assert run["answers"][origin] is None


def test_a_deployment_refuses_localhost_and_allows_its_configured_origins():
    run = preflights(
        DATABASE_URL="postgres://haven@127.0.0.1:5432/haven", CORS_ALLOWED_ORIGINS=CONFIGURED
    )
    assert run["allow_localhost"] is False
    assert all(run["answers"][origin] is None for origin in LOCAL_ORIGINS + FOREIGN_ORIGINS)
    assert run["answers"][CONFIGURED] == CONFIGURED


@pytest.mark.parametrize(
    ("env", "allowed"),
    [
        ({"CORS_ALLOW_LOCALHOST": "0"}, False),  # embedded, switched off
        ({"DATABASE_URL": "postgres://h@127.0.0.1/h", "CORS_ALLOW_LOCALHOST": "1"}, True),
        ({"DATABASE_URL": "postgres://h@127.0.0.1/h", "DEBUG": "1"}, True),  # as before
    ],
)
def test_cors_allow_localhost_overrides_the_default(env, allowed):
    run = preflights(**env)
    assert run["allow_localhost"] is allowed
    assert (run["answers"]["http://localhost:5173"] is not None) is allowed
    assert run["answers"]["https://evil.example"] is None
