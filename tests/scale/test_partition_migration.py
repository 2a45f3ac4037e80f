"""Migration 0007 rehearsed on a database with rows, while a writer keeps appending moves.

A scratch database is migrated to games 0006 (the plain ``games_move``), filled with 20,000
move rows of UUIDv4 plays (a few with ids inside the new months' range), then migrated to
the end in a subprocess while a thread appends a move every few milliseconds through the
move path's SQL. Afterwards: every row is there (in ``games_move_legacy`` or its month),
the writer never failed, ``(play_id, seq)`` is still unique and a new UUIDv7 play's log
goes to its month's partition.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import threading
import time
import uuid

import psycopg
import pytest

from games.ids import uuid7
from games.movelog import _PG_WRITE
from games.partitions import Month

pytestmark = [pytest.mark.postgres]

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def server_url() -> str:
    return os.environ["DATABASE_URL"].rsplit("/", 1)[0]


def migrate(url: str, *target: str) -> None:
    env = {**os.environ, "DATABASE_URL": url, "HAVEN_LOCAL": "1"}
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0", "--noinput", *target],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )


@pytest.fixture
def scratch_url():
    name = f"haven_rehearse_{os.getpid()}"
    with psycopg.connect(f"{server_url()}/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name}")
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield f"{server_url()}/{name}"
    finally:
        with psycopg.connect(f"{server_url()}/postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def seed(pg) -> tuple[int, uuid.UUID, list[uuid.UUID]]:
    user = pg.execute(
        "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, "
        "email, is_staff, is_active, date_joined) "
        "VALUES ('!', false, 'old', '', '', '', false, true, now()) RETURNING id"
    ).fetchone()[0]
    deal = uuid.uuid4()
    pg.execute(
        "INSERT INTO games_deal (id, preset, options, deck, source, verdict, solution, "
        "attempts, created_at) VALUES (%s, 'westcliff', '{}', '[]', 'seed', '', '[]', '[]', "
        "now())",
        [deal],
    )
    low, _ = Month.of(dt.datetime.now(dt.UTC).date()).bounds
    strays = [uuid.UUID(f"{str(low)[:12]}{n}-4abc-9abc-def01234567{n}") for n in range(1, 4)]
    plays = [uuid.uuid4() for _ in range(997)] + strays
    for play in plays:
        pg.execute(
            "INSERT INTO games_play (id, player_id, deal_id, preset, options, ranked, state, "
            "seq, status, started_at, foundation_cards, moves_count, undos) VALUES "
            "(%s, %s, %s, 'westcliff', '{}', false, '{}', 20, 'won', now(), 0, 20, 0)",
            [play, user, deal],
        )
    pg.execute(
        "INSERT INTO games_move (play_id, seq, move, text, reveals_hidden, state_hash, "
        "created_at) SELECT p, s, '{\"type\": \"deal\"}', 'd', false, '', now() "
        "FROM unnest(%s::uuid[]) AS p, generate_series(1, 20) AS s",
        [plays],
    )
    return user, deal, strays


def new_play(pg, user: int, deal: uuid.UUID, play: uuid.UUID) -> None:
    pg.execute(
        "INSERT INTO games_play (id, player_id, deal_id, preset, options, ranked, state, "
        "seq, status, started_at, foundation_cards, moves_count, undos) VALUES "
        "(%s, %s, %s, 'westcliff', '{}', false, '{}', 0, 'playing', now(), 0, 0, 0)",
        [play, user, deal],
    )


def append(pg, play: uuid.UUID, seq: int) -> None:
    log = f'[[{seq}, {{"type": "deal"}}, "d", false, ""]]'
    update = [seq, "{}", 0, seq, 0, "playing", None, None, play]
    pg.execute(_PG_WRITE, [play, dt.datetime.now(dt.UTC), log, *update])


def test_conversion_keeps_every_row_and_the_writers_going(scratch_url) -> None:
    migrate(scratch_url, "auth")
    migrate(scratch_url, "games", "0006")
    with psycopg.connect(scratch_url, autocommit=True) as pg:
        user, deal, strays = seed(pg)
        live = uuid.uuid4()
        while str(live) < str(Month(2026, 1).bounds[0]):  # a legacy play outside the months
            live = uuid.uuid4()
        new_play(pg, user, deal, live)

    written, errors, stop = [0], [], threading.Event()

    def writer() -> None:
        with psycopg.connect(scratch_url, autocommit=True) as pg:
            while not stop.is_set():
                try:
                    append(pg, live, written[0] + 1)
                    written[0] += 1
                except psycopg.Error as error:
                    errors.append(repr(error))
                time.sleep(0.005)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        migrate(scratch_url)
    finally:
        stop.set()
        thread.join(10)

    assert errors == []
    assert written[0] > 10  # the writer wrote while the conversion ran
    with psycopg.connect(scratch_url, autocommit=True) as pg:
        kind = pg.execute("SELECT relkind FROM pg_class WHERE relname = 'games_move'").fetchone()
        assert kind == ("p",)
        total = pg.execute("SELECT count(*) FROM games_move").fetchone()[0]
        assert total == 20_000 + written[0]
        homes = dict(
            pg.execute(
                "SELECT tableoid::regclass::text, count(*) FROM games_move GROUP BY 1"
            ).fetchall()
        )
        this_month = Month.of(dt.datetime.now(dt.UTC).date()).name
        assert homes[this_month] == 60  # the three strays' logs moved to their month
        assert homes["games_move_legacy"] == 20_000 - 60 + written[0]
        assert {
            row[0]
            for row in pg.execute(
                "SELECT DISTINCT play_id FROM games_move WHERE tableoid = %s::regclass",
                [this_month],
            )
        } == set(strays)
        with pytest.raises(psycopg.errors.UniqueViolation):
            pg.execute(
                "INSERT INTO games_move (play_id, seq, move, text, reveals_hidden, "
                "state_hash, created_at) VALUES (%s, 1, '{}', 'x', false, '', now())",
                [strays[0]],
            )
        fresh = uuid7()
        new_play(pg, user, deal, fresh)
        append(pg, fresh, 1)
        append(pg, live, written[0] + 1)
        place = pg.execute(
            "SELECT tableoid::regclass::text FROM games_move WHERE play_id = %s", [fresh]
        ).fetchone()[0]
        assert place == this_month
        seq = pg.execute("SELECT seq FROM games_play WHERE id = %s", [live]).fetchone()[0]
        assert seq == written[0] + 1
