"""The Celery app of the winnability worker tests: ``celery -A tests.winnability.worker_app``.

The daily tests' worker app (queue, visibility timeout, not eager: see
``tests/daily/worker_app.py``) plus one test-only knob: ``HAVEN_TEST_DEAL_DELAY``, seconds
slept before each deal of a chunk, so a test can kill the worker in the middle of one.
"""

from __future__ import annotations

import os
import time

from tests.daily.worker_app import app  # isort: skip  (sets Django up first)
from games.winnability import runs  # noqa: E402

__all__ = ["app"]

_delay = float(os.environ.get("HAVEN_TEST_DEAL_DELAY", "0"))
if _delay:
    _real_solve_one = runs.solve_one

    def _slow_solve_one(*args, **kwargs):
        time.sleep(_delay)
        return _real_solve_one(*args, **kwargs)

    runs.solve_one = _slow_solve_one
