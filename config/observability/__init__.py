"""Operating Haven: Prometheus metrics, request ids and JSON log lines (issue 41).

* :mod:`.metrics` — every metric Haven exports and the small helpers that record them
  (``record_fairplay_flag`` for the fair-play app among them). The apps call the helpers
  from their signal receivers; the game library never sees them.
* :mod:`.exposition` — ``/metrics`` (off unless ``METRICS_ENABLED``; bearer token
  ``METRICS_TOKEN``) and the separate-port servers for gunicorn's master and Celery workers.
* :mod:`.context` — the request id, user, play and route of the request (or task) a thread
  is working for, read by the log filter.
* :mod:`.middleware` — the outermost middleware: request id in and out, the request's metrics
  and its log line.
* :mod:`.logs` — ``LOG_FORMAT=json|text``: the logging configuration.
* :mod:`.tasks` — Celery signals: task metrics and the request id carried into tasks.

docs/operations/observability.md is the operator's page.
"""
