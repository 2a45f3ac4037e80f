"""No secret from the repository is ever used (issue 45, docs/secrets-and-names.md).

The attacks: sign a token with the development key that ``config/settings.py`` used to fall
back to, and compute the daily deals from the old default ``DAILY_SECRET``. A fresh install
makes its own secrets (``make run``: a 0600 file, reused), and a start with a value from the
repository, or in production without one, stops with a message that says why.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import stat
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import jwt
import pytest
from django.core.exceptions import ImproperlyConfigured
from rest_framework.test import APIClient
from rest_framework_simplejwt.utils import get_md5_hash_password

from config import secret_settings
from games import engine
from games.daily.candidates import candidate_deck
from tests.factories import client_for, make_user

from .tally import check

ROOT = Path(__file__).resolve().parents[2]
OLD_SECRET_KEY = "django-insecure-haven-dev-only-change-me-in-prod"
OLD_DAILY_SECRET = "haven-dev-daily-secret"
REFUSED = "is a value written in the Haven repository"

#: What a subprocess prints: a digest of each secret (never the secret) and the first three
#: candidate decks of each preset on a fixed day.
REPORT = """
import hashlib, json, datetime as dt
from django.conf import settings
from games import engine
from games.daily.candidates import candidate_deck
day = dt.date(2026, 12, 6)
print(json.dumps({
    "secret_key": hashlib.sha256(settings.SECRET_KEY.encode()).hexdigest(),
    "daily_secret": hashlib.sha256(settings.DAILY_SECRET.encode()).hexdigest(),
    "decks": {p: [list(candidate_deck(day, p, n)) for n in range(3)] for p in engine.PRESETS},
}))
"""


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``manage.py args`` as an operator starts it: no pytest, no secret unless given."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTEST", "HAVEN", "DJANGO"))
        and key not in ("SECRET_KEY", "DAILY_SECRET", "DEBUG")
    }
    environ.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def report(secrets_file: Path, **env: str) -> dict:
    result = manage(
        "shell", "-c", REPORT, HAVEN_LOCAL="1", HAVEN_SECRETS_FILE=str(secrets_file), **env
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def forge(user: Any, key: str) -> str:
    """An access token of ``user`` signed with ``key``, with every claim this install's own
    tokens carry (the password stamp of accounts.sessions included)."""
    now = dt.datetime.now(dt.UTC)
    claims = {
        "token_type": "access",
        "user_id": user.pk,
        "hash_password": get_md5_hash_password(user.password),
        "exp": int((now + dt.timedelta(hours=1)).timestamp()),
        "iat": int(now.timestamp()),
        "jti": uuid.uuid4().hex,
    }
    return jwt.encode(claims, key, algorithm="HS256")


# --- Tokens ----------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db
def test_a_token_signed_with_the_old_development_key_is_refused(settings):
    victim = make_user()
    check("tokens", client_for(victim).get("/api/v1/plays"), {200})  # the route works
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION=f"Bearer {forge(victim, OLD_SECRET_KEY)}")
    check("tokens", forged.get("/api/v1/plays"), {401})
    check("tokens", forged.post("/api/v1/plays", {"preset": "seahaven"}, format="json"), {401})
    # The same claims signed with this install's key pass: only the key was wrong.
    genuine = APIClient()
    genuine.credentials(HTTP_AUTHORIZATION=f"Bearer {forge(victim, settings.SECRET_KEY)}")
    check("tokens", genuine.get("/api/v1/plays"), {200})


# --- A fresh install's own secrets -------------------------------------------------------------


def test_a_fresh_install_makes_its_secrets_keeps_them_0600_and_reuses_them(tmp_path, settings):
    secrets_file = tmp_path / "local-secrets.json"
    first = report(secrets_file)
    assert stat.S_IMODE(secrets_file.stat().st_mode) == 0o600
    stored = json.loads(secrets_file.read_text())
    assert first["secret_key"] == digest(stored["SECRET_KEY"])
    assert first["daily_secret"] == digest(stored["DAILY_SECRET"])
    assert stored["SECRET_KEY"] != stored["DAILY_SECRET"]

    assert report(secrets_file) == first  # the second start reuses them
    assert json.loads(secrets_file.read_text()) == stored

    # The environment wins over the file, one secret at a time.
    own = secret_settings.new_secret()
    overridden = report(secrets_file, SECRET_KEY=own)
    assert overridden["secret_key"] == digest(own)
    assert overridden["daily_secret"] == first["daily_secret"]

    # The daily decks of the fresh install are not those of the old default secret.
    settings.DAILY_SECRET = OLD_DAILY_SECRET
    day = dt.date(2026, 12, 6)
    for preset in engine.PRESETS:
        old = [list(candidate_deck(day, preset, n)) for n in range(3)]
        assert first["decks"][preset] != old
        assert not set(map(tuple, first["decks"][preset])) & set(map(tuple, old))


def test_another_fresh_install_gets_other_secrets(tmp_path):
    one = report(tmp_path / "one.json")
    other = report(tmp_path / "other.json")
    assert one["secret_key"] != other["secret_key"]
    assert one["daily_secret"] != other["daily_secret"]
    assert one["decks"] != other["decks"]


def test_the_test_session_does_not_use_the_old_defaults(settings):
    assert settings.SECRET_KEY != OLD_SECRET_KEY
    assert settings.DAILY_SECRET != OLD_DAILY_SECRET
    assert settings.SIMPLE_JWT["SIGNING_KEY"] == settings.SECRET_KEY


# --- The start refuses ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SECRET_KEY", OLD_SECRET_KEY),
        ("DAILY_SECRET", OLD_DAILY_SECRET),
        ("SECRET_KEY", "change-me-in-production"),  # docker-compose.yml's old fallback
        ("DAILY_SECRET", "change-me-too"),
    ],
)
def test_the_start_refuses_a_secret_from_the_repository(name, value):
    other = "DAILY_SECRET" if name == "SECRET_KEY" else "SECRET_KEY"
    result = manage("check", **{name: value, other: secret_settings.new_secret()})
    assert result.returncode == 1, result.stdout
    assert f"{name} (from the environment) {REFUSED}" in result.stderr
    assert "System check identified" not in result.stdout


def test_local_mode_refuses_a_repository_secret_written_into_its_file(tmp_path):
    secrets_file = tmp_path / "local-secrets.json"
    secrets_file.write_text(json.dumps({"SECRET_KEY": OLD_SECRET_KEY, "DAILY_SECRET": "x" * 40}))
    secrets_file.chmod(0o600)
    result = manage("check", HAVEN_LOCAL="1", HAVEN_SECRETS_FILE=str(secrets_file))
    assert result.returncode == 1
    assert f"SECRET_KEY (from {secrets_file}) {REFUSED}" in result.stderr


def test_production_without_secrets_does_not_start(tmp_path):
    secrets_file = tmp_path / "never.json"
    result = manage("check", HAVEN_SECRETS_FILE=str(secrets_file), DAILY_SECRET="d" * 40)
    assert result.returncode == 1
    assert "SECRET_KEY not set. In production" in result.stderr
    assert not secrets_file.exists()  # production never makes secrets of its own
    started = manage(
        "check",
        SECRET_KEY=secret_settings.new_secret(),
        DAILY_SECRET=secret_settings.new_secret(),
    )
    assert started.returncode == 0, started.stderr


@pytest.mark.parametrize("value", sorted(secret_settings.REPOSITORY_SECRETS))
@pytest.mark.parametrize("mode", ["production", "local", "testing"])
def test_every_repository_value_is_refused_in_every_mode(tmp_path, mode, value):
    environ = {"SECRET_KEY": secret_settings.new_secret(), "DAILY_SECRET": value}
    with pytest.raises(ImproperlyConfigured, match=REFUSED):
        secret_settings.load(environ, mode=mode, local_file=tmp_path / "s.json")
    assert not (tmp_path / "s.json").exists()


def test_a_secrets_file_readable_by_others_is_narrowed_to_0600(tmp_path):
    secrets_file = tmp_path / "local-secrets.json"
    made = secret_settings.load({}, mode="local", local_file=secrets_file)
    secrets_file.chmod(0o644)
    assert secret_settings.load({}, mode="local", local_file=secrets_file) == made
    assert stat.S_IMODE(secrets_file.stat().st_mode) == 0o600


def test_a_start_that_lost_the_race_for_the_file_reads_the_winners(tmp_path):
    secrets_file = tmp_path / "local-secrets.json"
    winner = {"SECRET_KEY": "w" * 40, "DAILY_SECRET": "v" * 40}
    assert secret_settings._write_new(secrets_file, winner, replace=False)
    loser = {"SECRET_KEY": "l" * 40, "DAILY_SECRET": "m" * 40}
    assert not secret_settings._write_new(secrets_file, loser, replace=False)
    assert secret_settings.load({}, mode="local", local_file=secrets_file) == winner
    assert sorted(p.name for p in tmp_path.iterdir()) == ["local-secrets.json"]
