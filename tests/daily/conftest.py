"""Fixtures for the daily-deal tests: a fake solver for unit tests, real Celery workers.

The worker tests run ``celery -A tests.daily.worker_app worker --pool=solo`` as subprocesses
against pytest-django's test database (``transaction=True``, so the rows the test writes are
committed and the workers see them, and the other way round) and Redis database 15, each
test on a queue of its own.  Every worker started is stopped (SIGTERM, then SIGKILL) and the
test's queue keys and task results are deleted when the test ends.
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

from games import daily

ROOT = Path(__file__).resolve().parents[2]


# --- A fake solver (unit tests only) ---------------------------------------------------------


@dataclass
class FakeResult:
    verdict: str
    moves: list[dict[str, Any]] = field(default_factory=list)
    nodes: int = 10
    seconds: float = 0.01


class FakeSolver:
    """``verdicts(preset, attempt_index) -> verdict``: the n-th call for a preset gets the
    n-th verdict (the service solves candidates in order).  Records every call."""

    def __init__(self) -> None:
        self.script: dict[str, list[str]] = {}
        self.default = ["unwinnable", "unknown", "winnable"]
        self.calls: list[tuple[str, tuple[int, ...], float]] = []
        self.sleep = 0.0

    def __call__(self, rules, deck, time_budget):
        index = sum(1 for name, _, _ in self.calls if name == rules.name)
        self.calls.append((rules.name, tuple(deck), time_budget))
        script = self.script.get(rules.name, self.default)
        verdict = script[min(index, len(script) - 1)]
        if self.sleep:
            time.sleep(min(self.sleep, time_budget))
        if verdict == "unknown":
            time.sleep(0)  # budget "spent"
        moves = [{"type": "deal"}] * 7 if verdict == "winnable" else []
        return FakeResult(verdict, moves)

    def calls_for(self, preset: str) -> list[tuple[int, ...]]:
        return [deck for name, deck, _ in self.calls if name == preset]


@pytest.fixture
def fake_solver(monkeypatch) -> FakeSolver:
    solver = FakeSolver()
    monkeypatch.setattr(daily, "_solve", solver)
    return solver


# --- Real workers ----------------------------------------------------------------------------


@pytest.fixture
def non_eager():
    """Send tasks to the real broker from this process (the settings make them eager)."""
    from config.celery import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield app
    app.conf.task_always_eager = saved


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

    def start(self, name: str = "w", **env: str) -> subprocess.Popen:
        from django.conf import settings

        environ = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith("PYTEST") and key != "HAVEN_TESTING"
        }
        environ.update(
            {
                "DATABASE_URL": _database_url(),
                "REDIS_URL": settings.REDIS_URL,  # already database 15 under pytest
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
                "tests.daily.worker_app",
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
def workers(transactional_db, non_eager, tmp_path, settings) -> Iterator[Workers]:
    """Start real worker processes with ``workers.start(name, **env)``; send tasks to
    ``workers.queue``."""
    queue = f"haven-test-daily-{uuid.uuid4().hex[:10]}"
    pool = Workers(queue, tmp_path)
    try:
        yield pool
    finally:
        pool.stop_all()
        _delete_queue_keys(settings.REDIS_URL, queue)


def _delete_queue_keys(url: str, queue: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    keys = [queue, f"_kombu.binding.{queue}"]
    keys += [f"{queue}\x06\x16{priority}" for priority in range(10)]
    client.delete(*keys)


def wait_for(predicate: Callable[[], Any], timeout: float, what: str, interval: float = 0.25):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")
