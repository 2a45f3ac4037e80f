"""`make run` in a subprocess, on a free port and a temporary SQLite file (no DATABASE_URL,
no REDIS_URL: the embedded default), with today's daily deals stored beforehand so that
`make run`'s `prepare_daily` keeps them and no solver runs.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 300  # make run may reinstall the project first (a fresh CI machine)

#: A player whose ranked play finished before the server started, and whose score was lost
#: (written as a crash between the play's commit and its score would leave it).
LOST_BEFORE_START = "lost-before-start"

# Today's deals: made-up verdicts (tests.factories.store_daily), and Seahaven's deck is the
# one that 52 foundation moves win, so every player can win a ranked daily in one batch.
STORE_DEALS = f"""
from games.daily import utc_today
from games.models import Deal
from tests.factories import make_user, seahaven_win_deck, store_daily
from tests.leaderboard.helpers import ranked_play

deals = store_daily(utc_today(), seed_base=7000)
Deal.objects.filter(pk=deals["seahaven"].pk).update(deck=seahaven_win_deck())
ranked_play(make_user("{LOST_BEFORE_START}"), day=utc_today(), preset="easthaven", cards=7)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# gunicorn's and the leaderboard's knobs, and the outer make's flags (a jobserver).
DROPPED_PREFIXES = ("GUNICORN_", "PYTEST_", "LEADERBOARD_", "SQLITE_", "MAKE", "MFLAGS")


def embedded_env(sqlite_path: Path, **extra: str) -> dict[str, str]:
    """This environment without any service URL, Django test flag or gunicorn override."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "HAVEN_TESTING", "DJANGO_SETTINGS_MODULE")
        and not key.startswith(DROPPED_PREFIXES)
    }
    # FAIRPLAY_ANALYSE=0: the club's players are scripts at machine speed, which the
    # detectors rightly flag as bots and hide from the boards this test reads.
    env.update(SQLITE_PATH=str(sqlite_path), GUNICORN_ACCESSLOG="", FAIRPLAY_ANALYSE="0", **extra)
    return env


class EmbeddedServer:
    """`make run HOST=127.0.0.1 PORT=<free>` in its own process group."""

    def __init__(self, sqlite_path: Path, log_path: Path) -> None:
        self.sqlite_path = sqlite_path
        self.env = embedded_env(sqlite_path)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None

    def prepare(self) -> None:
        """Migrate the empty database and store today's deals, as a test would."""
        python = sys.executable
        for command in (
            [python, "manage.py", "migrate", "--noinput"],
            [python, "manage.py", "shell", "-c", STORE_DEALS],
        ):
            subprocess.run(
                command, cwd=ROOT, env=self.env, check=True, capture_output=True, timeout=300
            )

    def start(self) -> None:
        log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            ["make", "-s", "run", "HOST=127.0.0.1", f"PORT={self.port}"],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # make, gunicorn's arbiter and its worker: one group
        )
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                if requests.get(f"{self.base}/api/v1/health", timeout=5).status_code == 200:
                    return
            except requests.RequestException:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"make run did not start:\n{self.output()[-3000:]}")
            time.sleep(0.5)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.process = None
