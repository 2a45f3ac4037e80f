"""Real processes for the fault tests: a Redis of the test's own, gunicorn with the
repository's ``gunicorn.conf.py`` and Celery workers on the test database.

Every server listens on a free port chosen at run time and is killed when its test ends.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import redis
import requests

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(predicate, timeout: float, step: float = 0.05, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    last_error: BaseException | None = None
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except Exception as error:  # still starting
            last_error = error
        time.sleep(step)
    raise TimeoutError(f"{what} not reached within {timeout} s (last error: {last_error})")


# --- Redis -----------------------------------------------------------------------------------


class RedisServer:
    """``redis-server`` on a free port, without persistence; kill, hang, resume, flush."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=2, decode_responses=True)

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(lambda: self.client().ping(), 10, what="redis-server up")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(5)

    def hang(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGCONT)

    def flush(self) -> None:
        self.client().flushall()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)
            self.process.kill()
            self.process.wait(5)


# --- Django servers --------------------------------------------------------------------------


def database_url(application_name: str) -> str:
    """The test database (pytest-django's ``test_…``) as a URL, tagged so that a test can
    terminate exactly the servers' backends."""
    from django.db import connection

    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return (
        f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"
        f"?application_name={application_name}"
    )


def server_env(redis_url: str, db_url: str, **extra: str) -> dict[str, str]:
    from django.conf import settings

    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTEST", "DJANGO", "HAVEN", "GUNICORN", "THROTTLE"))
    }
    env.update(
        DATABASE_URL=db_url,
        REDIS_URL=redis_url,
        SECRET_KEY=settings.SECRET_KEY,
        DAILY_SECRET=settings.DAILY_SECRET,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        THROTTLE_PLAYS="100000/min",
        THROTTLE_MOVES="100000/min",
        THROTTLE_AUTH="100000/min",
        GUNICORN_WORKERS="2",
        GUNICORN_ACCESSLOG="",
        LOG_LEVEL="WARNING",
        # A rebuild lock left by a killed worker expires within seconds (30 in service).
        LEADERBOARD_REBUILD_LOCK_SECONDS="5",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def children(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            found.append(int(entry.name))
    return found


class Server:
    """A process started from a command line in the repository, stopped when done."""

    def __init__(self, command: list[str], env: dict[str, str], log_name: str) -> None:
        self.log = open(  # noqa: SIM115 - kept open for the process's life
            Path(os.environ.get("TMPDIR", "/tmp")) / f"haven-{log_name}-{uuid.uuid4().hex}.log",
            "w+",
        )
        executable = command[0] if "/" in command[0] else str(BIN / command[0])
        self.process = subprocess.Popen(
            [executable, *command[1:]],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def kill(self) -> None:
        """SIGKILL the whole process group (a crash, not a shutdown)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(10)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                self.kill()
        self.log.close()


class Gunicorn(Server):
    """gunicorn with the repository's gunicorn.conf.py on a free port."""

    def __init__(self, env: dict[str, str], command: list[str] | None = None) -> None:
        self.port = free_port()
        env = {**env, "PORT": str(self.port)}
        super().__init__(
            command or ["gunicorn", "-c", "gunicorn.conf.py", "config.wsgi:application"],
            env,
            "gunicorn",
        )
        self.base = f"http://127.0.0.1:{self.port}"
        try:
            wait_until(self._answers, 40, step=0.1, what="gunicorn up")
        except TimeoutError:
            output = self.output()
            self.stop()
            raise AssertionError(f"gunicorn did not start:\n{output[-3000:]}") from None

    def _answers(self) -> bool:
        assert self.process.poll() is None, self.output()[-3000:]
        requests.get(f"{self.base}/api/v1/presets", timeout=2)
        return len(self.workers()) >= 1

    def workers(self) -> list[int]:
        return children(self.process.pid)

    def health(self) -> requests.Response:
        return requests.get(f"{self.base}/api/v1/health", timeout=5)
