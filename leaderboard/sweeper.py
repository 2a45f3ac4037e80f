"""No finished ranked play stays off its boards: retrying a score write that failed.

``scores.on_play_finished`` records a play after the play's own commit. When that write
fails (SQLite's "database is locked", PostgreSQL restarting, a connection killed), the play
is finished and its score is not. :func:`score_later` makes sure it is retried until it
lands:

* With a broker (``REDIS_URL``: a Celery worker and beat, docker-compose), it queues
  ``leaderboard.tasks.record_play`` for the play: acknowledged late, retried with backoff
  on database and broker errors. The every-minute ``catch_up`` beat task sweeps whatever
  that misses (the broker down as well, a worker killed, the retries used up).
* Without one (``make run``: Celery runs tasks in-process and there is no beat), a
  :class:`Sweeper` thread in each web worker runs the same catch-up
  (:func:`leaderboard.catchup.catch_up`) every ``LEADERBOARD_SWEEP_SECONDS``, and soon
  (``LEADERBOARD_SWEEP_RETRY_SECONDS``) after the receiver reports a failure. Its first run
  looks at every day's plays, the later ones at the last two days. ``gunicorn.conf.py``
  starts it in each worker; any other process starts it on its first failure.

Every path is idempotent (a score's primary key is its play), so a play scored twice over,
by the retry and by a sweep, still has one score.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable

from celery import current_app
from django.conf import settings

from config.background import WakeableLoop

log = logging.getLogger(__name__)

RECORD_TASK = "leaderboard.tasks.record_play"

#: The catch-up a sweep runs: ``sweep(everything)`` → (plays scored, boards pushed). Handed
#: down by ``LeaderboardConfig.ready()``, not imported: the catch-up imports the scores
#: module, which imports this one.
_catch_up: Callable[[bool], tuple[int, int]] | None = None


def use(catch_up: Callable[[bool], tuple[int, int]]) -> None:
    """Set what each sweep runs (``leaderboard.catchup.sweep``)."""
    global _catch_up
    _catch_up = catch_up


def retry_seconds() -> float:
    return float(getattr(settings, "LEADERBOARD_SWEEP_RETRY_SECONDS", 2.0))


def sweep_seconds() -> float:
    return float(getattr(settings, "LEADERBOARD_SWEEP_SECONDS", 0.0))


class Sweeper(WakeableLoop):
    """The catch-up every ``interval`` seconds, and ``delay`` seconds after :meth:`nudge`;
    its first run looks at every day's plays, the later ones at the last two days."""

    def __init__(self, interval: float, delay: float) -> None:
        super().__init__("lb-sweeper", self._sweep, interval, delay)
        self._everything = True

    @property
    def sweeps(self) -> int:
        return self.runs

    def _sweep(self) -> None:
        if _catch_up is None:
            raise RuntimeError("no catch-up to run: the leaderboard app is not ready")
        scored, pushed = _catch_up(self._everything)
        self._everything = False
        if scored or pushed:
            log.warning("leaderboard: swept %d unscored play(s), %d push(es)", scored, pushed)


_sweeper: Sweeper | None = None
_guard = threading.Lock()


def start_in_process() -> Sweeper | None:
    """This process's sweeper, started if ``LEADERBOARD_SWEEP_SECONDS`` > 0 (the default
    without a broker, docs/embedded-mode.md); None when a beat does the sweeping."""
    global _sweeper
    interval = sweep_seconds()
    if interval <= 0:
        return None
    with _guard:
        if _sweeper is None:
            _sweeper = Sweeper(interval, retry_seconds()).start()
            log.info("leaderboard: sweeping for unscored plays every %g s (no beat)", interval)
        return _sweeper


def score_later(play_id: uuid.UUID | str) -> None:
    """The receiver could not record ``play_id``: retry it (see the module's docstring)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        sweeper = start_in_process()
        if sweeper is None:
            log.warning("leaderboard: no sweeper here; the next catch-up scores %s", play_id)
        else:
            sweeper.nudge()
        return
    try:
        current_app.send_task(RECORD_TASK, args=[str(play_id)], countdown=retry_seconds())
    except Exception:
        log.exception("leaderboard: could not queue the retry of %s; catch_up sweeps it", play_id)
