"""The deployment files: docker-compose.yml is valid, and the web server starts from the
repository's gunicorn.conf.py everywhere (Dockerfile, compose), which follows the
environment (workers, timeouts, request limits, trusted proxies)."""

from __future__ import annotations

import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
IN_CI = os.environ.get("CI") == "true"
GUNICORN_COMMAND = ["gunicorn", "-c", "gunicorn.conf.py", "config.wsgi:application"]


def test_compose_file_is_valid():
    compose = shutil.which("docker-compose")
    if compose is None:
        if IN_CI:
            pytest.fail("docker-compose is not installed, but CI=true requires the check")
        pytest.skip("needs docker-compose (Debian: apt-get install docker-compose)")
    result = subprocess.run(
        [compose, "-f", "docker-compose.yml", "config", "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_web_starts_from_gunicorn_conf_everywhere():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert compose["services"]["web"]["command"] == GUNICORN_COMMAND
    assert (
        'CMD ["gunicorn", "-c", "gunicorn.conf.py", "config.wsgi:application"]'
        in (ROOT / "Dockerfile").read_text()
    )


def load_conf(monkeypatch, **env: str) -> dict:
    for name in list(os.environ):
        if name.startswith("GUNICORN_") or name in ("TRUSTED_PROXY_COUNT", "FORWARDED_ALLOW_IPS"):
            monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_gunicorn_conf_defaults(monkeypatch):
    conf = load_conf(monkeypatch)
    # gthread, one worker per core × 8 threads: what bench/api.py found best (issue 24).
    assert conf["worker_class"] == "gthread"
    assert conf["workers"] == len(os.sched_getaffinity(0))
    assert conf["threads"] == 8
    assert conf["timeout"] == 30 and conf["graceful_timeout"] == 20
    assert conf["limit_request_line"] == 8190
    assert conf["limit_request_fields"] == 100
    assert conf["limit_request_field_size"] == 8190
    assert conf["forwarded_allow_ips"] == ""  # no trusted proxy: trust no forwarded header


def test_gunicorn_conf_follows_the_environment(monkeypatch):
    conf = load_conf(
        monkeypatch,
        GUNICORN_WORKERS="7",
        GUNICORN_WORKER_CLASS="gthread",
        GUNICORN_THREADS="4",
        GUNICORN_TIMEOUT="11",
        TRUSTED_PROXY_COUNT="1",
        FORWARDED_ALLOW_IPS="10.0.0.2",
    )
    assert (conf["workers"], conf["worker_class"], conf["threads"]) == (7, "gthread", 4)
    assert conf["timeout"] == 11
    assert conf["forwarded_allow_ips"] == "10.0.0.2"


def test_gunicorn_accepts_the_conf():
    gunicorn = Path(sys.executable).parent / "gunicorn"
    result = subprocess.run(
        [str(gunicorn), "--check-config", *GUNICORN_COMMAND[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


def test_long_request_lines_reach_django():
    """gunicorn's default request-line limit (4094) answered an HTML page; the conf lets
    everything up to 8190 bytes through to Django (problem documents); beyond that is the
    edge's job (README, "Faults and the server edge")."""
    import socket
    import time

    import requests

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL") and not key.startswith("GUNICORN_")
    }
    env.update(PORT=str(port), GUNICORN_WORKERS="1", GUNICORN_ACCESSLOG="")
    gunicorn = Path(sys.executable).parent / "gunicorn"
    server = subprocess.Popen(
        [str(gunicorn), *GUNICORN_COMMAND[1:]],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                requests.get(f"{base}/api/v1/presets", timeout=10)
                break
            except requests.RequestException:
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.2)
        long_query = requests.get(f"{base}/api/v1/schema/?q={'a' * 6000}", timeout=10)
        assert long_query.status_code == 200
        unknown = requests.get(f"{base}/api/v1/{'a' * 6000}", timeout=10)
        assert unknown.status_code == 404
        assert unknown.headers["Content-Type"].startswith("application/problem+json")
    finally:
        server.terminate()
        server.wait(20)
