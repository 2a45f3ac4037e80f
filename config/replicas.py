"""Read replicas: a ``replica`` database alias (``DATABASE_REPLICA_URL``) for the reads that
tolerate a second of lag, and the primary for everything else (docs/operations/scaling.md).

Nothing reads the replica unless a view asks for it with ``replica_reads`` (a decorator on
its ``get``): the router answers ``default`` otherwise, even for objects loaded from the
replica, so the move path, idempotency, ``GET /plays/{id}`` and every read after a write
stay on the primary. A replica that does not answer is never a 5xx: the health check
(a connect bounded by ``REPLICA_CONNECT_TIMEOUT``) is remembered for
``REPLICA_HEALTH_SECONDS``, and a read that fails on the replica is marked down and done
again on the primary. Without ``DATABASE_REPLICA_URL`` there is no ``replica`` alias and
``replica_reads`` changes nothing.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections

REPLICA = "replica"
_reading = ContextVar("replica_reads", default=False)
_health_lock = threading.Lock()
_health: dict[str, float | bool] = {"until": 0.0, "up": False}
log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


class ReplicaRouter:
    """``replica`` inside ``replica_reads``, ``default`` everywhere else; migrations only
    on the primary (the replica receives them by streaming)."""

    def db_for_read(self, model: Any, **hints: Any) -> str:
        return REPLICA if _reading.get() else DEFAULT_DB_ALIAS

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # one database, two copies of it

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS


def configured() -> bool:
    return REPLICA in settings.DATABASES


def mark_down() -> None:
    with _health_lock:
        _health.update(until=time.monotonic() + settings.REPLICA_HEALTH_SECONDS, up=False)
    try:
        connections[REPLICA].close()
    except Exception:  # closing a broken connection may fail too; it is gone either way
        log.debug("closing the replica connection failed", exc_info=True)


def available() -> bool:
    """Is the replica up? Asked at most once per ``REPLICA_HEALTH_SECONDS`` per process."""
    if not configured():
        return False
    with _health_lock:
        if time.monotonic() < float(_health["until"]):
            return bool(_health["up"])
    try:
        connections[REPLICA].ensure_connection()
    except (OperationalError, InterfaceError):
        log.warning("read replica unreachable: reading from the primary")
        mark_down()
        return False
    with _health_lock:
        _health.update(until=time.monotonic() + settings.REPLICA_HEALTH_SECONDS, up=True)
    return True


@contextmanager
def reading_replica() -> Iterator[bool]:
    """Route this block's ORM reads to the replica if it is up; yields whether it is."""
    use = available()
    token = _reading.set(use)
    try:
        yield use
    finally:
        _reading.reset(token)


def call_on_replica(read: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``read(*args, **kwargs)`` with its ORM reads on the replica; once more on the
    primary if the replica fails under it (a read has no effect to repeat)."""
    with reading_replica() as on_replica:
        if not on_replica:
            return read(*args, **kwargs)
        try:
            return read(*args, **kwargs)
        except (OperationalError, InterfaceError):
            log.warning("read replica failed: reading from the primary", exc_info=True)
            mark_down()
    with on_primary():
        return read(*args, **kwargs)


def replica_reads(view: F) -> F:
    """A view method whose reads go to the replica (``call_on_replica``)."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return call_on_replica(view, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


@contextmanager
def on_primary() -> Iterator[None]:
    """A block of primary reads inside a replica-reading view (its read-your-writes part)."""
    token = _reading.set(False)
    try:
        yield
    finally:
        _reading.reset(token)
