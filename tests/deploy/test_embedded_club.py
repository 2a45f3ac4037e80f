"""`make run` holds a small club at once (issue 46): on the embedded default (SQLite, no
Redis, tasks in-process) 16 players register at the same moment, then play today's ranked
dailies and practice deals to the end at the same moment, over plain HTTP. No answer is a
5xx (no 503 "database is locked" either), 10 simultaneous moves on one play give one 200
and nine 409 ``stale_sequence``, and every finished ranked play is on its boards and in its
owner's profile; so is one whose score was lost before the server started (the sweeper's
work: docs/embedded-mode.md)."""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from games.daily import utc_today
from games.engine import PRESETS
from tests.factories import foundation_source

from .embedded import LOST_BEFORE_START, EmbeddedServer

PLAYERS = 16
PRACTICE_PLAYS = 2
SIMULTANEOUS_MOVES = 10
TIMEOUT = 120  # seconds per request: a loaded CI machine is slow, never an error


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("embedded")
    embedded = EmbeddedServer(folder / "haven.sqlite3", folder / "make-run.log")
    embedded.prepare()
    embedded.start()
    yield embedded
    embedded.stop()


class Club:
    """The answers every player got, counted by status, and the 5xx among them."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.statuses: Counter[int] = Counter()
        self.errors: list[str] = []
        self.lock = threading.Lock()

    def call(self, session: requests.Session, method: str, path: str, **kw: Any) -> Any:
        response = session.request(method, self.base + path, timeout=TIMEOUT, **kw)
        with self.lock:
            self.statuses[response.status_code] += 1
            if response.status_code >= 500:
                self.errors.append(f"{response.status_code} {method} {path}: {response.text}")
        return response

    def all_at_once(self, count: int, job) -> list[Any]:
        """Run ``job(n)`` for n < count in as many threads, released together."""
        barrier = threading.Barrier(count)

        def run(n: int) -> Any:
            barrier.wait()
            return job(n)

        with ThreadPoolExecutor(count) as pool:
            return list(pool.map(run, range(count)))


def register(club: Club, n: int) -> requests.Session:
    session = requests.Session()
    name = f"club{n}-{uuid.uuid4().hex[:6]}"
    body = {"username": name, "password": f"a long pass {uuid.uuid4().hex}"}
    response = club.call(session, "POST", "/api/v1/auth/register", json=body)
    assert response.status_code == 201, response.text
    session.headers["Authorization"] = f"Bearer {response.json()['access']}"
    session.username = name  # type: ignore[attr-defined]
    return session


def play_to_the_end(club: Club, session: requests.Session, **start: Any) -> dict[str, Any]:
    """Start a play, make two moves, then resign (Seahaven's daily: win it in one batch)."""
    response = club.call(session, "POST", "/api/v1/plays", json=start)
    assert response.status_code == 201, response.text
    play = response.json()
    path = f"/api/v1/plays/{play['id']}/moves"
    if start.get("daily") and start["preset"] == "seahaven":
        win = [{"type": "move", "from": foundation_source(k), "to": "f"} for k in range(52)]
        moves = [{"seq": 0, "moves": win}]
    else:
        moves = []
        for _ in range(2):
            choices = [m for m in play["legal_moves"] if m["type"] not in ("undo", "resign")]
            if not choices:
                break
            answer = club.call(session, "POST", path, json={"seq": play["seq"], "move": choices[0]})
            assert answer.status_code == 200, answer.text
            play = answer.json()
        moves = [{"seq": play["seq"], "move": {"type": "resign"}}]
    for body in moves:
        answer = club.call(session, "POST", path, json=body)
        assert answer.status_code == 200, answer.text
        play = answer.json()
    assert play["status"] in ("won", "resigned"), play["status"]
    return play


def play_everything(club: Club, session: requests.Session) -> list[dict[str, Any]]:
    """Today's ranked daily of every preset, then practice deals; the plays as they ended."""
    day = utc_today().isoformat()
    finished = [play_to_the_end(club, session, preset=preset, daily=day) for preset in PRESETS]
    for seed in range(PRACTICE_PLAYS):
        finished.append(play_to_the_end(club, session, preset="easthaven", seed=seed))
    return finished


def test_make_run_holds_a_club_and_loses_no_score(server):
    club = Club(server.base)
    sessions = club.all_at_once(PLAYERS, lambda n: register(club, n))
    results = club.all_at_once(PLAYERS, lambda n: play_everything(club, sessions[n]))
    stale = simultaneous_moves(club, sessions[0])
    assert club.errors == [], club.errors[:5]
    assert stale == {200: 1, 409: SIMULTANEOUS_MOVES - 1}
    missing = wait_for_boards(club, sessions, results)
    assert missing == [], missing[:10]
    assert "database is locked" not in server.output()
    assert "sweeping for unscored plays" in server.output()  # the worker's sweeper runs
    with sqlite3.connect(server.sqlite_path) as database:
        assert database.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def simultaneous_moves(club: Club, session: requests.Session) -> Counter[int]:
    """The same move, with the same seq, ten times at once: one lands, nine are stale."""
    play = club.call(session, "POST", "/api/v1/plays", json={"preset": "westcliff", "seed": 9})
    play = play.json()
    move = next(m for m in play["legal_moves"] if m["type"] not in ("undo", "resign"))
    path = f"/api/v1/plays/{play['id']}/moves"

    def send(_: int) -> int:
        answer = club.call(session, "POST", path, json={"seq": play["seq"], "move": move})
        if answer.status_code == 409:
            assert answer.json()["code"] == "stale_sequence", answer.text
        return int(answer.status_code)

    return Counter(club.all_at_once(SIMULTANEOUS_MOVES, send))


def wait_for_boards(club: Club, sessions, results, seconds: float = 60.0) -> list[str]:
    """What is missing from the boards and profiles; asked again (the sweeper retries a
    failed score write within seconds) until nothing is or the time is up."""
    deadline = time.monotonic() + seconds
    while True:
        missing = missing_entries(club, sessions, results)
        if not missing or time.monotonic() > deadline:
            return missing
        time.sleep(2)


def missing_entries(club: Club, sessions, results) -> list[str]:
    day = utc_today().isoformat()
    anonymous = requests.Session()
    missing = []
    for preset in PRESETS:
        page = club.call(
            anonymous,
            "GET",
            f"/api/v1/leaderboards/{preset}/daily/{day}",
            params={"page_size": 100},
        ).json()
        entries = {entry["username"]: entry for entry in page["results"]}
        if preset == "easthaven" and LOST_BEFORE_START not in entries:
            missing.append(f"{LOST_BEFORE_START}'s play, scored by no sweep")
        for session, plays in zip(sessions, results, strict=True):
            play = next(p for p in plays if p.get("daily") and p["preset"] == preset)
            entry = entries.get(session.username)
            expected = (play["status"] == "won", play["score"]["foundation_cards"])
            if entry is None or (entry["won"], entry["foundation_cards"]) != expected:
                missing.append(f"{session.username} {preset}: {entry}")
    for session in sessions:
        me = club.call(session, "GET", "/api/v1/players/me").json()
        if (me["plays"], me["wins"]) != (len(PRESETS), 1):
            missing.append(f"{session.username} profile: {me['plays']} plays, {me['wins']} wins")
        mine = club.call(
            session, "GET", "/api/v1/leaderboards/seahaven/all-time", params={"around": "me"}
        ).json()
        if session.username not in {entry["username"] for entry in mine["results"]}:
            missing.append(f"{session.username} not around=me on seahaven all-time")
    return missing
