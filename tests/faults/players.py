"""HTTP players for the fault tests, the tally of every answer they got, and the checks
that nothing was lost.

Players are authenticated with tokens minted here (the servers share this process's
``SECRET_KEY``), so no test pays for password hashing.
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis
import requests

from games.engine import PRESETS

from .servers import wait_until

REPORT_ENV = "HAVEN_FAULTS_REPORT"
RETRY_SECONDS = 60  # a player retries a dropped or 503 request this long


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
    move_seconds: list[tuple[float, float]] = field(default_factory=list)  # (start, took)
    writes_lost: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    fault_window: tuple[float, float] = (0.0, 0.0)  # monotonic start and end of the fault

    def record(self, response: requests.Response, expected: tuple[int, ...], took: float) -> None:
        with self.lock:
            self.requests += 1
            self.statuses[response.status_code] += 1
            self.max_seconds = max(self.max_seconds, took)
            if response.request.method == "POST" and response.request.path_url.endswith("/moves"):
                self.max_move_seconds = max(self.max_move_seconds, took)
                self.move_seconds.append((time.monotonic() - took, took))
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

    def median_move_seconds(self, between: tuple[float, float] | None = None) -> float:
        """The median POST …/moves time (of the moves started ``between`` two instants)."""
        low, high = between or (float("-inf"), float("inf"))
        ordered = sorted(took for start, took in self.move_seconds if low <= start <= high)
        return ordered[len(ordered) // 2] if ordered else 0.0

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
            "median_move_seconds": round(self.median_move_seconds(), 3),
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
        deadline = time.monotonic() + RETRY_SECONDS
        while time.monotonic() < deadline:
            base = self.bases[self._turn % len(self.bases)]
            self._turn += 1
            headers = {"Idempotency-Key": key} if key else {}
            started = time.monotonic()
            try:
                response = self.session.request(
                    method, base + path, json=body, headers=headers, timeout=15
                )
            except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError):
                # Refused, reset, or cut mid-body (a worker killed while it answered over a
                # kept-alive connection): a real client retries with the same key.
                self.tally.drop()
                time.sleep(0.05)
                continue
            self.tally.record(response, expected, time.monotonic() - started)
            if response.status_code == 503 or response.status_code >= 500:
                time.sleep(0.05)
                continue
            return response
        raise AssertionError(f"{method} {path}: no answer in {RETRY_SECONDS} s of retries")

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

    def dailies_then_practice(self, day: str, practice: str, plays: int, moves: int = 4) -> None:
        """A player's burst: each preset's daily deal of ``day`` (some moves, read back,
        resigned), then ``plays`` practice deals of ``practice`` (seeds 0, 1, …)."""
        for preset in PRESETS:
            play = self.some_moves(self.start(preset=preset, daily=day), moves)
            self.read(play)
            self.resign(play)
        for seed in range(plays):
            self.resign(self.some_moves(self.start(preset=practice, seed=seed), moves))


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
    from leaderboard import rebuilding

    problems = []
    for ref in rebuilding.all_boards():
        expected = {member: key for key, member, _, _ in rebuilding.pg_entries(ref)}
        try:
            found = dict(client.zrange(ref.redis_key, 0, -1, withscores=True))
        except redis.RedisError as error:
            return [str(error)]
        found.pop("~", None)
        actual = {member: int(score) for member, score in found.items()}
        if actual != expected:
            problems.append(f"{ref.redis_key}: redis {len(actual)} entries, pg {len(expected)}")
    return problems


def catch_up_until_boards_equal(
    client: redis.Redis, run_catch_up: Callable[[], object], timeout: float = 45.0
) -> None:
    """Run the catch-up (the every-minute beat task) every few seconds until the Redis
    boards equal PostgreSQL's: a board whose rebuild died with a killed process stays
    locked until its lock expires (the servers' LEADERBOARD_REBUILD_LOCK_SECONDS, 5 s
    here), then the catch-up rebuilds it."""
    deadline = time.monotonic() + timeout
    while True:
        run_catch_up()
        if not board_differences(client) or time.monotonic() > deadline:
            break
        time.sleep(2)
    wait_boards_equal(client, timeout=5)


def wait_boards_equal(client: redis.Redis, timeout: float = 20.0) -> None:
    try:
        wait_until(lambda: not board_differences(client), timeout, step=0.2, what="boards")
    except TimeoutError:
        from leaderboard.models import PendingPush

        pending = PendingPush.objects.count()
        markers = sorted(client.scan_iter(match="lb:epoch*")) + sorted(
            client.scan_iter(match="lb:lock:*")
        )
        raise AssertionError(
            f"{board_differences(client)}; outbox rows left: {pending}; markers: {markers}"
        ) from None
