"""Celery tasks that prepare the daily deals ahead of time (the service is :mod:`.service`).

Beat runs :func:`prepare_upcoming_days` hourly (``CELERY_BEAT_SCHEDULE``); it queues one
:func:`prepare_daily_preset` per missing (day, preset) of today and the next
``DAILY_DAYS_AHEAD`` days, so the six presets of a day are solved in parallel by as many
workers as there are.  :func:`prepare_daily` does the same for one day.

No work is lost:

* ``acks_late``: a task's message is acknowledged only when it finished, so a worker that
  dies mid-solve leaves the message unacknowledged and Redis hands it to another worker
  after the broker's ``visibility_timeout`` (Redis default: one hour, longer than the
  longest search: screening at most 50 × 50 000 positions, then at most 50 full solves of
  ``SOLVER_BUDGET_SECONDS``); ``reject_on_worker_lost`` requeues it at once when a prefork
  child is killed.  A task that outlives the timeout is redelivered while still running;
  the copy finds the lock held, retries later and then finds the deal stored.
* If the solver fails on every candidate (``SolverFailed``) nothing is stored and the task
  fails; the next hourly beat queues the (day, preset) again.
* Database and broker hiccups are retried with exponential backoff and jitter
  (``games.task_policy.RELIABLE``).
* A (day, preset) being solved by another worker is not solved again: the task waits
  ``DAILY_LOCK_WAIT_SECONDS`` for the lock, then retries after
  ``DAILY_LOCK_RETRY_SECONDS``, doubling (the other worker will usually have stored it by
  then).
* Re-running is harmless: a stored deal is returned as is (unique (date, preset) row).

The task names keep their first home, ``games.tasks.*``: the beat schedule and messages
already queued refer to them by name.  ``CELERY_IMPORTS`` registers this module in workers.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from celery import shared_task
from django.conf import settings

from games import engine
from games.task_policy import RELIABLE

from .clock import utc_today
from .locking import DealLocked
from .selectors import missing_presets
from .service import prepare

log = logging.getLogger(__name__)


def _day(date_iso: str) -> dt.date:
    if isinstance(date_iso, dt.date):
        return date_iso
    return dt.date.fromisoformat(date_iso)


@shared_task(
    bind=True,
    name="games.tasks.prepare_daily_preset",
    reject_on_worker_lost=True,
    **RELIABLE,
)
def prepare_daily_preset(self: Any, date_iso: str, preset: str) -> dict[str, Any]:
    """Solve candidates for (day, preset) until one is winnable and store it (idempotent)."""
    day = _day(date_iso)
    engine.get_rules(preset)  # an unknown preset is a bug in the caller: fail, no retry
    try:
        deal, created = prepare(day, preset, lock_timeout=settings.DAILY_LOCK_WAIT_SECONDS)
    except DealLocked as busy:
        # Someone is solving it right now; come back later and find it stored (or take over
        # if that worker died: its lock went with its database session).
        countdown = min(settings.DAILY_LOCK_RETRY_SECONDS * 2**self.request.retries, 600)
        raise self.retry(exc=busy, countdown=countdown, max_retries=50) from busy
    return {
        "date": day.isoformat(),
        "preset": preset,
        "created": created,
        "verdict": deal.verdict,
        "par": deal.par,
        "rejected": len(deal.attempts),
        "outcome": "winnable" if deal.verdict == "winnable" else "no_winnable_candidate",
    }


@shared_task(name="games.tasks.prepare_daily", **RELIABLE)
def prepare_daily(date_iso: str) -> list[str]:
    """Queue one :func:`prepare_daily_preset` per preset of the day not stored yet."""
    day = _day(date_iso)
    queued = missing_presets(day)
    for preset in queued:
        prepare_daily_preset.delay(day.isoformat(), preset)
    return queued


@shared_task(name="games.tasks.prepare_upcoming_days", **RELIABLE)
def prepare_upcoming_days() -> dict[str, list[str]]:
    """Queue the missing deals of today and the next ``DAILY_DAYS_AHEAD`` days (UTC)."""
    today = utc_today()
    queued: dict[str, list[str]] = {}
    for offset in range(settings.DAILY_DAYS_AHEAD + 1):
        day = today + dt.timedelta(days=offset)
        presets = missing_presets(day)
        for preset in presets:
            prepare_daily_preset.delay(day.isoformat(), preset)
        if presets:
            queued[day.isoformat()] = presets
    return queued
