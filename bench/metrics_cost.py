"""The CPU the metrics add to one move request, measured in-process (``bench/api.py --metrics``
runs it; standalone: ``.venv/bin/python bench/metrics_cost.py``).

A move request with ``METRICS_ENABLED`` records: the request's counter and latency
histogram (``config.observability.middleware``), the moves-applied counter (the
``moves_applied`` signal's receiver) and this process's open-connection gauge. This times
exactly those calls, in prometheus-client's multiprocess mode (a scratch
``PROMETHEUS_MULTIPROC_DIR``, as under gunicorn), with process CPU time, so that the figure
does not depend on what else the machine is doing. Prints microseconds per move request.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUTE = "api/v1/plays/<uuid:play_id>/moves"


def main(count: int = 50_000) -> None:
    with tempfile.TemporaryDirectory(prefix="haven-metrics-cost-") as directory:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory
        os.environ["METRICS_ENABLED"] = "1"
        os.environ.pop("DATABASE_URL", None)  # SQLite: a connection to count, nothing else
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.db import connection

        from config.observability import metrics

        connection.ensure_connection()

        def one_move_request() -> None:
            metrics.record_request(ROUTE, "POST", 200, 0.004)
            metrics.record_moves_applied("westcliff", 1)
            metrics.update_open_connections()

        for _ in range(1000):  # warm: the label children and their files exist
            one_move_request()
        start = time.process_time()
        for _ in range(count):
            one_move_request()
        per_request = (time.process_time() - start) / count
        print(f"metrics CPU per move request: {per_request * 1e6:.1f} us")


if __name__ == "__main__":
    main()
