"""Celery tasks of the leaderboards.

* ``leaderboard.tasks.freeze_yesterday`` — store the ranks of yesterday's boards (schedule it
  a few minutes after UTC midnight; past days are also frozen lazily on their first read).
* ``leaderboard.tasks.rebuild_all`` — rebuild every Redis board from PostgreSQL.
* ``leaderboard.tasks.catch_up`` — score finished ranked plays that missed their score and
  replay the scores Redis missed (the outbox); every minute, idempotent.

The fallback rebuild when a reader finds a board missing is *not* a Celery task but a thread
(:func:`leaderboard.rebuilding.schedule_rebuild`): the broker is the same Redis that was lost.
"""

from __future__ import annotations

import datetime as dt

from celery import shared_task

from games import daily

from . import catchup, freezing, rebuilding


@shared_task(name="leaderboard.tasks.freeze_day")
def freeze_day(day: str) -> int:
    return freezing.freeze_day(dt.date.fromisoformat(day))


@shared_task(name="leaderboard.tasks.freeze_yesterday")
def freeze_yesterday() -> int:
    return freezing.freeze_day(daily.utc_today() - dt.timedelta(days=1))


@shared_task(name="leaderboard.tasks.rebuild_all")
def rebuild_all() -> int:
    return sum(1 for ref in rebuilding.all_boards() if rebuilding.rebuild(ref) >= 0)


@shared_task(name="leaderboard.tasks.catch_up")
def catch_up() -> list[int]:
    return list(catchup.catch_up())
