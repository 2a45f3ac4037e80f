"""gunicorn's settings for Haven: ``gunicorn -c gunicorn.conf.py config.wsgi:application``.

The Dockerfile and docker-compose.yml start the web server this way; every value can be
changed through the environment (docs/operations/server-edge.md).

* Workers: ``GUNICORN_WORKER_CLASS`` (default ``gthread``), ``GUNICORN_WORKERS`` (default
  one per core on PostgreSQL, one on SQLite) and ``GUNICORN_THREADS`` (default 8). In
  ``bench/api.py`` (bench/README.md, issue 24) gthread with one worker per core and 8
  threads moved the most and spent the least CPU per request: it keeps connections alive,
  and a thread waiting on PostgreSQL leaves the core to another. Each thread holds a
  database connection: workers × threads connections per server (mind
  ``max_connections``, or put PgBouncer in front). ``sync`` and ``gthread`` are Haven's
  subclasses (problem documents for the requests gunicorn refuses itself,
  ``config/gunicorn_workers.py``).
* Timeouts: a worker silent for ``GUNICORN_TIMEOUT`` (30 s) is killed and replaced; on a
  restart or ``SIGTERM`` workers get ``GUNICORN_GRACEFUL_TIMEOUT`` (20 s) to finish their
  requests; idle keep-alive connections close after ``GUNICORN_KEEPALIVE`` (5 s). A worker
  that dies mid-request loses nothing: the request's transaction never committed.
* Request limits, enforced by gunicorn before Django runs: a request line up to 8190 bytes
  (gunicorn's maximum), 100 header fields of up to 8190 bytes each. A request beyond these,
  or one gunicorn cannot parse (a control character in a header), is refused by gunicorn
  itself (``414``, ``431``, ``400``); the workers of ``config/gunicorn_workers.py`` write
  that refusal as a problem document too (``request_line_too_long``,
  ``header_fields_too_large``, ``bad_request``). The limits are generous so that every
  request a client may legitimately send reaches Django.
* ``post_worker_init``: without a broker (``make run``) each worker starts the leaderboard's
  sweeper thread, the beat's catch-up in-process (``leaderboard.sweeper``,
  docs/embedded-mode.md), and the tournaments' preparer thread of seeded deals
  (``tournaments.preparer``); with one it does nothing.
* ``forwarded_allow_ips``: the addresses whose ``X-Forwarded-Proto`` / ``X-Forwarded-For``
  gunicorn trusts. It follows ``TRUSTED_PROXY_COUNT`` (the setting that makes the
  per-address throttles read ``X-Forwarded-For``): with no trusted proxy, none;
  otherwise ``FORWARDED_ALLOW_IPS`` (default ``127.0.0.1,::1``).
* Metrics and logs (docs/operations/observability.md): with ``METRICS_ENABLED`` the hooks at
  the end of this file set up prometheus-client's multiprocess mode (the directory, the
  master's ``METRICS_PORT``, dead workers marked); ``LOG_FORMAT=json`` makes gunicorn's own
  lines JSON too.
"""

from __future__ import annotations

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def _cores() -> int:
    """The cores this process may run on (a container's CPU set, not the host's)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return multiprocessing.cpu_count()


bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:" + os.environ.get("PORT", "8000"))
# On SQLite (no PostgreSQL DATABASE_URL: make run) one process: the in-memory cache, the
# throttle counters and the daily deal's (day, preset) lock live in the process, and SQLite
# takes one writer at a time however many processes there are (docs/embedded-mode.md).
_on_postgres = os.environ.get("DATABASE_URL", "").strip().startswith("postgres")
workers = _int("GUNICORN_WORKERS", _cores() if _on_postgres else 1)
threads = _int("GUNICORN_THREADS", 8)
# sync and gthread are gunicorn's workers with problem documents for the requests gunicorn
# refuses itself (config/gunicorn_workers.py); any other class is used as given. As gunicorn
# does for "sync", more than one thread means gthread.
_WORKERS = {
    "sync": "config.gunicorn_workers.SyncWorker",
    "gthread": "config.gunicorn_workers.ThreadWorker",
}
_worker_name = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
if _worker_name == "sync" and threads > 1:
    _worker_name = "gthread"
worker_class = _WORKERS.get(_worker_name, _worker_name)

timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 20)
keepalive = _int("GUNICORN_KEEPALIVE", 5)
# Recycle workers now and then (jittered so they do not all restart at once).
max_requests = _int("GUNICORN_MAX_REQUESTS", 10_000)
max_requests_jitter = _int("GUNICORN_MAX_REQUESTS_JITTER", 1_000)

limit_request_line = _int("GUNICORN_LIMIT_REQUEST_LINE", 8190)
limit_request_fields = _int("GUNICORN_LIMIT_REQUEST_FIELDS", 100)
limit_request_field_size = _int("GUNICORN_LIMIT_REQUEST_FIELD_SIZE", 8190)

_trusted_proxies = _int("TRUSTED_PROXY_COUNT", 0)
forwarded_allow_ips = (
    os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1") if _trusted_proxies > 0 else ""
)

# GUNICORN_ACCESSLOG="" (empty) switches the access log off.
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
# Workers write their heartbeat files to memory, not to a (possibly slow) disk.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None


def post_worker_init(worker: object) -> None:
    """Django is loaded in the worker now: start the leaderboard's sweeper and the seeded
    deals' preparer if this server has no Celery beat (``LEADERBOARD_SWEEP_SECONDS``,
    ``TOURNAMENTS_PREPARE_SECONDS`` > 0)."""
    from leaderboard.sweeper import start_in_process
    from tournaments import preparer

    start_in_process()
    preparer.start_in_process()


# --- Metrics (docs/operations/observability.md) ----------------------------------------------
# With METRICS_ENABLED, every worker writes its metrics to files in PROMETHEUS_MULTIPROC_DIR
# (prometheus_client's multiprocess mode) and a scrape sums them. The directory is made here,
# in the master, before any worker starts (a fresh one per start unless the operator names
# one, which is then emptied: files of a previous run's processes would be counted again).
# METRICS_PORT serves the metrics from the master, which handles no requests, on
# METRICS_ADDRESS (default 127.0.0.1); the workers' /metrics needs METRICS_TOKEN instead.
_metrics = os.environ.get("METRICS_ENABLED", "").strip().lower() in {"1", "true", "yes", "on"}
if _metrics:
    import tempfile

    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="haven-metrics-")
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)


def on_starting(server):  # noqa: ARG001 - gunicorn's hook signature
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if _metrics and directory:
        for name in os.listdir(directory):
            if name.endswith(".db"):
                os.remove(os.path.join(directory, name))


def when_ready(server):  # noqa: ARG001
    port = _int("METRICS_PORT", 0)
    if _metrics and port:
        from config.observability.exposition import serve_on_port

        serve_on_port(port, os.environ.get("METRICS_ADDRESS", "127.0.0.1"))


def child_exit(server, worker):  # noqa: ARG001
    """A dead worker's live gauges (running tasks, open connections) leave the sums."""
    if _metrics and os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


# LOG_FORMAT=json: gunicorn's own lines (start, worker exits, timeouts) as JSON too, like the
# application's (config.observability.logs); the access log is then best left off
# (GUNICORN_ACCESSLOG=""), since each request has its JSON line with its request id.
if os.environ.get("LOG_FORMAT", "").strip().lower() == "json":
    _json_handler = {
        "class": "logging.StreamHandler",
        "formatter": "json",
        "stream": "ext://sys.stderr",
    }
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
                "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            }
        },
        "handlers": {"json_console": _json_handler},
        "loggers": {
            "gunicorn.error": {"handlers": ["json_console"], "level": "INFO", "propagate": False},
            "gunicorn.access": {"handlers": ["json_console"], "level": "INFO", "propagate": False},
        },
    }
