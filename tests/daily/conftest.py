"""Fixtures for the daily-deal tests: a fake solver for unit tests, real Celery workers.

The worker tests run ``celery -A tests.daily.worker_app worker --pool=solo`` as subprocesses
against pytest-django's test database (``transaction=True``, so the rows the test writes are
committed and the workers see them, and the other way round) and Redis (database 14 for the
broker and results, see ``BROKER_TEST_DB``), each test on a queue of its own.  Every worker
started is stopped (SIGTERM, then SIGKILL) and the test's Redis keys are deleted when the
test ends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from games.daily import search

ROOT = Path(__file__).resolve().parents[2]


# --- A fake solver (unit tests only) ---------------------------------------------------------


@dataclass
class FakeResult:
    verdict: str
    moves: list[dict[str, Any]] = field(default_factory=list)
    nodes: int = 10
    seconds: float = 0.01


class FakeSolver:
    """Scripted answers: the k-th screening solve of a preset gets ``screen[preset][k]``
    (``default`` when unscripted; the last entry repeats), a full solve of a deck screened
    winnable is winnable, and the k-th other full solve gets ``full[preset][k]``
    (``"unknown"`` when unscripted).  Every call is recorded."""

    def __init__(self) -> None:
        self.screen: dict[str, list[str]] = {}
        self.full: dict[str, list[str]] = {}
        self.default = ["unwinnable", "unknown", "winnable"]
        self.calls: list[dict[str, Any]] = []
        self.winnable: set[tuple[int, ...]] = set()
        self.sleep = 0.0

    def __call__(self, rules, deck, time_budget, node_budget, shorten):
        deck = tuple(deck)
        stage = "full" if shorten else "screen"
        earlier = [c for c in self.calls if c["preset"] == rules.name and c["stage"] == stage]
        self.calls.append(
            {"preset": rules.name, "deck": deck, "time_budget": time_budget,
             "node_budget": node_budget, "stage": stage}
        )  # fmt: skip
        if stage == "screen":
            script = self.screen.get(rules.name, self.default)
        elif deck in self.winnable:
            script = ["winnable"]
        else:
            script = self.full.get(rules.name, ["unknown"])
        verdict = script[min(len(earlier), len(script) - 1)]
        if verdict == "winnable":
            self.winnable.add(deck)
        if self.sleep:
            time.sleep(min(self.sleep, time_budget))
        moves = [{"type": "deal"}] * (7 if shorten else 9) if verdict == "winnable" else []
        # an undecided solve spent its whole node budget; a proof or a win, a few positions
        nodes = (node_budget or 10**6) if verdict == "unknown" else 10
        return FakeResult(verdict, moves, nodes=nodes)

    def decks(self, preset: str, stage: str | None = None) -> list[tuple[int, ...]]:
        return [
            c["deck"]
            for c in self.calls
            if c["preset"] == preset and (stage is None or c["stage"] == stage)
        ]


@pytest.fixture
def fake_solver(monkeypatch) -> FakeSolver:
    solver = FakeSolver()
    monkeypatch.setattr(search, "_solve", solver)
    return solver


# --- Real workers ----------------------------------------------------------------------------


#: Redis database of the worker tests' broker and results.  Not 15: every test's autouse
#: ``cache.clear()`` (tests/conftest.py) is a FLUSHDB of database 15, so a test session
#: running beside this one would drop our queued messages.  Only these tests use it, and
#: they delete what they wrote.
BROKER_TEST_DB = 14


def broker_url() -> str:
    from django.conf import settings

    from config.settings import redis_url_with_db

    return redis_url_with_db(settings.REDIS_URL, BROKER_TEST_DB)


def _forget_connections(app) -> None:
    """Drop the app's cached broker pools and result backend (they hold the old URLs)."""
    app._pool = None
    if "amqp" in app.__dict__:
        app.amqp._producer_pool = None
    app._backend_cache = None
    app._local.__dict__.pop("backend", None)


@pytest.fixture
def non_eager():
    """Send tasks to the real broker from this process (the test settings make them eager)."""
    from config.celery import app

    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url", "result_backend")}
    url = broker_url()
    app.conf.update(task_always_eager=False, broker_url=url, result_backend=url)
    _forget_connections(app)
    try:
        yield app
    finally:
        app.conf.update(saved)
        _forget_connections(app)


def _database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    auth = s["USER"] or ""
    if s.get("PASSWORD"):
        auth += f":{s['PASSWORD']}"
    host = s["HOST"] or "127.0.0.1"
    port = s["PORT"] or "5432"
    return f"postgres://{auth}@{host}:{port}/{s['NAME']}"


@dataclass
class Workers:
    queue: str
    logdir: Path
    procs: list[subprocess.Popen] = field(default_factory=list)
    app: str = "tests.daily.worker_app"

    def start(self, name: str = "w", **env: str) -> subprocess.Popen:

        environ = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith("PYTEST") and key != "HAVEN_TESTING"
        }
        environ.update(
            {
                "DATABASE_URL": _database_url(),
                "REDIS_URL": broker_url(),
                "HAVEN_TEST_QUEUE": self.queue,
                "SOLVER_BUDGET_SECONDS": "2",
                "PYTHONPATH": str(ROOT),
                "LOG_LEVEL": "INFO",
            }
        )
        environ.update(env)
        log = open(self.logdir / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                self.app,
                "worker",
                "--pool=solo",
                "-Q",
                self.queue,
                "-n",
                f"{name}-{self.queue}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env=environ,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        proc.log = log  # type: ignore[attr-defined]
        proc.logfile = self.logdir / f"{name}.log"  # type: ignore[attr-defined]
        self.procs.append(proc)
        return proc

    def wait_ready(self, proc: subprocess.Popen, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if b" ready." in proc.logfile.read_bytes():  # type: ignore[attr-defined]
                return
            if proc.poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(f"worker not ready:\n{self.log(proc)}")

    def log(self, proc: subprocess.Popen) -> str:
        return proc.logfile.read_text(errors="replace")[-4000:]  # type: ignore[attr-defined]

    def kill(self, proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        proc.wait(timeout=30)

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(timeout=15)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    proc.wait(timeout=15)
            proc.log.close()  # type: ignore[attr-defined]


@pytest.fixture
def workers(transactional_db, non_eager, tmp_path) -> Iterator[Workers]:
    """Start real worker processes with ``workers.start(name, **env)``; send tasks to
    ``workers.queue``."""
    queue = f"haven-test-daily-{uuid.uuid4().hex[:10]}"
    pool = Workers(queue, tmp_path)
    try:
        yield pool
    finally:
        pool.stop_all()
        for proc in pool.procs:  # shown by pytest when the test failed
            print(f"--- {proc.logfile.name} ---\n{pool.log(proc)}")  # noqa: T201
        _delete_keys(broker_url(), queue)


def _delete_keys(url: str, queue: str) -> None:
    """Delete the test's queue, bindings, task results and unacked bookkeeping."""
    import redis

    client = redis.Redis.from_url(url)
    patterns = [f"*{queue}*", "celery-task-meta-*", "unacked*", "_kombu.binding.celery*"]
    keys = {key for pattern in patterns for key in client.scan_iter(match=pattern)}
    if keys:
        client.delete(*keys)


def wait_for(predicate: Callable[[], Any], timeout: float, what: str, interval: float = 0.25):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
