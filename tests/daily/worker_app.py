"""The Celery app as the daily tests' worker processes run it: ``celery -A tests.daily.worker_app``.

It is ``config.celery.app`` with a few knobs read from the environment, all test-only:

* ``HAVEN_TEST_QUEUE``: the queue this worker consumes and sends to (a fresh one per test,
  so no other test run's worker on Redis database 15 steals our tasks);
* ``HAVEN_TEST_VISIBILITY``: the Redis ``visibility_timeout`` (seconds), small so a task
  whose worker was SIGKILLed is redelivered within the test;
* ``HAVEN_TEST_SOLVE_DELAY``: seconds to sleep before each real solve, so a test can kill
  the worker in the middle of preparing a deal;
* ``HAVEN_TEST_MAX_ATTEMPTS``, ``HAVEN_TEST_LOCK_WAIT``, ``HAVEN_TEST_LOCK_RETRY``:
  ``DAILY_MAX_ATTEMPTS``, ``DAILY_LOCK_WAIT_SECONDS``, ``DAILY_LOCK_RETRY_SECONDS``.
"""

from __future__ import annotations

import os
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.conf import settings  # noqa: E402

from config.celery import app  # noqa: E402
from games.daily import search  # noqa: E402

queue = os.environ["HAVEN_TEST_QUEUE"]
app.conf.task_default_queue = queue
app.conf.task_always_eager = False
app.conf.worker_enable_remote_control = False
app.conf.broker_transport_options = {
    "visibility_timeout": float(os.environ.get("HAVEN_TEST_VISIBILITY", "3600")),
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}
if os.environ.get("HAVEN_TEST_MAX_ATTEMPTS"):
    settings.DAILY_MAX_ATTEMPTS = int(os.environ["HAVEN_TEST_MAX_ATTEMPTS"])
if os.environ.get("HAVEN_TEST_LOCK_WAIT"):
    settings.DAILY_LOCK_WAIT_SECONDS = float(os.environ["HAVEN_TEST_LOCK_WAIT"])
if os.environ.get("HAVEN_TEST_LOCK_RETRY"):
    settings.DAILY_LOCK_RETRY_SECONDS = float(os.environ["HAVEN_TEST_LOCK_RETRY"])

_delay = float(os.environ.get("HAVEN_TEST_SOLVE_DELAY", "0"))
if _delay:
    _real_solve = search._solve

    def _slow_solve(*args, **kwargs):
        time.sleep(_delay)
        return _real_solve(*args, **kwargs)

    search._solve = _slow_solve
