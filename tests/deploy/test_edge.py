"""The deployment files: docker-compose.yml is valid, and the web server starts from the
repository's gunicorn.conf.py everywhere (Dockerfile, compose), which follows the
environment (workers, timeouts, request limits, trusted proxies)."""

from __future__ import annotations

import os
import re
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


def test_compose_carries_no_secret_of_its_own():
    """SECRET_KEY and DAILY_SECRET come from the operator's environment or .env, never from
    the file: with none set they are empty, and every service stops at start saying so
    (config/secret_settings.py, docs/secrets-and-names.md)."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    for service in ("migrate", "web", "streams", "worker", "beat"):
        environment = compose["services"][service]["environment"]
        for name in ("SECRET_KEY", "DAILY_SECRET"):
            assert environment[name] == f"${{{name}:-}}", (service, environment[name])
    # The image's build steps make throwaway random keys; no value is written down.
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.findall(r"(?:SECRET_KEY|DAILY_SECRET)=(\S+)", dockerfile) == [
        '"$(python',
        '"$SECRET_KEY"',
    ]


def test_web_starts_from_gunicorn_conf_everywhere():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert compose["services"]["web"]["command"] == GUNICORN_COMMAND
    assert (
        'CMD ["gunicorn", "-c", "gunicorn.conf.py", "config.wsgi:application"]'
        in (ROOT / "Dockerfile").read_text()
    )


def load_conf(monkeypatch, **env: str) -> dict:
    """gunicorn.conf.py's settings in ``env`` (PostgreSQL unless DATABASE_URL is given)."""
    for name in list(os.environ):
        if name.startswith("GUNICORN_") or name in ("TRUSTED_PROXY_COUNT", "FORWARDED_ALLOW_IPS"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("DATABASE_URL", "postgres://haven@postgres:5432/haven")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_gunicorn_conf_defaults(monkeypatch):
    conf = load_conf(monkeypatch)
    # gthread, one worker per core × 8 threads: what bench/api.py found best (issue 24),
    # as Haven's subclass (problem documents for gunicorn's own refusals).
    assert conf["worker_class"] == "config.gunicorn_workers.ThreadWorker"
    assert conf["workers"] == len(os.sched_getaffinity(0))
    assert conf["threads"] == 8
    assert conf["timeout"] == 30 and conf["graceful_timeout"] == 20
    assert conf["limit_request_line"] == 8190
    assert conf["limit_request_fields"] == 100
    assert conf["limit_request_field_size"] == 8190
    assert conf["forwarded_allow_ips"] == ""  # no trusted proxy: trust no forwarded header


def test_gunicorn_conf_runs_one_process_on_sqlite(monkeypatch):
    # make run: the cache, the daily deal's lock and the sweeper live in the process
    # (docs/embedded-mode.md); more threads, not more processes.
    assert load_conf(monkeypatch, DATABASE_URL="")["workers"] == 1
    assert load_conf(monkeypatch, DATABASE_URL="sqlite:////tmp/haven.sqlite3")["workers"] == 1
    conf = load_conf(monkeypatch, DATABASE_URL="", GUNICORN_WORKERS="3")
    assert (conf["workers"], conf["threads"]) == (3, 8)


def test_gunicorn_conf_starts_the_sweeper_in_each_worker(monkeypatch):
    started = []
    monkeypatch.setattr("leaderboard.sweeper.start_in_process", lambda: started.append(1))
    load_conf(monkeypatch)["post_worker_init"](object())
    assert started == [1]


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
    assert (conf["workers"], conf["worker_class"], conf["threads"]) == (
        7,
        "config.gunicorn_workers.ThreadWorker",
        4,
    )
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


def test_gunicorn_conf_keeps_other_worker_classes_and_threads_mean_gthread(monkeypatch):
    threaded_sync = load_conf(monkeypatch, GUNICORN_WORKER_CLASS="sync", GUNICORN_THREADS="4")
    assert threaded_sync["worker_class"].endswith("ThreadWorker")
    single = load_conf(monkeypatch, GUNICORN_WORKER_CLASS="sync", GUNICORN_THREADS="1")
    assert single["worker_class"].endswith("SyncWorker")
    conf = load_conf(monkeypatch, GUNICORN_WORKER_CLASS="gevent")
    assert conf["worker_class"] == "gevent"


@pytest.fixture(scope="module", params=["sync", "gthread"])
def gunicorn_server(request):
    """The repository's gunicorn.conf.py on a free port, one worker of each class we ship."""
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
    env.update(
        PORT=str(port),
        GUNICORN_WORKERS="1",
        GUNICORN_ACCESSLOG="",
        GUNICORN_WORKER_CLASS=request.param,
    )
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
                assert server.poll() is None, "gunicorn exited"
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.2)
        yield base, port
    finally:
        server.terminate()
        server.wait(20)


def test_long_request_lines_reach_django(gunicorn_server):
    """gunicorn's default request-line limit (4094) answered an HTML page; the conf lets
    everything up to 8190 bytes through to Django (problem documents)."""
    import requests

    base, _port = gunicorn_server
    long_query = requests.get(f"{base}/api/v1/schema/?q={'a' * 6000}", timeout=10)
    assert long_query.status_code == 200
    unknown = requests.get(f"{base}/api/v1/{'a' * 6000}", timeout=10)
    assert unknown.status_code == 404
    assert unknown.headers["Content-Type"].startswith("application/problem+json")


def raw_exchange(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes no HTTP library would, read the answer to the end (gunicorn closes)."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {
        name.strip().lower(): value.strip()
        for name, _, value in (line.partition(":") for line in lines)
    }
    return int(status_line.split(" ")[1]), headers, body


GUNICORN_REFUSALS = [
    # (request, status, code)
    (b"GET /api/v1/presets?q=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414,
     "request_line_too_long"),
    (b"GET /api/v1/presets HTTP/1.1\r\nHost: x\r\nX-Bad: a\x01b\r\n\r\n", 400,
     "bad_request"),
    (b"GET /api/v1/presets HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
     431, "header_fields_too_large"),
    (b"GET /api/v1/presets HTTP/1.1\r\nHost: x\r\n"
     + b"".join(b"X-H%d: 1\r\n" % i for i in range(120)) + b"\r\n", 431,
     "header_fields_too_large"),
    (b"GET /api/v1/presets HTTP/9.9\r\nHost: x\r\n\r\n", 400, "bad_request"),
    (b"POST /api/v1/auth/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: br"
     b"\r\n\r\n", 501, "not_implemented"),
    (b"POST /api/v1/auth/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked"
     b"\r\n\r\n0\r\n\r\n", 400, "bad_request"),
]  # fmt: skip


@pytest.mark.parametrize(("request_bytes", "status", "code"), GUNICORN_REFUSALS)
def test_gunicorns_own_refusals_are_problem_documents(gunicorn_server, request_bytes, status, code):
    """What gunicorn refuses before Django runs is still a problem document (the workers of
    config/gunicorn_workers.py), not its HTML page."""
    import json

    _base, port = gunicorn_server
    answer_status, headers, body = raw_exchange(port, request_bytes)
    assert answer_status == status, body[:200]
    assert headers["content-type"] == "application/problem+json"
    assert int(headers["content-length"]) == len(body)
    problem = json.loads(body)
    assert problem["status"] == status and problem["code"] == code
    assert problem["type"].endswith(code)
    assert problem["title"] and problem["detail"]


def test_the_streams_run_under_uvicorn_beside_gunicorn_with_a_health_check():
    """Issue 42: the SSE streams are served by an ASGI server (uvicorn) of their own, on the
    same project, image and environment as web, with its own health check."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    streams, web = compose["services"]["streams"], compose["services"]["web"]
    assert streams["command"][:2] == ["uvicorn", "config.asgi:application"]
    assert streams["environment"] == web["environment"]
    assert "api/v1/health" in " ".join(streams["healthcheck"]["test"])
    assert streams["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
