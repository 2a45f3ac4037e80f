"""Daily-deal benchmark: wall time to prepare one day's six deals with 1 and 2 workers.

    .venv/bin/python bench/daily.py             # 3 days from 2026-11-29, 1 then 2 workers
    .venv/bin/python bench/daily.py --days 1 --workers 1
    .venv/bin/python bench/daily.py --start 2027-01-01 --days 5 --out runs.jsonl

A "worker" here is an OS process (``multiprocessing``, spawn) that takes the next
(day, preset) when it is free, in ``PRESETS`` order, as a Celery worker with
``--concurrency 1`` and ``worker_prefetch_multiplier = 1`` does; each runs
``games.daily.search.search_day`` — the service's whole candidate search with the settings'
solver budget (``SOLVER_BUDGET_SECONDS``, screening node budget, cap), i.e. everything
``prepare_deal`` does except taking the advisory lock and inserting the row (milliseconds
next to the solving), so no database or broker is needed.  The secret is the settings'
(``DAILY_SECRET``; the dev default unless set), so the figures are for those candidates.

Printed per day and worker count: wall seconds for the six, and per preset the verdict,
candidates tried, wall and process-CPU seconds (CPU time counts less of a shared machine's
load).  Target: a day in under 60 s with one worker.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # A developer's machine: make run's secrets (docs/secrets-and-names.md).
    os.environ.setdefault("HAVEN_LOCAL", "1")
    import django

    django.setup()


def prepare_one(day_iso: str, preset: str) -> dict:
    """Run in a worker process: the service's search for one (day, preset)."""
    _setup()
    from games.daily import search

    wall, cpu = time.perf_counter(), time.process_time()
    fields = search.search_day(dt.date.fromisoformat(day_iso), preset, None)
    return {
        "day": day_iso,
        "preset": preset,
        "verdict": fields["verdict"],
        "candidates": len(fields["attempts"]) + 1,
        "par": fields["par"],
        "seconds": round(time.perf_counter() - wall, 2),
        "cpu": round(time.process_time() - cpu, 2),
    }


def run_day(day: dt.date, workers: int) -> dict:
    from games import engine

    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        # warm the processes up (Django setup) before the clock that matters starts
        list(pool.map(_setup_only, range(workers)))
        started = time.perf_counter()
        futures = [pool.submit(prepare_one, day.isoformat(), p) for p in engine.PRESETS]
        results = [f.result() for f in as_completed(futures)]
    wall = time.perf_counter() - started
    order = list(engine.PRESETS)
    results.sort(key=lambda r: order.index(r["preset"]))
    return {"day": day.isoformat(), "workers": workers, "seconds": round(wall, 1), "deals": results}


def _setup_only(_: int) -> None:
    _setup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", default="2026-11-29", help="first day (YYYY-MM-DD)")
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--out", help="append one JSON line per day and worker count")
    args = parser.parse_args()
    _setup()
    from django.conf import settings

    from games.daily import search

    counts = [int(n) for n in args.workers.split(",")]
    first = dt.date.fromisoformat(args.start)
    print(
        f"# {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; "
        f"SOLVER_BUDGET_SECONDS={settings.SOLVER_BUDGET_SECONDS}, "
        f"screen {search.screen_nodes()} nodes, cap {search.max_attempts()}, "
        f"par {search.par_seconds():g} s"
    )
    totals: dict[int, list[float]] = {n: [] for n in counts}
    for offset in range(args.days):
        day = first + dt.timedelta(days=offset)
        for workers in counts:
            run = run_day(day, workers)
            totals[workers].append(run["seconds"])
            deals = ", ".join(
                f"{d['preset']} {d['verdict'][:3]} {d['candidates']}c {d['seconds']}s/{d['cpu']}cpu"
                for d in run["deals"]
            )
            print(f"{run['day']} workers={workers}: {run['seconds']:6.1f} s  ({deals})", flush=True)
            if args.out:
                with open(args.out, "a") as out:
                    out.write(json.dumps(run) + "\n")
    for workers, seconds in totals.items():
        mean = sum(seconds) / len(seconds)
        print(f"workers={workers}: mean {mean:.1f} s, max {max(seconds):.1f} s per day")


if __name__ == "__main__":
    main()
