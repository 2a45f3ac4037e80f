"""PostgreSQL failing under gunicorn: backends terminated mid-burst, or no server at all.

Either way the only 5xx is the documented ``503 database_unavailable`` (a problem document
with ``Retry-After``); a retry with the same ``Idempotency-Key`` gets the first answer if
the write had committed, so no acknowledged move is lost and none is applied twice.
"""

from __future__ import annotations

import threading
import time
import uuid

import psycopg
import pytest
import requests
from django.db import connection

from games import engine
from games.daily import utc_today
from leaderboard import catchup

from .players import (
    Player,
    Tally,
    is_documented_503,
    lost_writes,
    scoring_problems,
    token_for,
    wait_boards_equal,
)
from .servers import Gunicorn, free_port, server_env

pytestmark = [pytest.mark.faults, pytest.mark.postgres, pytest.mark.redis]

PLAYERS = 6
APP = "haven-faults-web"


def terminate_backends(
    stop: threading.Event, every: float, counter: list[int], seconds: float = 4.0
) -> None:
    """``pg_terminate_backend`` every connection of the web servers, every ``every`` s,
    for ``seconds`` (a burst of failures, then PostgreSQL is left alone)."""
    deadline = time.monotonic() + seconds
    db = connection.settings_dict
    with psycopg.connect(
        host=db.get("HOST") or "127.0.0.1",
        port=db.get("PORT") or 5432,
        user=db.get("USER") or "postgres",
        password=db.get("PASSWORD") or None,
        dbname=db["NAME"],
        autocommit=True,
    ) as conn:
        while not stop.is_set() and time.monotonic() < deadline:
            rows = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = %s AND pid <> pg_backend_pid()",
                [APP],
            ).fetchall()
            counter[0] += sum(1 for (done,) in rows if done)
            time.sleep(every)


def test_backends_terminated_mid_burst(web, own_redis, today_deals, make_users, settings):
    tally = Tally("PostgreSQL backends terminated (pg_terminate_backend every 0.2 s for 4 s)")
    players = [Player([web.base], user, tally) for user in make_users(PLAYERS)]
    today = utc_today().isoformat()
    stop_killing, errors, killed = threading.Event(), [], [0]

    def life(player: Player) -> None:
        try:
            player.dailies_then_practice(today, "seahaven", 3)
        except Exception as error:
            errors.append(f"{player.user.username}: {error!r}")

    killer = threading.Thread(
        target=terminate_backends, args=(stop_killing, 0.2, killed), daemon=True
    )
    threads = [threading.Thread(target=life, args=(p,), daemon=True) for p in players]
    killer.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    stop_killing.set()
    killer.join(10)
    assert not errors, errors
    assert killed[0] > 0

    # What the every-minute catch_up beat task does: score plays whose receiver lost its
    # connection, replay their pushes.
    settings.REDIS_URL = own_redis.url
    catchup.catch_up()
    lost = lost_writes(players)
    tally.writes_lost = len(lost)
    finished = [play_id for p in players for play_id in p.finished_ranked]
    scoring = scoring_problems(finished)
    wait_boards_equal(own_redis.client())
    tally.report(backends_terminated=killed[0], ranked_finished=len(finished))
    assert not lost, lost[:5]
    assert not scoring, scoring[:5]
    assert len(finished) == PLAYERS * len(engine.PRESETS)
    tally.assert_clean()


def test_postgres_unreachable_is_503_everywhere(transactional_db, own_redis, make_users):
    """No PostgreSQL at all: every endpoint that needs it answers the documented 503."""
    user = make_users(1)[0]
    nowhere = f"postgres://postgres@127.0.0.1:{free_port()}/haven?application_name={APP}"
    server = Gunicorn(server_env(own_redis.url, nowhere, GUNICORN_WORKERS="1"))
    tally = Tally("PostgreSQL unreachable (no server)")
    auth = {"Authorization": f"Bearer {token_for(user)}"}
    play = str(uuid.uuid4())
    credentials = {"username": "someone", "password": "a long passphrase 42"}
    calls = [
        ("GET", "/api/v1/presets", None, {}, (200,)),
        ("GET", "/api/v1/schema/", None, {}, (200,)),
        ("GET", "/api/v1/daily/today", None, {}, ()),
        ("POST", "/api/v1/auth/register", credentials, {}, ()),
        ("POST", "/api/v1/auth/token", credentials, {}, ()),
        ("POST", "/api/v1/auth/token/refresh", {"refresh": "x"}, {}, (401,)),
        ("GET", "/api/v1/plays", None, auth, ()),
        ("POST", "/api/v1/plays", {"preset": "seahaven", "seed": 1}, auth, ()),
        ("GET", f"/api/v1/plays/{play}", None, auth, ()),
        ("GET", f"/api/v1/plays/{play}/moves", None, auth, ()),
        ("POST", f"/api/v1/plays/{play}/moves", {"seq": 0, "move": {"type": "deal"}}, auth, ()),
        ("GET", "/api/v1/leaderboards/easthaven/daily/today", None, auth, ()),
        ("GET", "/api/v1/leaderboards/easthaven/weekly/current", None, auth, ()),
        ("GET", "/api/v1/leaderboards/easthaven/all-time", None, auth, ()),
        ("GET", "/api/v1/players/me", None, auth, ()),
        ("GET", f"/api/v1/players/{user.username}", None, auth, ()),
        ("GET", "/api/v1/groups", None, auth, ()),
        ("POST", "/api/v1/groups", {"name": "friends"}, auth, ()),
        ("POST", "/api/v1/groups/join", {"code": "ABCDEFGH"}, auth, ()),
        ("GET", "/api/v1/groups/1", None, auth, ()),
        ("POST", "/api/v1/groups/1/leave", None, auth, ()),
        ("GET", "/admin/", None, {}, (302,)),
        ("GET", "/api/v1/no-such-thing", None, {}, (404,)),
    ]
    try:
        for method, path, body, headers, expected in calls:
            started = time.monotonic()
            response = requests.request(
                method,
                server.base + path,
                json=body,
                headers=headers,
                timeout=15,
                allow_redirects=False,
            )
            tally.record(response, expected, time.monotonic() - started)
            if response.status_code == 503:
                assert is_documented_503(response), (path, response.text[:300])
        health = server.health()
        assert health.status_code == 503
        assert health.json()["database"] == "unavailable"
        assert int(health.headers["Retry-After"]) > 0
    finally:
        server.stop()
    tally.report()
    assert tally.documented_503 >= 15, tally.statuses
    tally.assert_clean()
