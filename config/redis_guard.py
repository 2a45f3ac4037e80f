"""Redis as an accelerator that may fail: short timeouts and a circuit breaker.

Everything that talks to Redis from a web or worker process (the Django cache, the
throttles, the leaderboard store) uses the connection options of :func:`connection_options`
and asks the process's :data:`breaker` first:

* **closed** — Redis answered last time: calls go through. A call that fails (refused,
  reset, or no answer within ``REDIS_SOCKET_TIMEOUT``) opens the breaker.
* **open** — for ``REDIS_BREAKER_COOLDOWN`` seconds nobody waits on Redis: callers get
  :class:`RedisUnavailable` at once and fall back (a cache miss, the per-process throttle,
  PostgreSQL's boards).
* **half-open** — once the cool-down is over, the next caller is let through as a probe
  (the cool-down restarts, so only one caller per cool-down probes). Success closes the
  breaker and runs the recovery hooks (the leaderboard replays what Redis missed);
  failure keeps it open for another cool-down.

Each opening and closing is a metric (``haven_redis_breaker_open``, per process, summed over
the live ones; ``config.observability.metrics``).

redis-py retries are switched off: a retry would double the time a dead Redis costs.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from config.observability import metrics

log = logging.getLogger("haven.redis")

CONNECT_TIMEOUT_DEFAULT = 0.1
SOCKET_TIMEOUT_DEFAULT = 0.1
COOLDOWN_DEFAULT = 2.0


class RedisUnavailable(Exception):
    """Redis failed to answer, or the breaker is open and it was not asked."""


def _setting(name: str, default: float) -> float:
    from django.conf import settings

    return float(getattr(settings, name, default))


def connection_options(
    connect_timeout: float = CONNECT_TIMEOUT_DEFAULT,
    socket_timeout: float = SOCKET_TIMEOUT_DEFAULT,
) -> dict[str, Any]:
    """Keyword arguments for a redis-py client or connection pool: short timeouts, no retry."""
    return {
        "socket_connect_timeout": connect_timeout,
        "socket_timeout": socket_timeout,
        "retry": Retry(NoBackoff(), 0),
        "retry_on_timeout": False,
    }


def options_from_settings() -> dict[str, Any]:
    return connection_options(
        _setting("REDIS_CONNECT_TIMEOUT", CONNECT_TIMEOUT_DEFAULT),
        _setting("REDIS_SOCKET_TIMEOUT", SOCKET_TIMEOUT_DEFAULT),
    )


class Breaker:
    """A per-process circuit breaker (thread-safe; see the module docstring)."""

    def __init__(self, cooldown: Callable[[], float]) -> None:
        self._cooldown = cooldown
        self._lock = threading.Lock()
        self._open_until = 0.0  # monotonic time; 0 = closed
        self._opened_at: float | None = None  # wall-clock start of the current outage
        self._recovery_hooks: list[Callable[[float], None]] = []

    @property
    def is_open(self) -> bool:
        return self._opened_at is not None

    def state(self) -> str:
        if self._opened_at is None:
            return "closed"
        return "open" if time.monotonic() < self._open_until else "half-open"

    def allow(self) -> bool:
        """May the caller ask Redis now? (claims the probe when half-open)"""
        if self._opened_at is None:
            return True
        with self._lock:
            now = time.monotonic()
            if self._opened_at is None:
                return True
            if now < self._open_until:
                return False
            self._open_until = now + self._cooldown()  # this caller is the probe
            return True

    def failure(self, error: BaseException) -> None:
        with self._lock:
            first = self._opened_at is None
            if first:
                self._opened_at = time.time()
            self._open_until = time.monotonic() + self._cooldown()
        if first:
            metrics.record_breaker(True)
            log.warning(
                "redis: unavailable (%s: %s); breaker open, throttles per process, "
                "leaderboards from PostgreSQL",
                type(error).__name__,
                error,
            )

    def success(self) -> None:
        if self._opened_at is None:
            return
        with self._lock:
            since = self._opened_at
            self._opened_at = None
            self._open_until = 0.0
        if since is None:
            return
        metrics.record_breaker(False)
        log.warning("redis: available again after %.1f s; breaker closed", time.time() - since)
        for hook in list(self._recovery_hooks):
            try:
                hook(since)
            except Exception:  # a hook must never fail the request that closed the breaker
                log.exception("redis: recovery hook %r failed", hook)

    def on_recovery(self, hook: Callable[[float], None]) -> None:
        """Call ``hook(outage_start_epoch)`` whenever the breaker closes after an outage."""
        if hook not in self._recovery_hooks:
            self._recovery_hooks.append(hook)

    def reset(self) -> None:
        """Close without running hooks (tests)."""
        with self._lock:
            self._opened_at = None
            self._open_until = 0.0


breaker = Breaker(lambda: _setting("REDIS_BREAKER_COOLDOWN", COOLDOWN_DEFAULT))


@contextmanager
def guarded() -> Iterator[None]:
    """Run a block of Redis calls under the breaker; :class:`RedisUnavailable` on failure."""
    if not breaker.allow():
        raise RedisUnavailable("circuit open: Redis failed recently")
    try:
        yield
    except redis.RedisError as error:
        breaker.failure(error)
        raise RedisUnavailable(str(error)) from error
    breaker.success()


_clients: dict[str, redis.Redis] = {}
_clients_lock = threading.Lock()


def client() -> redis.Redis:
    """This process's client of ``settings.REDIS_URL`` (short timeouts, no retries)."""
    from django.conf import settings

    url = getattr(settings, "REDIS_URL", "") or ""
    if not url:
        raise RedisUnavailable("REDIS_URL is not set")
    found = _clients.get(url)
    if found is None:
        with _clients_lock:
            found = _clients.get(url)
            if found is None:
                found = redis.Redis.from_url(url, protocol=2, **options_from_settings())
                _clients[url] = found
    return found
