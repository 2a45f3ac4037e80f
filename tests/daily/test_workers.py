"""Real Celery worker processes, the real broker (Redis), the real solver, PostgreSQL.

Each test starts its own ``celery worker --pool=solo`` subprocesses (``conftest.Workers``) on a
queue of its own, against pytest-django's test database; this process sends the tasks with
``apply_async`` to the broker and watches the rows appear.  The workers use a small solver
budget (``SOLVER_BUDGET_SECONDS=2``) so the tests stay quick.
"""

from __future__ import annotations

import datetime as dt
import signal
import time

import pytest
from django.db import connection

from games import daily, engine
from games.daily import tasks
from games.models import Deal, Source

from .conftest import wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

DAY = dt.date(2026, 12, 24)
#: Presets the real solver settles quickly at a 2 s budget (the others are covered by the
#: whole-day test, where the cap may end in an explicit "unknown").
QUICK = ("seahaven", "westcliff")


def _count(day, preset=None):
    deals = Deal.objects.filter(source=Source.DAILY, date=day)
    if preset:
        deals = deals.filter(preset=preset)
    return deals.count()


def _advisory_locks_held_by_others() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database"
            " WHERE l.locktype = 'advisory' AND d.datname = current_database()"
            " AND l.pid <> pg_backend_pid() AND l.granted"
        )
        return cursor.fetchone()[0]


def _check_solution(deal: Deal) -> None:
    assert deal.verdict == "winnable", (deal.preset, deal.verdict, deal.attempts)
    state, index, error = engine.replay(
        engine.get_rules(deal.preset, deal.options), engine.parse_deck(deal.deck), deal.solution
    )
    assert error is None and index is None
    assert engine.status(state) == engine.WON
    assert deal.par == len(deal.solution)


def test_a_worker_prepares_a_preset_and_a_rerun_changes_nothing(workers):
    workers.start("w1")
    result = tasks.prepare_daily_preset.apply_async(
        (DAY.isoformat(), "seahaven"), queue=workers.queue
    )
    first = result.get(timeout=120)
    assert first["created"] is True and first["verdict"] == "winnable"
    deal = Deal.objects.get(source=Source.DAILY, date=DAY, preset="seahaven")
    _check_solution(deal)
    assert deal.deck == engine.format_deck(
        daily.candidate_deck(DAY, "seahaven", len(deal.attempts))
    )
    again = tasks.prepare_daily_preset.apply_async(
        (DAY.isoformat(), "seahaven"), queue=workers.queue
    )
    assert again.get(timeout=60)["created"] is False
    assert _count(DAY, "seahaven") == 1
    assert Deal.objects.get(source=Source.DAILY, date=DAY, preset="seahaven").pk == deal.pk


def test_a_worker_prepares_a_whole_day(workers):
    """``prepare_daily`` fans out six tasks; with the cap at 3 candidates' worth of screening
    and solves of 2 s the day is done quickly, every preset winnable or explicitly
    ``unknown``."""
    workers.start("w1", HAVEN_TEST_MAX_ATTEMPTS="3")
    workers.start("w2", HAVEN_TEST_MAX_ATTEMPTS="3")
    queued = tasks.prepare_daily.apply_async((DAY.isoformat(),), queue=workers.queue)
    assert queued.get(timeout=60) == list(engine.PRESETS)
    wait_for(lambda: _count(DAY) == 6, 240, "six deals")
    for deal in Deal.objects.filter(source=Source.DAILY, date=DAY):
        assert deal.verdict in ("winnable", "unknown"), deal.verdict
        if deal.verdict == "winnable":
            _check_solution(deal)
        else:
            # The cap counts screening work: a candidate proven unwinnable counts the
            # positions it took (often a few dozen), one left undecided a whole screen and
            # then a full solve; so at most 3 full solves, any number of cheap proofs.
            assert deal.par is None
            full = [a for a in deal.attempts if a["pass"] == "full"]
            assert len(full) <= 3, deal.attempts
            assert all(
                a["verdict"] == "unwinnable" for a in deal.attempts if a["pass"] == "screen"
            ), deal.attempts
    for preset in QUICK:
        _check_solution(Deal.objects.get(source=Source.DAILY, date=DAY, preset=preset))
    # re-running the day queues nothing
    assert (
        tasks.prepare_daily.apply_async((DAY.isoformat(),), queue=workers.queue).get(timeout=60)
        == []
    )
    assert _count(DAY) == 6


def test_two_workers_at_once_solve_each_deal_once(workers):
    """The same tasks sent several times to two workers: one row per (day, preset), and
    exactly one task per preset did the solving (the lock turned the others away)."""
    workers.start("w1", HAVEN_TEST_LOCK_WAIT="30")
    workers.start("w2", HAVEN_TEST_LOCK_WAIT="30")
    results = [
        tasks.prepare_daily_preset.apply_async((DAY.isoformat(), preset), queue=workers.queue)
        for _ in range(3)
        for preset in QUICK
    ]
    outcomes = [r.get(timeout=180) for r in results]
    for preset in QUICK:
        assert _count(DAY, preset) == 1
        created = [o for o in outcomes if o["preset"] == preset and o["created"]]
        assert len(created) == 1, outcomes
        _check_solution(Deal.objects.get(source=Source.DAILY, date=DAY, preset=preset))
    worked = {o["preset"] for o in outcomes}
    assert worked == set(QUICK)


def test_a_worker_killed_mid_solve_leaves_the_task_to_be_redone(workers):
    """acks_late: the SIGKILLed worker never acknowledged the message, so Redis redelivers it
    (visibility timeout 5 s here) to the next worker; the dead worker's advisory lock went
    with its database session, so the next worker can take over at once."""
    slow = workers.start("doomed", HAVEN_TEST_SOLVE_DELAY="120", HAVEN_TEST_VISIBILITY="5")
    workers.wait_ready(slow)
    tasks.prepare_daily_preset.apply_async((DAY.isoformat(), "seahaven"), queue=workers.queue)
    wait_for(lambda: _advisory_locks_held_by_others() == 1, 60, "the worker to take the lock")
    time.sleep(0.5)  # well inside the (slowed) solve
    workers.kill(slow, signal.SIGKILL)
    assert slow.returncode == -signal.SIGKILL
    assert _count(DAY, "seahaven") == 0
    wait_for(lambda: _advisory_locks_held_by_others() == 0, 10, "the dead worker's lock to go")

    rescuer = workers.start("rescuer", HAVEN_TEST_VISIBILITY="5")
    wait_for(lambda: _count(DAY, "seahaven") == 1, 120, "the redelivered task to finish")
    _check_solution(Deal.objects.get(source=Source.DAILY, date=DAY, preset="seahaven"))
    assert "prepare_daily_preset" in workers.log(rescuer)
    assert _count(DAY, "seahaven") == 1
