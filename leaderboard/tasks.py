"""Celery tasks of the leaderboards.

* ``leaderboard.tasks.freeze_yesterday`` — store the ranks of yesterday's boards (schedule it
  a few minutes after UTC midnight; past days are also frozen lazily on their first read).
* ``leaderboard.tasks.rebuild_all`` — rebuild every Redis board from PostgreSQL.
* ``leaderboard.tasks.catch_up`` — score finished ranked plays that missed their score and
  replay the scores Redis missed (the outbox); every minute, idempotent.
* ``leaderboard.tasks.record_play`` — score one play whose score write failed in the
  ``play_finished`` receiver (queued by :func:`leaderboard.sweeper.score_later`); retried
  with backoff until it lands, the catch-up covering whatever outlives the retries.

The fallback rebuild when a reader finds a board missing is *not* a Celery task but a thread
(:func:`leaderboard.rebuilding.schedule_rebuild`): the broker is the same Redis that was lost.
"""

from __future__ import annotations

import datetime as dt

from celery import shared_task
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

from games import daily
from games.models import Play

from . import catchup, freezing, rebuilding, scores

#: Acknowledged only once done (a worker killed mid-write leaves the message queued), and
#: retried with jittered backoff on database and broker errors: some forty minutes of tries.
RECORD_RETRIES = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError, BrokerError, ConnectionError),
    "retry_backoff": 2,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 15,
}


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


@shared_task(name="leaderboard.tasks.record_play", **RECORD_RETRIES)
def record_play(play_id: str) -> bool:
    """Score one finished ranked play (idempotent); False if it is gone or not ranked."""
    play = Play.objects.filter(pk=play_id).first()
    return play is not None and scores.record_play(play) is not None
