"""Metrics under gunicorn with two worker processes (prometheus-client's multiprocess mode):
a scrape after real requests sums the counters of both workers, from a worker's /metrics
(with the token) and from the master's own port, and a killed worker's counts stay.

gunicorn runs the repository's gunicorn.conf.py on the test database (PostgreSQL: the
workers read what this process commits) with sync workers, so that concurrent requests
spread over both processes; no Redis (the cache is per process, Celery eager).
"""

from __future__ import annotations

import json
import os
import signal
import socket
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from prometheus_client.mmap_dict import MmapedDict
from prometheus_client.parser import text_string_to_metric_families

from tests.faults.servers import Server, children, database_url, server_env, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TOKEN = "gunicorn-scrape-token"
PRESETS_ROUTE = "api/v1/presets"
PORTS = range(18900, 19000)  # this test's own range on a shared machine


def free_ports(count: int) -> list[int]:
    found = []
    for port in PORTS:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        found.append(port)
        if len(found) == count:
            return found
    raise RuntimeError(f"no {count} free ports in {PORTS}")


class MetricsServer(Server):
    def __init__(self, multiproc_dir: Path) -> None:
        self.port, self.metrics_port = free_ports(2)
        env = server_env(
            "",  # no Redis: the metrics do not need it
            database_url("haven-ops-metrics"),
            PORT=str(self.port),
            GUNICORN_WORKERS="2",
            GUNICORN_WORKER_CLASS="sync",
            GUNICORN_THREADS="1",
            METRICS_ENABLED="1",
            METRICS_TOKEN=TOKEN,
            METRICS_PORT=str(self.metrics_port),
            PROMETHEUS_MULTIPROC_DIR=str(multiproc_dir),
        )
        super().__init__(
            ["gunicorn", "-c", "gunicorn.conf.py", "config.wsgi:application"], env, "ops-metrics"
        )
        self.base = f"http://127.0.0.1:{self.port}"
        try:
            wait_until(self._ready, 60, step=0.2, what="gunicorn with metrics up")
        except TimeoutError:
            output = self.output()
            self.stop()
            raise AssertionError(f"gunicorn did not start:\n{output[-3000:]}") from None

    def _ready(self) -> bool:
        assert self.process.poll() is None, self.output()[-3000:]
        requests.get(f"{self.base}/api/v1/health", timeout=2)
        requests.get(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=2)
        return len(children(self.process.pid)) == 2


@pytest.fixture
def server(tmp_path):
    running = MetricsServer(tmp_path / "prometheus")
    yield running
    running.stop()


def samples(text: str, name: str, **labels: str) -> float:
    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                total += sample.value
    return total


def per_process_presets_counts(directory: Path) -> dict[int, float]:
    """haven_http_requests_total{route=presets} as each process's file holds it."""
    counts: dict[int, float] = {}
    for path in directory.glob("counter_*.db"):
        pid = int(path.stem.split("_")[1])
        for key, value, _timestamp, _pos in MmapedDict.read_all_values_from_file(str(path)):
            _metric, sample, labels, _help = json.loads(key)
            if sample == "haven_http_requests_total" and labels.get("route") == PRESETS_ROUTE:
                counts[pid] = counts.get(pid, 0.0) + value
    return counts


def worker_scrape(server: MetricsServer) -> str:
    response = requests.get(
        f"{server.base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10
    )
    assert response.status_code == 200, response.text
    return response.text


def master_scrape(server: MetricsServer) -> str:
    response = requests.get(f"http://127.0.0.1:{server.metrics_port}/metrics", timeout=10)
    assert response.status_code == 200
    return response.text


def presets_total(text: str) -> float:
    return samples(text, "haven_http_requests_total", route=PRESETS_ROUTE, status="200")


def test_a_scrape_sums_the_counters_of_both_workers(server, tmp_path):
    directory = tmp_path / "prometheus"
    assert requests.get(f"{server.base}/metrics", timeout=5).status_code == 401

    def get(_):
        return requests.get(f"{server.base}/api/v1/presets", timeout=30).status_code

    sent = 0
    with ThreadPoolExecutor(8) as pool:
        for _batch in range(6):  # until both workers have answered some
            assert set(pool.map(get, range(40))) == {200}
            sent += 40
            if sum(1 for n in per_process_presets_counts(directory).values() if n) >= 2:
                break
    by_process = per_process_presets_counts(directory)
    assert sum(1 for n in by_process.values() if n) >= 2, by_process
    assert sum(by_process.values()) == sent

    # A play and a move, counted by whichever worker applied them.
    auth = requests.post(
        f"{server.base}/api/v1/auth/register",
        json={"username": "scraped", "password": "correct-horse-battery"},
        timeout=30,
    )
    assert auth.status_code == 201, auth.text
    headers = {"Authorization": f"Bearer {auth.json()['access']}"}
    play = requests.post(
        f"{server.base}/api/v1/plays",
        json={"preset": "seahaven", "seed": 7},
        headers=headers,
        timeout=30,
    ).json()
    legal = play["legal_moves"][0]
    moved = requests.post(
        f"{server.base}/api/v1/plays/{play['id']}/moves",
        json={"seq": 0, "move": legal},
        headers=headers,
        timeout=30,
    )
    assert moved.status_code == 200, moved.text

    for text in (worker_scrape(server), master_scrape(server)):
        assert presets_total(text) == sent
        assert samples(text, "haven_plays_started_total", preset="seahaven") == 1
        assert samples(text, "haven_moves_applied_total", preset="seahaven") == 1
        route = "api/v1/plays/<uuid:play_id>/moves"
        assert samples(text, "haven_http_request_duration_seconds_count", route=route) == 1
        assert samples(text, "haven_db_connections_opened_total", alias="default") >= 2

    # A worker killed: gunicorn replaces it; its counts stay in the sums (its live gauges go).
    victim = max(by_process, key=lambda pid: by_process[pid])
    os.kill(victim, signal.SIGKILL)
    wait_until(
        lambda: (
            victim not in children(server.process.pid) and len(children(server.process.pid)) == 2
        ),
        30,
        what="the killed worker replaced",
    )
    assert presets_total(master_scrape(server)) == sent
