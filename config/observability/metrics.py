"""Every metric Haven exports, and the helpers that record them.

The metrics are ``prometheus_client`` objects in the default registry. Under gunicorn (or a
Celery prefork pool) ``PROMETHEUS_MULTIPROC_DIR`` is set before the worker processes start,
so each process writes its values to files there and a scrape sums them
(:mod:`.exposition`); a gauge says how (``livesum``: the live processes' values added up).

The helpers do nothing unless ``METRICS_ENABLED`` is on, so a deployment without metrics
pays one settings lookup per call. Labels are bounded: a route pattern, never a raw path; a
preset, a rule code, a throttle scope, a task name, a detector name — never an id.

Callers: the request middleware (:mod:`.middleware`), the throttle middleware
(``config.web.throttling``), the Redis breaker (``config.redis_guard``), the Celery signals
(:mod:`.tasks`), and the apps' signal receivers (``games.instrumentation``; the fair-play
app calls :func:`record_fairplay_flag`). This module imports nothing from the apps.
"""

from __future__ import annotations

import os
import threading
import weakref
from typing import Any

from django.conf import settings

# prometheus_client writes to PROMETHEUS_MULTIPROC_DIR from the first metric on: a directory
# an operator named but nobody created yet must not stop the process.
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)

from prometheus_client import (  # noqa: E402 - after the directory exists
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)

# The *_created series (each counter's creation time) double the series for nothing a
# dashboard here uses.
disable_created_metrics()

# Seconds; the move path answers in milliseconds, the daily deal on demand in seconds.
LATENCY_BUCKETS = (
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
)  # fmt: skip
SLOW_BUCKETS = (0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0)

# --- Requests (config.observability.middleware) ---------------------------------------------
HTTP_REQUESTS = Counter(
    "haven_http_requests",
    "HTTP requests answered, by route pattern, method and status",
    ["route", "method", "status"],
)
HTTP_LATENCY = Histogram(
    "haven_http_request_duration_seconds",
    "Time from the first middleware to the response, by route pattern, method and status class",
    ["route", "method", "status_class"],
    buckets=LATENCY_BUCKETS,
)
THROTTLED = Counter(
    "haven_throttled_requests", "Requests refused with 429, by throttle scope", ["scope"]
)

# --- Plays and moves (games.instrumentation, from the games app's signals) --------------------
MOVES_APPLIED = Counter(
    "haven_moves_applied", "Moves applied (undo and resign included), by preset", ["preset"]
)
MOVES_REFUSED = Counter(
    "haven_moves_refused",
    "Move requests refused by the service: the refusal's code and, for illegal_move, the "
    "engine's rule code",
    ["code", "rule"],
)
PLAYS_STARTED = Counter(
    "haven_plays_started",
    "Plays started, by preset and kind (ranked, practice)",
    ["preset", "kind"],
)
PLAYS_FINISHED = Counter(
    "haven_plays_finished",
    "Plays that ended (won, lost, resigned), by preset and outcome",
    ["preset", "outcome"],
)

# --- The daily deals (games.instrumentation) -------------------------------------------------
DAILY_PREPARE_SECONDS = Histogram(
    "haven_daily_prepare_seconds",
    "Time to prepare one daily deal (search, solve, store), by preset",
    ["preset"],
    buckets=SLOW_BUCKETS,
)
DAILY_PREPARED = Counter(
    "haven_daily_deals_prepared", "Daily deals stored, by preset and verdict", ["preset", "verdict"]
)
DAILY_REJECTED = Counter(
    "haven_daily_candidates_rejected",
    "Candidates the daily search rejected before the stored one, by preset",
    ["preset"],
)
DAILY_DAYS_AHEAD = Gauge(
    "haven_daily_days_ahead",
    "Days after today whose deals are all stored (0: only today; -1: not even today)",
    multiprocess_mode="mostrecent",
)

# --- Redis circuit breaker (config.redis_guard) -----------------------------------------------
BREAKER_OPEN = Gauge(
    "haven_redis_breaker_open",
    "Processes whose Redis circuit breaker is open (or half-open) now",
    multiprocess_mode="livesum",
)
BREAKER_OPENED = Counter(
    "haven_redis_breaker_openings", "Times a process's Redis circuit breaker opened"
)

# --- Celery (config.observability.tasks) ----------------------------------------------------
TASKS_SENT = Counter(
    "haven_celery_tasks_sent", "Tasks published to the broker (or run eagerly), by task", ["task"]
)
TASKS_RUNNING = Gauge(
    "haven_celery_tasks_running",
    "Tasks running now, by task",
    ["task"],
    multiprocess_mode="livesum",
)
TASKS_FINISHED = Counter(
    "haven_celery_tasks_finished",
    "Task runs that ended, by task and state (SUCCESS, FAILURE, RETRY)",
    ["task", "state"],
)
TASKS_FAILED = Counter("haven_celery_tasks_failed", "Task runs that raised, by task", ["task"])
TASKS_RETRIED = Counter("haven_celery_tasks_retried", "Task retries scheduled, by task", ["task"])
TASK_SECONDS = Histogram(
    "haven_celery_task_duration_seconds", "Task run time, by task", ["task"], buckets=SLOW_BUCKETS
)

# --- Database connections (connection_created; the middleware) --------------------------------
DB_CONNECTIONS_OPENED = Counter(
    "haven_db_connections_opened", "Database connections opened, by alias", ["alias"]
)
DB_CONNECTIONS_OPEN = Gauge(
    "haven_db_connections_open",
    "Database connections held open (all live processes, all threads), by alias",
    ["alias"],
    multiprocess_mode="livesum",
)

# --- Fair play (the fairplay app) -----------------------------------------------------------
FAIRPLAY_FLAGS = Counter(
    "haven_fairplay_flags", "Plays a fair-play detector flagged, by detector", ["detector"]
)


def enabled() -> bool:
    return bool(getattr(settings, "METRICS_ENABLED", False))


def record_request(route: str, method: str, status: int, seconds: float) -> None:
    if not enabled():
        return
    HTTP_REQUESTS.labels(route, method, str(status)).inc()
    HTTP_LATENCY.labels(route, method, f"{status // 100}xx").observe(seconds)


def record_throttled(scope: str) -> None:
    if enabled():
        THROTTLED.labels(scope).inc()


def record_moves_applied(preset: str, count: int) -> None:
    if enabled():
        MOVES_APPLIED.labels(preset).inc(count)


def record_move_refused(code: str, rule: str = "") -> None:
    if enabled():
        MOVES_REFUSED.labels(code, rule).inc()


def record_play_started(preset: str, ranked: bool) -> None:
    if enabled():
        PLAYS_STARTED.labels(preset, "ranked" if ranked else "practice").inc()


def record_play_finished(preset: str, outcome: str) -> None:
    if enabled():
        PLAYS_FINISHED.labels(preset, outcome).inc()


def record_daily_prepared(preset: str, verdict: str, rejected: int, seconds: float) -> None:
    if not enabled():
        return
    DAILY_PREPARE_SECONDS.labels(preset).observe(seconds)
    DAILY_PREPARED.labels(preset, verdict).inc()
    DAILY_REJECTED.labels(preset).inc(rejected)


def record_daily_days_ahead(days: int) -> None:
    if enabled():
        DAILY_DAYS_AHEAD.set(days)


def record_breaker(is_open: bool) -> None:
    """The breaker of this process changed state (``config.redis_guard``)."""
    if not enabled():
        return
    BREAKER_OPEN.set(1 if is_open else 0)
    if is_open:
        BREAKER_OPENED.inc()


def record_fairplay_flag(detector: str) -> None:
    """One play flagged by ``detector`` (a detector's stable name, never a player or play)."""
    if enabled():
        FAIRPLAY_FLAGS.labels(detector).inc()


# Database wrappers (one per thread and alias) that opened a connection in this process; a
# wrapper whose ``connection`` is None has closed it. Weak: a finished thread's wrapper goes.
_wrappers: weakref.WeakSet[Any] = weakref.WeakSet()
_wrappers_lock = threading.Lock()


def on_connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``django.db.backends.signals.connection_created`` receiver. The wrapper is kept even
    with metrics off (a weak reference, once per connection), so the gauge is right
    whenever they are read."""
    with _wrappers_lock:
        _wrappers.add(connection)
    if enabled():
        DB_CONNECTIONS_OPENED.labels(connection.alias).inc()


def update_open_connections() -> None:
    """Set this process's open-connection gauge (called at the end of each request)."""
    if not enabled():
        return
    counts: dict[str, int] = {}
    with _wrappers_lock:
        wrappers = list(_wrappers)
    for wrapper in wrappers:
        is_open = getattr(wrapper, "connection", None) is not None
        counts[wrapper.alias] = counts.get(wrapper.alias, 0) + int(is_open)
    for alias, count in counts.items():
        DB_CONNECTIONS_OPEN.labels(alias).set(count)
