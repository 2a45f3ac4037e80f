"""A seeded tournament's deal prepared off the request, with or without a broker.

The search behind a deal (``seeding.prepare``) takes a second for Seahaven and up to
minutes for the stock games, so it never runs inside the request that created the
tournament:

* With a broker (``REDIS_URL``: a Celery worker and beat), :func:`queue` sends
  ``tasks.prepare_seeded_deal`` after the commit; the beat's ``prepare_seeded_deals``
  catches what is lost.
* Without one (``make run``: Celery runs tasks in the caller, and there is no beat), a
  daemon thread in the web process (:func:`preparer`, a ``config.background.WakeableLoop``)
  does both: woken after the commit that created a seeded tournament, it prepares every
  seeded tournament not over whose deal is missing (``seeding.unprepared``), and it looks
  again every
  ``TOURNAMENTS_PREPARE_SECONDS`` (a process restarted mid-solve, a solver that failed).
  ``gunicorn.conf.py`` starts it in each worker; a request that finds a deal not ready
  wakes it too, so any process prepares a deal somebody waits for. Two threads (two
  workers) never solve one tournament twice: ``seeding.prepare`` takes its lock.

The same loop as the leaderboard's sweeper of failed score writes
(``leaderboard.sweeper``): one thread per process, woken on demand, its own database
connection closed after each run.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings

from config.background import WakeableLoop
from games import daily

from . import seeding
from .tasks import prepare_seeded_deal

log = logging.getLogger(__name__)


def sweep_seconds() -> float:
    """The in-process preparer's period; 0 when a broker and its beat do the work."""
    return float(getattr(settings, "TOURNAMENTS_PREPARE_SECONDS", 0.0))


def prepare_missing() -> int:
    """Prepare every seeded tournament not over whose deal is missing, one after another;
    return how many this run stored. A failure leaves that one for the next run."""
    stored = 0
    for tournament_id in seeding.unprepared():
        try:
            _deal, created = seeding.prepare(
                tournament_id, lock_timeout=settings.DAILY_LOCK_WAIT_SECONDS
            )
            stored += created
        except daily.DealLocked:  # another process is solving it
            log.info("tournaments: the deal of %s is being prepared elsewhere", tournament_id)
        except Exception:
            log.exception("tournaments: could not prepare the deal of %s", tournament_id)
    return stored


def preparer(interval: float) -> WakeableLoop:
    """A daemon thread that runs :func:`prepare_missing` at once, every ``interval``
    seconds and whenever it is nudged."""
    return WakeableLoop("tournament-preparer", prepare_missing, interval)


_preparer: WakeableLoop | None = None
_guard = threading.Lock()


def start_in_process() -> WakeableLoop | None:
    """This process's preparer, started if ``TOURNAMENTS_PREPARE_SECONDS`` > 0 (the default
    without a broker); None when a worker and the beat prepare the deals."""
    global _preparer
    interval = sweep_seconds()
    if interval <= 0:
        return None
    with _guard:
        if _preparer is None:
            _preparer = preparer(interval).start()
            log.info("tournaments: preparing seeded deals in-process (no broker)")
        return _preparer


def stop_in_process() -> None:
    """Stop and forget this process's preparer (tests)."""
    global _preparer
    with _guard:
        if _preparer is not None:
            _preparer.stop()
            _preparer = None


def queue(tournament_id: int) -> None:
    """Have tournament ``tournament_id``'s deal prepared off the request (module doc)."""
    preparer = start_in_process()
    if preparer is not None:
        preparer.nudge()
        return
    try:
        prepare_seeded_deal.delay(tournament_id)
    except Exception:  # the beat queues it again within minutes
        log.exception("tournaments: could not queue the deal of %s", tournament_id)


def wake() -> None:
    """A request met a deal not ready: without a broker, make sure somebody prepares it."""
    preparer = start_in_process()
    if preparer is not None:
        preparer.nudge()
