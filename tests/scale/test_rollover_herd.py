"""The day-rollover herd: 200 clients at a moved 00:00 UTC, no deal of the day prepared.

Every client asks for ``GET /daily/today`` and starts a ranked play of one preset at once
(the server's request threads: 24, about the database connections one host gets; the
shared PostgreSQL of a CI machine allows no 200). The solver is the daily tests' fake,
sleeping 50 ms a solve as a stand-in for the real search. Each (day, preset) must be
searched exactly once (the others wait on its lock and then read the stored row), no
answer may be a 5xx, every ranked start must succeed, and the latencies, counted from the
moment the herd arrives (queueing included), are printed (docs/operations/scaling.md).
"""

from __future__ import annotations

import collections
import datetime as dt
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games import engine
from games.daily import service
from games.models import Deal, Play, Source
from tests.daily.conftest import FakeSolver

pytestmark = [pytest.mark.topology, pytest.mark.postgres]

CLIENTS = 200
SERVER_THREADS = 24


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def test_two_hundred_clients_at_midnight_solve_each_deal_once(
    transactional_db, monkeypatch, settings
) -> None:
    settings.DAILY_ON_DEMAND_SECONDS = 30  # generous: the herd waits on the locks, not less
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "plays": "100000/min"
        },
    }  # fmt: skip
    solver = FakeSolver()
    solver.sleep = 0.05
    monkeypatch.setattr("games.daily.search._solve", solver)
    searches: collections.Counter[tuple[dt.date, str]] = collections.Counter()
    real_search, counting = service.search_day, threading.Lock()

    def counted_search(day, preset, deadline):
        with counting:
            searches[(day, preset)] += 1
        return real_search(day, preset, deadline)

    monkeypatch.setattr(service, "search_day", counted_search)

    midnight = dt.datetime.combine(
        timezone.now().date() + dt.timedelta(days=400), dt.time(), tzinfo=dt.UTC
    )
    started = time.monotonic()
    monkeypatch.setattr(
        timezone, "now", lambda: midnight + dt.timedelta(seconds=time.monotonic() - started)
    )
    day = midnight.date()
    users = get_user_model()
    players = [users.objects.create_user(username=f"herd{i:03d}") for i in range(CLIENTS)]
    presets = list(engine.PRESETS)
    assert not Deal.objects.filter(source=Source.DAILY, date=day).exists()

    latencies: list[float] = []
    statuses: collections.Counter[tuple[str, int]] = collections.Counter()
    arrival = time.monotonic()

    def client(index: int) -> None:
        api = APIClient()
        api.force_authenticate(players[index])
        try:
            for what, call in (
                ("daily", lambda: api.get("/api/v1/daily/today")),
                (
                    "start",
                    lambda: api.post(
                        "/api/v1/plays",
                        {"preset": presets[index % len(presets)], "daily": day.isoformat()},
                        format="json",
                    ),
                ),
            ):
                answer = call()
                statuses[(what, answer.status_code)] += 1
                latencies.append(time.monotonic() - arrival)
        finally:
            connection.close()

    with ThreadPoolExecutor(SERVER_THREADS) as pool:
        list(pool.map(client, range(CLIENTS)))
    elapsed = time.monotonic() - arrival

    print(
        f"\nrollover herd: {CLIENTS} clients x 2 requests, {SERVER_THREADS} threads, "
        f"{elapsed:.2f} s; latency from arrival p50 {percentile(latencies, 0.5):.3f} s, "
        f"p99 {percentile(latencies, 0.99):.3f} s, max {max(latencies):.3f} s; "
        f"solver calls {len(solver.calls)}; statuses {dict(statuses)}"
    )
    assert not [key for key in statuses if key[1] >= 500]
    assert statuses[("daily", 200)] == CLIENTS
    assert statuses[("start", 201)] == CLIENTS
    assert searches == {(day, preset): 1 for preset in presets}
    assert Deal.objects.filter(source=Source.DAILY, date=day).count() == len(presets)
    assert Play.objects.filter(ranked=True, daily_date=day).count() == CLIENTS
    assert elapsed < 60


def test_days_ahead_ready_counts_complete_days_in_a_row(db) -> None:
    from games.daily import days_ahead_ready
    from tests.factories import store_daily

    today = dt.date(2030, 6, 1)
    assert days_ahead_ready(today) == -1  # not even today's deals are there
    store_daily(today)
    assert days_ahead_ready(today) == 0
    for offset, seed in ((1, 2000), (2, 3000), (4, 4000)):
        store_daily(today + dt.timedelta(days=offset), seed_base=seed)
    assert days_ahead_ready(today) == 2  # day 3 is missing
    Deal.objects.filter(date=today + dt.timedelta(days=2), preset="seahaven").delete()
    assert days_ahead_ready(today) == 1  # an incomplete day stops the count
