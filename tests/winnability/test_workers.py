"""The winnability run on real Celery worker processes, Redis and PostgreSQL (CI runs
these: a skip under ``CI=true`` is a failure).

The workers (``celery -A tests.winnability.worker_app worker --pool=solo``) are started by
the daily tests' ``Workers`` helper on a queue of their own; this process runs the command
(or sends a chunk) against the broker and watches the rows appear.
"""

from __future__ import annotations

import io
import signal
import uuid

import pytest
import redis
from django.core.management import call_command

from games.winnability import tasks
from games.winnability.configs import solver_version
from games.winnability.models import DealResult
from tests.daily.conftest import Workers, broker_url, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def workers(transactional_db, non_eager, tmp_path):
    queue = f"haven-test-winnability-{uuid.uuid4().hex[:10]}"
    pool = Workers(queue, tmp_path, app="tests.winnability.worker_app")
    try:
        yield pool
    finally:
        pool.stop_all()
        for proc in pool.procs:  # shown by pytest when the test failed
            print(f"--- {proc.logfile.name} ---\n{pool.log(proc)}")  # noqa: T201
        _delete_queue_keys(queue)


def _delete_queue_keys(queue: str) -> None:
    """Delete this test's queue and bindings only: the broker database is shared with other
    test sessions, whose unacknowledged messages (``unacked*``) must survive ours."""
    import redis

    client = redis.Redis.from_url(broker_url())
    keys = list(client.scan_iter(match=f"*{queue}*"))
    if keys:
        client.delete(*keys)


def _rows(preset="seahaven"):
    return DealResult.objects.filter(preset=preset, solver_version=solver_version())


def test_the_command_fans_chunks_out_to_real_workers_and_a_rerun_sends_nothing(workers):
    workers.start("w1")
    workers.start("w2")
    args = ["winnability", "--preset", "seahaven", "--seeds", "1-12", "--budgets", "2,5"]
    args += ["--chunk", "3", "--queue", workers.queue, "--timeout", "120", "--no-progress"]
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    assert "seahaven @2s: 12 deals" in out.getvalue()
    rows = _rows()
    assert rows.count() == 12
    assert set(rows.values_list("budget", flat=True)) == {2.0}  # all decided at 2 s
    assert {r.verdict for r in rows} <= {"winnable", "unwinnable"}
    assert all(r.interpreter and r.host for r in rows)
    logs = workers.log(workers.procs[0]) + workers.log(workers.procs[1])
    assert "winnability.solve_chunk" in logs
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    assert "seahaven @2s: 0 deals" in out.getvalue()
    assert _rows().count() == 12


def test_a_worker_killed_mid_chunk_loses_no_deal(workers):
    """acks_late: the SIGKILLed worker never acknowledged the chunk, Redis redelivers it
    (visibility timeout 5 s here) to the next worker, which solves only the deals the dead
    one had not stored."""
    doomed = workers.start("doomed", HAVEN_TEST_DEAL_DELAY="1.0", HAVEN_TEST_VISIBILITY="5")
    workers.wait_ready(doomed)
    seeds = list(range(1, 9))
    sent = tasks.solve_chunk.apply_async(
        ("seahaven", "", seeds, 5.0, solver_version()), queue=workers.queue
    )
    wait_for(lambda: _rows().count() >= 2, 60, "the first deals of the chunk")
    workers.kill(doomed, signal.SIGKILL)
    assert doomed.returncode == -signal.SIGKILL
    stored = _rows().count()
    assert 2 <= stored < len(seeds)

    rescuer = workers.start("rescuer", HAVEN_TEST_VISIBILITY="5")
    wait_for(lambda: _rows().count() == len(seeds), 120, "the redelivered chunk")
    assert sorted(_rows().values_list("seed", flat=True)) == seeds
    # the rows are in before the worker logs the task's result: wait for the log line
    wait_for(lambda: "succeeded" in workers.log(rescuer), 30, "the chunk's result logged")
    # Nobody reads a chunk's return value: no result key is left in Redis for a day.
    assert not redis.Redis.from_url(broker_url()).exists(f"celery-task-meta-{sent.id}")
    log = workers.log(rescuer)
    assert "winnability.solve_chunk" in log
    assert f"'skipped': {stored}" in log or f"'skipped': {stored + 1}" in log, log
