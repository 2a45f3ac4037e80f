"""Benchmark: ``POST /api/v1/plays/{id}/moves`` under gunicorn on PostgreSQL, single moves
and batches, next to a DRF endpoint that does nothing, measured in the same run.

    .venv/bin/python bench/api.py                       # 50 clients, 2 rounds x 10 s per endpoint
    .venv/bin/python bench/api.py --workers 3 --seconds 5 --rounds 1 --profile 300
    .venv/bin/python bench/api.py --worker-class gthread --workers 3 --threads 4 --batch 0

What it does, all on 127.0.0.1:

1. creates a scratch database ``haven_bench_api_<pid>`` on ``--pg`` (default
   ``postgres://postgres@127.0.0.1:5432``), migrates it and creates one user (and JWT) per
   client;
2. starts gunicorn (``--worker-class``: sync workers as in the Dockerfile, gthread with
   ``--threads``, or uvicorn-worker's ASGI ``UvicornWorker`` on ``config.asgi``) on a free
   port with
   ``DJANGO_SETTINGS_MODULE=bench.api_settings``: the production settings and URLs plus
   ``POST /bench/noop``, an ``APIView`` with the API's JWT authentication that answers ``{}``;
   throttles off, no ``REDIS_URL`` (nothing on these two paths uses the cache then);
3. saturation: ``--clients`` asyncio clients (raw HTTP/1.1, one request at a time each, no
   think time) hammer one endpoint for ``--warmup`` + ``--seconds``; the endpoints alternate
   for ``--rounds`` rounds so both see the same background load. A move client plays its own
   practice play (``--preset``, deck from a seed): it sends one of the ``legal_moves`` of the
   previous response (a foundation move when there is one, else a random one) with ``seq``;
   after ``--max-moves`` moves it resigns (a move request too) and starts a new play (not
   counted). Requests finished inside the measured window count. A third phase, batch
   (``--batch`` moves per request, 0 skips it), has its own clients replay scripted
   plays: the engine, which knows a seed's deck as the server does, picks the moves once
   per seed (3 seeds per client, reused), and each request sends the next ``--batch`` of
   them with ``seq``; it counts moves, not requests;
4. paced: the same clients at a fixed total rate (``--paced`` x the move endpoint's
   saturated rate), so latency is service time plus little queueing (at saturation a closed
   loop of 50 clients has, by Little's law, mean latency = 50 / throughput);
5. prints, per endpoint: requests, errors, req/s, p50, p99, the server CPU per request
   (gunicorn workers' and PostgreSQL backends' CPU time from ``/proc``: far less sensitive
   to other load than req/s, though contention still inflates it), moves/s, and issue 24's
   ratios: single-move / bare throughput, CPU per move / per bare request, paced p99 move /
   bare, batched / single moves per second; the load average;
6. prints the on-disk bytes per row of the move log and the plays (for the capacity
   estimate in README.md);
7. optionally (``--profile N``) profiles N move requests in-process (Django test client,
   same settings and database) with pyinstrument, or cProfile when it is not installed;
8. stops gunicorn and drops the database, whatever happens (Ctrl-C included).

``--metrics`` starts a second gunicorn like the first but with ``METRICS_ENABLED`` (and
``PROMETHEUS_MULTIPROC_DIR``, as an operator runs it) and adds a phase of single moves
against it, alternating with the others; it prints the metrics' overhead as ratios of the
same run: moves/s with / without, server CPU per move with / without (issue 41: within 5 %).
On a busy shared machine those two swing by more than the metrics cost, so it also prints
the metrics' own CPU per move request, timed in-process (``bench/metrics_cost.py``), as a
share of the server CPU per move measured here.

``--wsgi module:application --pythonpath DIR`` serves a patched variant instead of
``config.wsgi:application`` (to A/B a proposed change without committing it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from api_clients import HTTP, Client, drive
from procstat import children, cpu_seconds, free_port, loadavg, percentile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# --- the run ------------------------------------------------------------------------------------


@dataclass
class Result:
    endpoint: str
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    web_cpu: float = 0.0
    db_cpu: float = 0.0

    moves: int = 0

    @property
    def requests(self) -> int:
        return len(self.latencies) + self.errors

    @property
    def moves_rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def cpu_per_request(self) -> float:
        return (self.web_cpu + self.db_cpu) / max(1, len(self.latencies))

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        lat = self.latencies
        per = max(1, len(lat))
        return (
            f"{self.endpoint:5} {self.requests:7d} {self.errors:6d} {self.rate:8.1f} "
            f"{percentile(lat, 0.5) * 1000:7.1f} {percentile(lat, 0.99) * 1000:7.1f} "
            f"{self.web_cpu / per * 1000:8.2f} {self.db_cpu / per * 1000:8.2f} "
            f"{self.moves_rate:8.1f}"
        )


HEADER = (
    "endpoint  reqs  errors    req/s  p50 ms  p99 ms  web CPU  DB CPU (ms per request)  moves/s"
)

WORKER_CLASSES = {
    "sync": ("sync", "config.wsgi:application"),
    "gthread": ("gthread", "config.wsgi:application"),
    "uvicorn": ("uvicorn_worker.UvicornWorker", "config.asgi:application"),
}


class Server:
    def __init__(
        self,
        args: argparse.Namespace,
        database_url: str,
        db_name: str,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        self.args = args
        self.port = free_port()
        self.db_name = db_name
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("REDIS_URL", "METRICS_ENABLED", "PROMETHEUS_MULTIPROC_DIR")
        }
        env.update(
            DJANGO_SETTINGS_MODULE="bench.api_settings",
            DATABASE_URL=database_url,
            DEBUG="0",
            LOG_LEVEL="WARNING",
            PYTHONPATH=str(ROOT),
            **(extra_env or {}),
        )
        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        worker_class, app = WORKER_CLASSES[args.worker_class]
        self.process = subprocess.Popen(
            [
                gunicorn,
                args.wsgi or app,
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(args.workers),
                "--worker-class",
                worker_class,
                "--threads",
                str(args.threads),
                "--timeout",
                "60",
                # gunicorn reads ./gunicorn.conf.py too; its worker recycling would reset the
                # workers' CPU counters mid-run (negative CPU per request).
                "--max-requests",
                "0",
                "--backlog",
                "2048",
                "--chdir",
                str(ROOT),
                "--log-level",
                "warning",
                *(["--pythonpath", args.pythonpath] if args.pythonpath else []),
            ],
            env=env,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{self.port}/api/v1/presets", timeout=2
                ) as response:
                    if response.status == 200 and len(children(self.process.pid)) >= 1:
                        return
            except OSError:
                pass
            time.sleep(0.3)
        raise RuntimeError("gunicorn did not answer in time")

    def worker_cpu(self) -> float:
        return sum(cpu_seconds(pid) for pid in children(self.process.pid))

    def db_cpu(self, pg) -> dict[int, float]:
        """CPU seconds of each PostgreSQL backend serving the benchmark's database."""
        rows = pg.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [self.db_name],
        ).fetchall()
        return {pid: cpu_seconds(pid) for (pid,) in rows}

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)


def measure(
    server: Server,
    clients: list[Client],
    endpoint: str,
    result: Result,
    warmup: float,
    seconds: float,
    interval: float | None,
    pg,
) -> None:
    for client in clients:
        client.samples = []
    loop = asyncio.new_event_loop()
    try:
        t0 = time.perf_counter()
        task = loop.create_task(drive(clients, endpoint, warmup + seconds, interval))
        loop.run_until_complete(asyncio.sleep(warmup))
        web0, db0 = server.worker_cpu(), server.db_cpu(pg)
        window_start = time.perf_counter()
        remaining = t0 + warmup + seconds - time.perf_counter()
        loop.run_until_complete(asyncio.sleep(max(0.0, remaining)))
        window_end = time.perf_counter()
        web1, db1 = server.worker_cpu(), server.db_cpu(pg)
        loop.run_until_complete(task)
        for client in clients:
            loop.run_until_complete(client.http.close())
    finally:
        loop.close()
    result.seconds += window_end - window_start
    result.web_cpu += web1 - web0
    # A backend that appeared in the window (a worker reconnecting) counts from zero.
    result.db_cpu += sum(cpu - db0.get(pid, 0.0) for pid, cpu in db1.items())
    for client in clients:
        for sample in client.samples:
            if sample.start >= window_start and sample.end <= window_end:
                if sample.ok:
                    result.latencies.append(sample.end - sample.start)
                    result.moves += sample.moves
                else:
                    result.errors += 1


def profile_moves(args: argparse.Namespace, count: int) -> None:
    """``count`` move requests through Django's test client, in this process, profiled."""
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient
    from rest_framework_simplejwt.tokens import AccessToken

    user = get_user_model().objects.create(username="bench-profile")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {AccessToken.for_user(user)}")
    rng = random.Random(7)
    bot = Client(HTTP(0, ""), args.preset, args.max_moves, rng)

    def new_play() -> dict:
        response = client.post(
            "/api/v1/plays",
            {"preset": args.preset, "seed": rng.randrange(1, 2**31)},
            format="json",
        )
        assert response.status_code == 201, response.content
        return response.json()

    play = new_play()

    def run(n: int) -> None:
        nonlocal play
        for _ in range(n):
            if play["status"] != "playing":
                play = new_play()
            bot.play = play
            response = client.post(
                f"/api/v1/plays/{play['id']}/moves",
                {"seq": play["seq"], "move": bot.next_move()},
                format="json",
            )
            assert response.status_code == 200, response.content
            play = response.json()

    run(50)  # warm up
    try:
        from pyinstrument import Profiler
    except ImportError:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        start = time.perf_counter()
        profiler.runcall(run, count)
        elapsed = time.perf_counter() - start
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
    else:
        profiler = Profiler(interval=0.0005)
        start = time.perf_counter()
        profiler.start()
        run(count)
        profiler.stop()
        elapsed = time.perf_counter() - start
        print(profiler.output_text(unicode=False, color=False, show_all=False))
    print(
        f"profile: {count} move requests in-process, {elapsed / count * 1000:.2f} ms each "
        f"(wall, profiler on)"
    )


def metrics_cost_per_move() -> float | None:
    """Seconds of CPU the metrics calls of one move request take (bench/metrics_cost.py, in
    a process of its own: multiprocess mode must be chosen before prometheus-client loads)."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "metrics_cost.py")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    for line in result.stdout.splitlines():
        if line.startswith("metrics CPU per move request:"):
            return float(line.split(":")[1].split()[0]) / 1e6
    print("bench/metrics_cost.py failed:", result.stderr[-500:])
    return None


def print_storage(pg) -> None:
    """On-disk bytes per row of the move log and the plays (heap + indexes + TOAST), for the
    capacity estimate; the play table is updated in place on every move, so its size
    includes dead row versions autovacuum had not reclaimed yet."""
    pg.execute("VACUUM ANALYZE games_move, games_play")
    for table in ("games_move", "games_play"):
        rows, total, heap, avg = pg.execute(
            f"SELECT count(*), pg_total_relation_size('{table}'), pg_relation_size('{table}'),"
            f" avg(pg_column_size(t.*)) FROM {table} t"
        ).fetchone()
        if rows:
            print(
                f"{table}: {rows} rows, {total / rows:.0f} bytes/row on disk with indexes "
                f"({heap / rows:.0f} heap), {avg:.0f} bytes of row data"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--seconds", type=float, default=10.0, help="per endpoint per round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument(
        "--paced",
        type=float,
        default=0.5,
        help="paced phase at this fraction of the move saturation rate (0: skip)",
    )
    parser.add_argument("--preset", default="westcliff")
    parser.add_argument("--max-moves", type=int, default=150, help="resign a play after this")
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="then profile N move requests in-process",
    )
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument(
        "--wsgi",
        default=None,
        help="WSGI/ASGI app for gunicorn (to A/B a patched variant; add --pythonpath)",
    )
    parser.add_argument(
        "--worker-class",
        choices=sorted(WORKER_CLASSES),
        default="sync",
        help="gunicorn sync, gthread (with --threads) or uvicorn (ASGI, uvicorn-worker)",
    )
    parser.add_argument("--threads", type=int, default=1, help="threads per gthread worker")
    parser.add_argument(
        "--batch", type=int, default=50, help="moves per batch request (0: no batch phase)"
    )
    parser.add_argument("--pythonpath", default=None, help="extra path for gunicorn's imports")
    parser.add_argument(
        "--metrics",
        action="store_true",
        help="also time single moves on a second server with METRICS_ENABLED (multiprocess "
        "mode), alternating with the first: the metrics' overhead as a ratio",
    )
    args = parser.parse_args()
    if args.clients > 200 or args.seconds > 120 or args.rounds > 10:
        parser.error("keep it bounded: at most 200 clients, 120 s per phase, 10 rounds")

    import psycopg

    db_name = f"haven_bench_api_{os.getpid()}"
    database_url = f"{args.pg}/{db_name}"
    admin = psycopg.connect(f"{args.pg}/postgres", autocommit=True)
    server: Server | None = None
    metered: Server | None = None
    metrics_dir = tempfile.TemporaryDirectory(prefix="haven-bench-metrics-")
    try:
        admin.execute(f'CREATE DATABASE "{db_name}"')
        os.environ["DJANGO_SETTINGS_MODULE"] = "bench.api_settings"
        # A developer's machine: make run's secrets (docs/secrets-and-names.md), shared with
        # the server below, which inherits the environment.
        os.environ.setdefault("HAVEN_LOCAL", "1")
        os.environ["DATABASE_URL"] = database_url
        os.environ.pop("REDIS_URL", None)
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import connections
        from rest_framework_simplejwt.tokens import AccessToken

        call_command("migrate", verbosity=0, interactive=False)
        users = get_user_model()
        created = users.objects.bulk_create(
            users(username=f"bench{n}", password="!") for n in range(args.clients)
        )
        tokens = [str(AccessToken.for_user(user)) for user in created]
        connections.close_all()

        print(
            f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC, "
            f"{os.cpu_count()} CPUs, load average {loadavg()}, Python {sys.version.split()[0]}"
        )
        threads = f" x {args.threads} threads" if args.worker_class == "gthread" else ""
        print(
            f"gunicorn {args.worker_class} x {args.workers} workers{threads}, "
            f"{args.clients} clients, "
            f"{args.rounds} rounds x ({args.warmup:g} s warm-up + {args.seconds:g} s) "
            f"per endpoint, preset {args.preset}, batches of {args.batch}, database {db_name}, "
            f"MOVES_SYNCHRONOUS_COMMIT={os.environ.get('MOVES_SYNCHRONOUS_COMMIT', '1 (default)')}"
        )
        server = Server(args, database_url, db_name)
        server.wait_ready()
        if args.metrics:
            # The same server with the metrics on, as an operator runs it (docs/operations/
            # observability.md): every request counted and timed, files per worker process.
            metrics_env = {"METRICS_ENABLED": "1", "PROMETHEUS_MULTIPROC_DIR": metrics_dir.name}
            metered = Server(args, database_url, db_name, metrics_env)
            metered.wait_ready()
        rng = random.Random(20261129)

        def make_clients(port: int = server.port) -> list[Client]:
            return [
                Client(
                    HTTP(port, token),
                    args.preset,
                    args.max_moves,
                    random.Random(rng.random()),
                    batch_size=args.batch,
                    seeds=[rng.randrange(1, 2**31) for _ in range(3)],
                )
                for token in tokens
            ]

        clients, batch_clients = make_clients(), make_clients()
        pg = psycopg.connect(database_url, autocommit=True)
        loads = [loadavg()]
        bare, move, batch = Result("bare"), Result("move"), Result("batch")
        with_metrics = Result("+metr")
        phases = [("bare", bare, clients, server), ("move", move, clients, server)]
        if metered is not None:
            phases.append(("move", with_metrics, make_clients(metered.port), metered))
        if args.batch:
            phases.append(("batch", batch, batch_clients, server))
        for _ in range(args.rounds):
            for endpoint, result, who, where in phases:
                measure(where, who, endpoint, result, args.warmup, args.seconds, None, pg)
                loads.append(loadavg())
        print("\nsaturation (closed loop, no think time)")
        print(HEADER)
        for _, result, _, _ in phases:
            print(result.line())
        paced: list[Result] = []
        if args.paced > 0 and move.rate > 0:
            rate = args.paced * move.rate
            interval = args.clients / rate
            for endpoint in ("bare", "move"):
                result = Result(endpoint)
                measure(
                    server, clients, endpoint, result, args.warmup / 2, args.seconds, interval, pg
                )
                paced.append(result)
                loads.append(loadavg())
            print(f"\npaced at {rate:.0f} req/s in all ({args.paced:g} x the move rate)")
            print(HEADER)
            for result in paced:
                print(result.line())
        started = sum(c.plays_started for c in clients + batch_clients)  # not the metered ones
        print("\nratios, same run (issue 24's targets):")
        if bare.rate:
            print(f"  single-move throughput / bare: {move.rate / bare.rate:.2f} (>= 0.6, aim 0.8)")
        if bare.cpu_per_request:
            print(
                f"  server CPU per move / per bare request: "
                f"{move.cpu_per_request / bare.cpu_per_request:.2f} (<= 1.5; "
                f"{move.cpu_per_request * 1000:.2f} / {bare.cpu_per_request * 1000:.2f} ms)"
            )
        if paced and paced[0].latencies and paced[1].latencies:
            p99_bare, p99_move = (
                percentile(paced[0].latencies, 0.99),
                percentile(paced[1].latencies, 0.99),
            )
            print(
                f"  paced p99 move / bare: {p99_move / p99_bare:.2f} (<= 1.5; "
                f"{p99_move * 1000:.1f} / {p99_bare * 1000:.1f} ms)"
            )
        if metered is not None and move.rate and move.cpu_per_request:
            print(
                f"  metrics on / off, single moves: throughput "
                f"{with_metrics.rate / move.rate:.3f} (>= 0.95), server CPU per move "
                f"{with_metrics.cpu_per_request / move.cpu_per_request:.3f} (<= 1.05; "
                f"{with_metrics.cpu_per_request * 1000:.2f} / {move.cpu_per_request * 1000:.2f} ms)"
            )
        if metered is not None and move.cpu_per_request:
            cost = metrics_cost_per_move()
            if cost is not None:
                print(
                    f"  metrics' own CPU per move request (in-process, bench/metrics_cost.py): "
                    f"{cost * 1e6:.1f} us = {cost / move.cpu_per_request:.4f} of the server "
                    f"CPU per move (<= 0.05)"
                )
        if args.batch and move.moves_rate:
            per_move = batch.cpu_per_request / max(1, batch.moves / max(1, len(batch.latencies)))
            print(
                f"  moves/s in batches of {args.batch} / single moves/s: "
                f"{batch.moves_rate / move.moves_rate:.1f} (>= 20; "
                f"{batch.moves_rate:.0f} / {move.moves_rate:.0f}; "
                f"server CPU per batched move {per_move * 1000:.2f} ms)"
            )
        print(f"plays started: {started}; load average during the run: {' | '.join(loads)}")
        for client in clients + batch_clients:
            for example in client.error_examples:
                print("error example:", example)
                break
        print_storage(pg)
        pg.close()
        server.stop()
        if metered is not None:
            metered.stop()
        if args.profile:
            print()
            profile_moves(args, args.profile)
    finally:
        for running in (server, metered):
            if running is not None:
                running.stop()
        metrics_dir.cleanup()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # django not set up yet
            pass
        admin.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
        admin.close()


if __name__ == "__main__":
    main()
