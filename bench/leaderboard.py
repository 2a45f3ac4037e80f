"""Benchmark: one daily board of 10⁶ scores, read through Redis and through PostgreSQL.

    .venv/bin/python bench/leaderboard.py [--scores 1000000] [--samples 2000] [--sql-samples 200]

It creates a scratch database next to ``DATABASE_URL``'s (default
``postgres://postgres@127.0.0.1:5432/postgres``), migrates it, COPYs the players and scores
in, builds the Redis board (``REDIS_URL``, default ``redis://127.0.0.1:6379/13``, under a
key prefix of its own), then times, in the same run:

* a page: 50 entries after a cursor taken at a uniformly random place on the board;
* ``around=me``: a uniformly random player with 5 neighbours either side;

each through :func:`leaderboard.boards.read` with Redis (Lua call for ranks and members, then
the rows' details from PostgreSQL by primary key) and without it (keyset query plus a
``COUNT`` of the rows before, the live day's PostgreSQL path). The scratch database and
the Redis key are dropped at the end, whatever happens. The play foreign key is dropped in
the scratch database only, so no 10⁶ ``Play`` rows are needed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import io
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from procstat import percentile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DAY = dt.date(2026, 11, 29)


def with_db(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scores", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=2000, help="timed reads through Redis")
    parser.add_argument("--sql-samples", type=int, default=200, help="timed reads through SQL")
    parser.add_argument("--profile", action="store_true", help="cProfile the Redis page reads")
    args = parser.parse_args()

    import psycopg

    base_url = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
    scratch = f"haven_bench_lb_{os.getpid()}"
    admin_url = with_db(base_url, "postgres")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{scratch}"')
    os.environ["DATABASE_URL"] = with_db(base_url, scratch)
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/13")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # A developer's machine: make run's secrets (docs/secrets-and-names.md).
    os.environ.setdefault("HAVEN_LOCAL", "1")
    try:
        run(args, scratch)
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        print(f"dropped scratch database {scratch}")


def run(args: argparse.Namespace, scratch: str) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    from leaderboard import boards, ranking, rebuilding, refs, store
    from leaderboard.models import Score

    settings.LEADERBOARD_REDIS_PREFIX = f"lbbench{os.getpid()}:"
    redis_url = settings.REDIS_URL
    ref = refs.BoardRef.daily("easthaven", DAY)
    n = args.scores
    rng = random.Random(2026)
    print(f"scratch database {scratch}; Redis {redis_url}; {n} scores on {ref.redis_key}")

    t0 = time.perf_counter()
    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conname FROM pg_constraint WHERE conrelid = 'leaderboard_score'::regclass "
            "AND contype = 'f' AND confrelid = 'games_play'::regclass"
        )
        for (name,) in cursor.fetchall():
            cursor.execute(f'ALTER TABLE leaderboard_score DROP CONSTRAINT "{name}"')
    print(f"migrated in {time.perf_counter() - t0:.1f} s")

    t0 = time.perf_counter()
    start = ranking.day_start(DAY)
    raw = connection.connection  # the psycopg 3 connection under Django's
    with raw.cursor() as cur:
        cur.execute("SELECT COALESCE(MAX(id), 0) FROM auth_user")
        first_id = cur.fetchone()[0] + 1
        buf = io.StringIO()
        now = dt.datetime.now(dt.UTC).isoformat()
        for i in range(n):
            buf.write(f"{first_id + i}\t!\tf\tbench{i}\t\t\t\tf\tt\t{now}\n")
        buf.seek(0)
        with cur.copy(
            "COPY auth_user (id, password, is_superuser, username, first_name, last_name, "
            "email, is_staff, is_active, date_joined) FROM STDIN"
        ) as copy:
            while chunk := buf.read(1 << 20):
                copy.write(chunk)
        cur.execute("SELECT setval('auth_user_id_seq', %s)", [first_id + n])
        buf = io.StringIO()
        for i in range(n):
            won = rng.random() < 0.45
            cards = 52 if won else rng.randint(0, 51)
            moves = rng.randint(52, 400) if won else rng.randint(0, 400)
            seconds = round(rng.uniform(30, 3600), 3)
            finished = start + dt.timedelta(seconds=rng.uniform(60, 45_000))  # before now
            key = ranking.daily_key(ranking.DailyResult(won, cards, moves, seconds, finished, DAY))
            buf.write(
                f"{uuid.UUID(int=rng.getrandbits(128), version=4)}\t{first_id + i}\teasthaven\t"
                f"easthaven\t{DAY}\t2026-W48\t{'t' if won else 'f'}\t{cards}\t{moves}\t"
                f"{seconds}\t0\t{finished.isoformat()}\t{key}\t{ranking.points(won, cards)}\t"
                f"\\N\t{finished.isoformat()}\n"
            )
        buf.seek(0)
        with cur.copy(
            "COPY leaderboard_score (play_id, player_id, preset, board, date, week, won, "
            "foundation_cards, moves, seconds, undos, finished_at, sort_key, points, rank, "
            "created_at) FROM STDIN"
        ) as copy:
            while chunk := buf.read(1 << 20):
                copy.write(chunk)
    raw.commit()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE auth_user")
        cursor.execute("VACUUM ANALYZE leaderboard_score")
    print(f"COPY of {n} players and {n} scores, VACUUM ANALYZE: {time.perf_counter() - t0:.1f} s")

    try:
        t0 = time.perf_counter()
        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            built = profiler.runcall(rebuilding.rebuild, ref)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
        else:
            built = rebuilding.rebuild(ref)
        build_seconds = time.perf_counter() - t0
        memory = store.client().memory_usage(ref.redis_key) or 0
        print(
            f"Redis board built from PostgreSQL: {built} entries in {build_seconds:.1f} s, "
            f"{memory / 2**20:.0f} MiB"
        )

        members = list(
            Score.objects.filter(board=ref.board, date=ref.day).values_list(
                "sort_key", "play_id", "player_id"
            )
        )

        # The harness's 10⁶ sample tuples are not the service's: keep the collector off them.
        gc.collect()
        gc.freeze()

        def sample(count: int) -> list[tuple[int, str, int]]:
            return [
                (key, uuid.UUID(str(pid)).hex, player)
                for key, pid, player in rng.sample(members, count)
            ]

        def timed_pair(picks) -> tuple[list[float], list[float]]:
            """Page and around reads, alternating, so both see the same machine load."""
            pages, arounds = [], []
            for key, member, player in picks:
                t = time.perf_counter()
                boards.read(ref, "after", 50, key=key, member=member)
                pages.append((time.perf_counter() - t) * 1000)
                t = time.perf_counter()
                result = boards.read(ref, "around", 5, me=player)
                arounds.append((time.perf_counter() - t) * 1000)
                assert result.entries
            return pages, arounds

        loads = [os.getloadavg()[0]]
        settings.REDIS_URL = redis_url
        timed_pair(sample(50))  # warm up
        redis_pages, redis_arounds = timed_pair(sample(args.samples))
        assert boards.read(ref, "first", 1).source == "redis"
        loads.append(os.getloadavg()[0])
        settings.REDIS_URL = ""
        timed_pair(sample(3))
        sql_pages, sql_arounds = timed_pair(sample(args.sql_samples))
        assert boards.read(ref, "first", 1).source == "postgres"
        settings.REDIS_URL = redis_url
        loads.append(os.getloadavg()[0])
        figures = {"page": (redis_pages, sql_pages), "around": (redis_arounds, sql_arounds)}
        info_memory = store.client().memory_usage(store.info_key(ref.redis_key)) or 0
        print(
            f"details hash: {info_memory / 2**20:.0f} MiB; load average (1 min) during the "
            f"reads: {', '.join(f'{x:.1f}' for x in loads)}"
        )

        print()
        print(f"| read ({n} scores) | path | samples | p50 ms | p99 ms |")
        print("|---|---|---|---|---|")
        for kind, (via_redis, via_sql) in figures.items():
            label = "page of 50 at a random cursor" if kind == "page" else "around=me, n=5"
            for path, values in (("Redis", via_redis), ("PostgreSQL", via_sql)):
                print(
                    f"| {label} | {path} | {len(values)} | {statistics.median(values):.2f} | "
                    f"{percentile(values, 0.99):.2f} |"
                )
        print()
        for kind, (via_redis, via_sql) in figures.items():
            p50 = statistics.median(via_sql) / statistics.median(via_redis)
            p99 = percentile(via_sql, 0.99) / percentile(via_redis, 0.99)
            print(f"{kind}: SQL / Redis = {p50:.0f}x at p50, {p99:.0f}x at p99")
    finally:
        settings.REDIS_URL = redis_url
        try:
            store.client().unlink(ref.redis_key, store.info_key(ref.redis_key))
        except Exception as error:
            print(f"could not delete {ref.redis_key}: {error}")


if __name__ == "__main__":
    main()
