"""Winnability run throughput: deals a second with 1, 2 and 4 real Celery worker processes.

    DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/winnability.py                     # 1,2,4 workers
    ... bench/winnability.py --workers 1,2 --config seahaven --seeds 1-400 --budget 2

For each worker count it starts that many ``celery -A config worker --pool=solo`` processes
on a queue of its own (the way a host runs them: one deal at a time per process,
``worker_prefetch_multiplier`` 1), waits until they are ready, then runs the command's
driver (:func:`games.winnability.fanout.execute`: chunks sent to the broker, rows watched
in PostgreSQL) on a fixed seed range with a small budget, under a solver-version label of
its own, so nothing is skipped as already solved and the service's results are untouched
(the label's rows are deleted afterwards).  Printed: wall seconds, deals a second and the
ratio to the first worker count measured in the same run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import os
import platform
import signal
import subprocess
import sys
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # A developer's machine: make run's secrets (docs/secrets-and-names.md).
    os.environ.setdefault("HAVEN_LOCAL", "1")
    import django

    django.setup()


def start_workers(count: int, queue: str, logdir: str) -> list[subprocess.Popen]:
    procs = []
    for index in range(count):
        log = open(os.path.join(logdir, f"{queue}-{index}.log"), "wb")  # noqa: SIM115
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--pool=solo",
                    "-Q",
                    queue,
                    "-n",
                    f"bench{index}-{queue}@%h",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                    "--loglevel=INFO",
                ],  # fmt: skip
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )
        procs[-1].logfile = log.name  # type: ignore[attr-defined]
    deadline = time.monotonic() + 120
    for proc in procs:
        while b" ready." not in open(proc.logfile, "rb").read():  # type: ignore[attr-defined]
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"worker did not start, see {proc.logfile}")  # type: ignore[attr-defined]
            time.sleep(0.2)
    return procs


def stop_workers(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--config", default="easthaven-open+partial_runs")
    parser.add_argument("--seeds", default="1-120")
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--chunk", type=int, default=4)
    parser.add_argument("--logdir", default="/tmp")
    args = parser.parse_args()
    _setup()
    from django.conf import settings

    from games.solver.cli import parse_ranges
    from games.winnability.configs import parse_config
    from games.winnability.fanout import Run, eager, execute
    from games.winnability.models import DealResult

    if eager() or not settings.USING_POSTGRES:
        raise SystemExit("needs REDIS_URL (a broker) and DATABASE_URL=postgres://...")
    preset, options = parse_config(args.config)
    seeds = parse_ranges(args.seeds, "seeds", 0, 2**63 - 1)
    print(
        f"# {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; {args.config} seeds "
        f"{args.seeds} at {args.budget:g} s, chunks of {args.chunk}"
    )
    base = None
    for count in [int(n) for n in args.workers.split(",")]:
        queue = f"bench-winnability-{uuid.uuid4().hex[:8]}"
        version = f"bench-{uuid.uuid4().hex[:8]}"
        procs = start_workers(count, queue, args.logdir)
        try:
            run = Run(preset, options, seeds, [args.budget], version, chunk=args.chunk,
                      queue=queue, timeout=300)  # fmt: skip
            cpu = os.times()
            report = execute(run, io.StringIO(), progress=False)[0]
        finally:
            stop_workers(procs)
            DealResult.objects.filter(solver_version=version).delete()
        rate = report["deals_per_second"]
        base = base or rate
        print(
            f"workers={count}: {report['deals']} deals in {report['seconds']:.1f} s, "
            f"{rate:.2f} deals/s, ×{rate / base:.2f} of the first; load "
            f"{os.getloadavg()[0]:.1f}; driver CPU {os.times().user - cpu.user:.1f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
