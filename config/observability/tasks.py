"""Celery signals: task metrics, and the request id carried from a request into its tasks.

* ``before_task_publish``: the publishing request's id goes into the message's headers
  (``haven_request_id``), and the task counts as sent.
* ``task_prerun``: a worker binds that id (and the task's id and name) for the task's log
  lines and logs the start; the running gauge goes up. An eagerly run task (no broker: the
  development default, and the tests) was never published: it counts as sent here, and
  runs inside the request's own context, so it keeps the request id anyway.
* ``task_postrun``: the end is logged with its state and duration, the gauge goes down.
* ``task_failure`` / ``task_retry``: their counters.
* ``worker_process_shutdown``: a prefork child's live gauges are dropped from the files.

:func:`connect` is called once from ``config/celery.py``.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from typing import Any

from celery import signals
from celery.exceptions import Retry

from . import context, metrics

log = logging.getLogger("haven.tasks")

# task id -> (start time, context tokens); a worker thread runs one task at a time, but
# an eager task may run inside another, so the state is keyed by the task's id.
_running: dict[str, tuple[float, dict[str, Any]]] = {}
# task id -> FAILURE / RETRY, from their signals, for a run that ends without a state.
_outcome: dict[str, str] = {}


def _name(sender: Any) -> str:
    return str(getattr(sender, "name", sender))


def on_publish(sender: Any = None, headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    request_id = context.get("request_id")
    if headers is not None and request_id and context.TASK_HEADER not in headers:
        headers[context.TASK_HEADER] = request_id
    if metrics.enabled():
        metrics.TASKS_SENT.labels(str(sender)).inc()  # sender: the task's name


def on_prerun(task_id: str = "", task: Any = None, **kwargs: Any) -> None:
    name = _name(task)
    request = getattr(task, "request", None)
    eager = bool(getattr(request, "is_eager", False))
    # A worker sees the message's headers as the request's attributes; apply() (eager) keeps
    # the headers it was given under request.headers.
    carried = getattr(request, context.TASK_HEADER, None) or (
        (getattr(request, "headers", None) or {}).get(context.TASK_HEADER)
    )
    fields: dict[str, Any] = {"task_id": task_id, "task_name": name}
    if context.well_formed(carried):
        fields["request_id"] = carried
    _running[task_id] = (time.perf_counter(), context.bind(**fields))
    if metrics.enabled():
        if eager:
            metrics.TASKS_SENT.labels(name).inc()
        metrics.TASKS_RUNNING.labels(name).inc()
    log.info("task %s %s started", name, task_id, extra={"eager": eager})


def on_postrun(
    task_id: str = "", task: Any = None, state: str | None = None, **kwargs: Any
) -> None:
    name = _name(task)
    started, tokens = _running.pop(task_id, (None, None))
    known = _outcome.pop(task_id, None)
    if state is None and known is None:
        # An eager task whose error propagates to the caller (CELERY_TASK_EAGER_PROPAGATES)
        # ends without a state, and Celery sends no task_failure / task_retry for it: the
        # error is still in flight here.
        known = "RETRY" if isinstance(sys.exc_info()[1], Retry) else "FAILURE"
        if metrics.enabled():
            counter = metrics.TASKS_RETRIED if known == "RETRY" else metrics.TASKS_FAILED
            counter.labels(name).inc()
    state = state or known or "UNKNOWN"
    seconds = time.perf_counter() - started if started is not None else None
    if metrics.enabled():
        metrics.TASKS_RUNNING.labels(name).dec()
        metrics.TASKS_FINISHED.labels(name, state).inc()
        if seconds is not None:
            metrics.TASK_SECONDS.labels(name).observe(seconds)
    log.info(
        "task %s %s ended: %s",
        name,
        task_id,
        state,
        extra={"state": state, "duration_ms": round((seconds or 0.0) * 1000, 3)},
    )
    if tokens:
        context.unbind(tokens)


def on_failure(sender: Any = None, task_id: str = "", **kwargs: Any) -> None:
    _outcome[task_id] = "FAILURE"
    if metrics.enabled():
        metrics.TASKS_FAILED.labels(_name(sender)).inc()


def on_retry(sender: Any = None, request: Any = None, **kwargs: Any) -> None:
    task_id = getattr(request, "id", None)
    if task_id:
        _outcome[task_id] = "RETRY"
    if metrics.enabled():
        metrics.TASKS_RETRIED.labels(_name(sender)).inc()


def on_child_shutdown(pid: int | None = None, **kwargs: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid())


def on_worker_init(**kwargs: Any) -> Any:
    """A worker's own scrape port (``CELERY_METRICS_PORT``), served by the main process
    before it forks its pool."""
    from django.conf import settings

    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:  # a previous run's children would be counted again: only ours stay
        own = f"_{os.getpid()}.db"
        for name in os.listdir(directory):
            if name.endswith(".db") and not name.endswith(own):
                os.remove(os.path.join(directory, name))
    port = getattr(settings, "CELERY_METRICS_PORT", 0)
    if metrics.enabled() and port:
        from .exposition import serve_on_port

        return serve_on_port(port, getattr(settings, "METRICS_ADDRESS", "127.0.0.1"))
    return None


def connect() -> None:
    signals.before_task_publish.connect(on_publish, weak=False, dispatch_uid="haven.publish")
    signals.task_prerun.connect(on_prerun, weak=False, dispatch_uid="haven.prerun")
    signals.task_postrun.connect(on_postrun, weak=False, dispatch_uid="haven.postrun")
    signals.task_failure.connect(on_failure, weak=False, dispatch_uid="haven.failure")
    signals.task_retry.connect(on_retry, weak=False, dispatch_uid="haven.retry")
    signals.worker_process_shutdown.connect(
        on_child_shutdown, weak=False, dispatch_uid="haven.child_shutdown"
    )
    signals.worker_init.connect(on_worker_init, weak=False, dispatch_uid="haven.worker_init")
