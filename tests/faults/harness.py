"""Real processes for the fault tests: a Redis of the test's own, gunicorn with the
repository's ``gunicorn.conf.py``, Celery workers, and HTTP players that count every answer.

Every server listens on a free port chosen at run time and is killed when its test ends.
Players are authenticated with tokens minted here (the servers share this process's
``SECRET_KEY``), so no test pays for password hashing.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
import requests

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
REPORT_ENV = "HAVEN_FAULTS_REPORT"


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


# --- Players ---------------------------------------------------------------------------------


def token_for(user) -> str:
    from rest_framework_simplejwt.tokens import RefreshToken

    return str(RefreshToken.for_user(user).access_token)


@dataclass
class Tally:
    """Every answer the players got during one fault."""

    name: str
    requests: int = 0
    server_errors: int = 0  # 5xx other than the documented 503
    documented_503: int = 0
    wrong: int = 0  # a status the request should not get
    dropped: int = 0  # connection closed without an answer (a killed worker): retried
    statuses: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    max_seconds: float = 0.0
    max_move_seconds: float = 0.0  # POST …/moves: no password hashing in the way
    writes_lost: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, response: requests.Response, expected: tuple[int, ...], took: float) -> None:
        with self.lock:
            self.requests += 1
            self.statuses[response.status_code] += 1
            self.max_seconds = max(self.max_seconds, took)
            if response.request.method == "POST" and response.request.path_url.endswith("/moves"):
                self.max_move_seconds = max(self.max_move_seconds, took)
            status = response.status_code
            if status == 503 and is_documented_503(response):
                self.documented_503 += 1
            elif status >= 500:
                self.server_errors += 1
                self.failures.append(
                    f"{status} {response.request.method} "
                    f"{response.request.path_url}: {response.text[:300]}"
                )
            elif status not in expected:
                self.wrong += 1
                self.failures.append(
                    f"{status} (expected {expected}) {response.request.method} "
                    f"{response.request.path_url}: {response.text[:300]}"
                )

    def drop(self) -> None:
        with self.lock:
            self.dropped += 1

    def assert_clean(self) -> None:
        assert self.server_errors == 0, self.failures[:5]
        assert self.wrong == 0, self.failures[:5]
        assert self.writes_lost == 0
        assert self.requests > 0

    def report(self, **extra: Any) -> None:
        """Append this fault's row to ``$HAVEN_FAULTS_REPORT`` (bench/faults_table.py)."""
        path = os.environ.get(REPORT_ENV)
        if not path:
            return
        row = {
            "fault": self.name,
            "requests": self.requests,
            "server_errors": self.server_errors,
            "documented_503": self.documented_503,
            "wrong": self.wrong,
            "dropped": self.dropped,
            "writes_lost": self.writes_lost,
            "max_seconds": round(self.max_seconds, 3),
            "max_move_seconds": round(self.max_move_seconds, 3),
            **extra,
        }
        with open(path, "a") as out:
            out.write(json.dumps(row) + "\n")


def is_documented_503(response: requests.Response) -> bool:
    try:
        body = response.json()
    except ValueError:
        return False
    return (
        response.headers.get("Content-Type", "").startswith("application/problem+json")
        and body.get("code") == "database_unavailable"
        and int(response.headers.get("Retry-After", "0")) > 0
    )


class Player:
    """One client: plays through the API, retrying a dropped or 503 request with the same
    ``Idempotency-Key``, and remembers how many moves the server acknowledged per play."""

    def __init__(self, bases: list[str], user, tally: Tally) -> None:
        self.bases = bases
        self.user = user
        self.tally = tally
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token_for(user)}"
        self.acknowledged: dict[str, int] = {}  # play id -> moves acknowledged
        self.finished_ranked: list[str] = []
        self._turn = 0

    def call(
        self, method: str, path: str, body: Any = None, expected: tuple[int, ...] = (200, 201)
    ) -> requests.Response:
        key = uuid.uuid4().hex if method == "POST" else None
        for _ in range(200):
            base = self.bases[self._turn % len(self.bases)]
            self._turn += 1
            headers = {"Idempotency-Key": key} if key else {}
            started = time.monotonic()
            try:
                response = self.session.request(
                    method, base + path, json=body, headers=headers, timeout=15
                )
            except requests.ConnectionError:
                self.tally.drop()
                time.sleep(0.05)
                continue
            self.tally.record(response, expected, time.monotonic() - started)
            if response.status_code == 503 or response.status_code >= 500:
                time.sleep(0.05)
                continue
            return response
        raise AssertionError(f"{method} {path}: no answer after 200 tries")

    def start(self, **body: Any) -> dict[str, Any]:
        response = self.call("POST", "/api/v1/plays", body, expected=(201,))
        play = response.json()
        self.acknowledged[play["id"]] = 0
        return play

    def move(self, play: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
        body = {"seq": play["seq"], "move": move}
        response = self.call("POST", f"/api/v1/plays/{play['id']}/moves", body, expected=(200,))
        self.acknowledged[play["id"]] += 1
        return response.json()

    def some_moves(self, play: dict[str, Any], count: int) -> dict[str, Any]:
        for _ in range(count):
            choices = [m for m in play.get("legal_moves", []) if m["type"] != "undo"]
            if not choices or play["status"] != "playing":
                break
            play = self.move(play, choices[0])
        return play

    def resign(self, play: dict[str, Any]) -> dict[str, Any]:
        if play["status"] == "playing":
            play = self.move(play, {"type": "resign"})
        if play.get("ranked", play.get("daily")):
            self.finished_ranked.append(play["id"])
        return play

    def read(self, play: dict[str, Any]) -> None:
        self.call("GET", f"/api/v1/plays/{play['id']}", expected=(200,))
        self.call("GET", f"/api/v1/plays/{play['id']}/moves", expected=(200,))


# --- Checks ----------------------------------------------------------------------------------


def lost_writes(players: list[Player]) -> list[str]:
    """Plays whose log is not contiguous, whose seq is not its log length, or which lack a
    move the server acknowledged."""
    from games.models import Play

    problems = []
    for player in players:
        for play_id, acknowledged in player.acknowledged.items():
            play = Play.objects.get(pk=play_id)
            seqs = list(play.moves.order_by("seq").values_list("seq", flat=True))
            if seqs != list(range(len(seqs))):
                problems.append(f"{play_id}: log not contiguous {seqs}")
            if play.seq != len(seqs):
                problems.append(f"{play_id}: seq {play.seq} != log length {len(seqs)}")
            if len(seqs) != acknowledged:
                problems.append(f"{play_id}: {acknowledged} acknowledged, {len(seqs)} logged")
    return problems


def scoring_problems(play_ids: list[str]) -> list[str]:
    """Each finished ranked play has exactly one score (its primary key is the play)."""
    from games.models import Play
    from leaderboard.models import Score

    problems = []
    ranked = Play.objects.filter(ranked=True).exclude(status="playing")
    expected = {str(pk) for pk in ranked.values_list("pk", flat=True)}
    missing_client = set(play_ids) - expected
    if missing_client:
        problems.append(f"plays the clients finished are not finished: {missing_client}")
    scored = Counter(str(pk) for pk in Score.objects.values_list("play_id", flat=True))
    for play_id in expected:
        if scored[play_id] != 1:
            problems.append(f"{play_id} scored {scored[play_id]} times")
    return problems


def board_differences(client: redis.Redis) -> list[str]:
    """Every Redis board of a scored board/period equals PostgreSQL's (members and keys)."""
    from leaderboard import boards

    problems = []
    for ref in boards.all_boards():
        expected = {member: key for key, member, _, _ in boards.pg_entries(ref)}
        try:
            found = dict(client.zrange(ref.redis_key, 0, -1, withscores=True))
        except redis.RedisError as error:
            return [str(error)]
        found.pop("~", None)
        actual = {member: int(score) for member, score in found.items()}
        if actual != expected:
            problems.append(f"{ref.redis_key}: redis {len(actual)} entries, pg {len(expected)}")
    return problems


def wait_boards_equal(client: redis.Redis, timeout: float = 20.0) -> None:
    try:
        wait_until(lambda: not board_differences(client), timeout, step=0.2, what="boards")
    except TimeoutError:
        raise AssertionError(board_differences(client)) from None
