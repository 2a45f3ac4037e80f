"""Serving the metrics: never public by default.

Nothing is exported unless ``METRICS_ENABLED`` is on. Then either or both of:

* ``/metrics`` on the service's own port (:mod:`.views`), only when ``METRICS_TOKEN`` is set,
  and only to a request with ``Authorization: Bearer <METRICS_TOKEN>``;
* a separate port bound by a process that serves no traffic: ``METRICS_PORT`` for gunicorn's
  master (``gunicorn.conf.py``), ``CELERY_METRICS_PORT`` for a Celery worker's main process
  (:mod:`.tasks`), on ``METRICS_ADDRESS`` (default ``127.0.0.1``: a scraper on another host
  needs it set, and a firewall in front of it).

In multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``) a scrape reads every process's files,
so whichever process answers, the counters are the sum over all of them. This module
imports no Django: gunicorn's master uses it before any app is loaded.
"""

from __future__ import annotations

import os
from typing import Any

from prometheus_client import REGISTRY, CollectorRegistry


def registry() -> CollectorRegistry:
    """This process's metrics, or in multiprocess mode all processes' (read per scrape)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        collected = CollectorRegistry()
        multiprocess.MultiProcessCollector(collected)
        return collected
    return REGISTRY


def serve_on_port(port: int, address: str = "127.0.0.1") -> Any:
    """Serve the metrics on their own port from a daemon thread of this process; returns
    the server (``shutdown()`` stops it)."""
    from prometheus_client import start_http_server

    server, _thread = start_http_server(port, addr=address, registry=registry())
    return server
