"""A daemon thread per process that runs one piece of catch-up work now and then.

Without a broker (``make run``: Celery runs tasks in the caller, and there is no beat),
work a worker or the beat would do must still happen off the requests: the leaderboard's
sweep of failed score writes (``leaderboard.sweeper``) and the preparation of seeded
tournament deals (``tournaments.preparer``). Both are a :class:`WakeableLoop`: it runs its
work at once, then every ``interval`` seconds, and again soon after :meth:`~WakeableLoop.nudge`.
A nudge that comes while the work runs is kept, so the work runs once more after it: what
woke it may have come too late for the run in progress.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.db import connection

log = logging.getLogger(__name__)


class WakeableLoop:
    """Run ``work()`` in a daemon thread named ``name`` (see the module doc).

    ``delay`` is how long a nudged loop waits before its run (a failed write's lock is
    likely still held at once). ``runs`` counts the runs that returned; tests wait on it.
    An exception is logged and the loop goes on: the next run tries again.
    """

    def __init__(
        self, name: str, work: Callable[[], object], interval: float, delay: float = 0.0
    ) -> None:
        self.name = name
        self.work = work
        self.interval = interval
        self.delay = delay
        self.runs = 0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> WakeableLoop:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()
        return self

    def nudge(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()  # a nudge during the run below wakes the next one
            try:
                self.work()
                self.runs += 1
            except Exception:
                log.exception("%s: the run failed; it runs again", self.name)
            finally:
                connection.close()  # this thread's own connection; never kept across naps
            if self._wake.wait(self.interval) and self.delay and not self._stop.is_set():
                self._stop.wait(self.delay)
