"""Read replicas against a real streaming standby (config.replicas).

The test starts a PostgreSQL primary of its own on loopback, migrates it, clones a
standby with ``pg_basebackup -R`` (streaming replication) and serves the API with gunicorn
on both (``DATABASE_URL`` the primary, ``DATABASE_REPLICA_URL`` the standby). With the
standby's replay paused (a replica a whole play behind):

* ``GET /plays`` (replica-safe) answers from the standby: the new play is not listed yet;
* ``GET /plays/{id}``, the move path and a just-finished play's log read the primary;

and with the standby stopped every read still answers 200 from the primary.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
import requests

from tests.faults.servers import ROOT, Gunicorn, RedisServer, server_env

from .clusters import Cluster, new_root, port_near, wait_replayed

pytestmark = [pytest.mark.topology, pytest.mark.postgres]

API = "/api/v1"


@pytest.fixture(scope="module")
def clusters():
    root = new_root()
    primary = Cluster(root, "primary", port_near(55432))
    standby = Cluster(root, "standby", port_near(55433))
    try:
        primary.init()
        primary.start()
        with primary.connect() as pg:
            pg.execute("CREATE DATABASE haven")
        env = {**os.environ, "DATABASE_URL": f"{primary.url}/haven", "HAVEN_LOCAL": "1"}
        env.pop("REDIS_URL", None)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0", "--noinput"],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=120,
        )
        standby.clone_from(primary)
        standby.start()
        wait_replayed(primary, standby, "haven")
        yield primary, standby
    finally:
        standby.stop("immediate")
        primary.stop("immediate")
        subprocess.run(["rm", "-rf", str(root)], check=False)


@pytest.fixture
def web(clusters):
    primary, standby = clusters
    redis_server = RedisServer()
    env = server_env(
        redis_server.url,
        f"{primary.url}/haven",
        DATABASE_REPLICA_URL=f"{standby.url}/haven",
        REPLICA_HEALTH_SECONDS="1",
        GUNICORN_WORKERS="1",
    )
    server = Gunicorn(env)
    yield server
    server.stop()
    redis_server.stop()


def player(web: Gunicorn, name: str) -> requests.Session:
    session = requests.Session()
    credentials = {"username": name, "password": "a long enough password 1"}
    assert session.post(f"{web.base}{API}/auth/register", json=credentials, timeout=10).ok
    token = session.post(f"{web.base}{API}/auth/token", json=credentials, timeout=10).json()
    session.headers["Authorization"] = f"Bearer {token['access']}"
    return session


def start(session: requests.Session, web: Gunicorn, seed: int) -> str:
    answer = session.post(
        f"{web.base}{API}/plays", json={"preset": "westcliff", "seed": seed}, timeout=10
    )
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def history(session: requests.Session, web: Gunicorn) -> str:
    answer = session.get(f"{web.base}{API}/plays", timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.text


def test_replica_safe_reads_use_the_standby_and_the_rest_the_primary(clusters, web) -> None:
    primary, standby = clusters
    alice = player(web, "alice")
    first = start(alice, web, 7)
    wait_replayed(primary, standby, "haven")
    assert first in history(alice, web)
    with standby.connect("haven") as pg:
        pg.execute("SELECT pg_wal_replay_pause()")
    try:
        second = start(alice, web, 8)
        # Read-your-writes: the play, then a move on it, from the primary.
        assert alice.get(f"{web.base}{API}/plays/{second}", timeout=10).status_code == 200
        resign = alice.post(
            f"{web.base}{API}/plays/{second}/moves",
            json={"seq": 0, "move": {"type": "resign"}},
            timeout=10,
        )
        assert resign.status_code == 200, resign.text
        # The history comes from the paused standby: the second play is not there yet.
        listed = history(alice, web)
        assert first in listed and second not in listed
        # The finished play's log: the standby has none of its rows, so the primary answers.
        log = alice.get(f"{web.base}{API}/plays/{second}/moves", timeout=10)
        assert log.status_code == 200 and len(log.json()["moves"]) == 1
    finally:
        with standby.connect("haven") as pg:
            pg.execute("SELECT pg_wal_replay_resume()")
    wait_replayed(primary, standby, "haven")
    assert second in history(alice, web)


def test_a_dead_replica_falls_back_to_the_primary(clusters, web) -> None:
    primary, standby = clusters
    bob = player(web, "bob")
    play = start(bob, web, 9)
    wait_replayed(primary, standby, "haven")
    assert play in history(bob, web)  # the worker now holds a connection to the standby
    standby.stop("immediate")
    try:
        began = time.monotonic()
        for _ in range(5):
            assert play in history(bob, web)  # a broken connection, then a refused one
            assert bob.get(f"{web.base}{API}/daily/2026-01-01", timeout=10).status_code in (
                200,
                404,
            )
        assert time.monotonic() - began < 15
        second = start(bob, web, 10)
        assert second in history(bob, web)  # from the primary: the standby is down
    finally:
        standby.start()
