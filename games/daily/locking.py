"""Exactly once, even with many workers: the (day, preset) lock.

* The database decides: ``Deal`` has a unique (date, preset) constraint for daily deals and
  :func:`games.daily.service.store` inserts inside a transaction and, on ``IntegrityError``,
  returns the row that won.  There is no check-then-insert race.
* A lock keeps two processes from *solving* the same (day, preset) at once: a PostgreSQL
  session-level advisory lock (``pg_try_advisory_lock`` on a 64-bit key derived from the
  day and preset).  Chosen over a Redis lock because its lifetime is the holder's database
  session: a worker that is SIGKILLed mid-solve loses its connection and the lock is gone at
  once, with no TTL to guess (a solve may take 50 × the budget, a TTL shorter than that
  would let a second solver in, a longer one would block redelivery after a crash); it
  lives in the same database as the row it guards; and the web process's on-demand path
  can take the same lock without Redis.  The lock is taken outside any long transaction,
  so solving never holds a transaction open.  On SQLite (a bare development machine, one
  process, eager Celery) a process-local lock stands in.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

log = logging.getLogger(__name__)

LOCK_POLL_SECONDS = 0.1


class DealLocked(Exception):
    """Another process holds the (day, preset) lock and did not release it in time."""


def lock_key(day: dt.date, preset: str) -> int:
    """A signed 64-bit advisory-lock key for (day, preset)."""
    digest = hashlib.blake2b(
        f"haven-daily-lock:{day.isoformat()}:{preset}".encode(), digest_size=8
    ).digest()
    return int.from_bytes(digest, "big", signed=True)


_local_locks: dict[int, threading.Lock] = {}
_local_locks_guard = threading.Lock()


def _uses_postgres() -> bool:
    return connection.vendor == "postgresql"


@contextmanager
def day_lock(day: dt.date, preset: str, timeout: float | None = None) -> Iterator[None]:
    """Hold the (day, preset) lock; wait at most ``timeout`` seconds (None: as long as it
    takes), then raise :class:`DealLocked`."""
    with held(lock_key(day, preset), f"daily {preset} {day}", timeout):
        yield


def named_lock_key(name: str) -> int:
    """A signed 64-bit advisory-lock key for another series of deals (``name``: e.g. a
    tournament's), never equal to a daily's by construction of its prefix."""
    digest = hashlib.blake2b(f"haven-deal-lock:{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@contextmanager
def named_lock(name: str, timeout: float | None = None) -> Iterator[None]:
    """:func:`day_lock` for a series named ``name`` (a tournament's own deal)."""
    with held(named_lock_key(name), name, timeout):
        yield


@contextmanager
def held(key: int, what: str, timeout: float | None) -> Iterator[None]:
    """Hold advisory lock ``key`` (module doc); ``what`` names it in errors and logs."""
    deadline = None if timeout is None else time.monotonic() + timeout
    if _uses_postgres():
        with connection.cursor() as cursor:
            while True:
                cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
                if cursor.fetchone()[0]:
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    raise DealLocked(f"{what} is being prepared elsewhere")
                time.sleep(LOCK_POLL_SECONDS)
        try:
            yield
        finally:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
            except Exception:  # the connection is gone, and the session's locks with it
                log.warning("could not unlock %s", what, exc_info=True)
    else:
        with _local_locks_guard:
            lock = _local_locks.setdefault(key, threading.Lock())
        wait = -1 if timeout is None else max(timeout, 0)
        if not lock.acquire(timeout=wait):
            raise DealLocked(f"{what} is being prepared elsewhere")
        try:
            yield
        finally:
            lock.release()
