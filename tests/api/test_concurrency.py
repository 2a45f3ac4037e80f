"""Concurrent requests on PostgreSQL: the row lock and the unique constraints decide.

Each thread has its own client and database connection; a barrier releases them together.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection

from config.web.models import IdempotencyKey
from games.daily import utc_today
from games.models import Move, Play
from tests.factories import client_for, make_user, store_daily

from .helpers import start

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8


def run_together(work, n=THREADS):
    """Run ``work(i)`` in ``n`` threads started at once; return their results."""
    barrier = threading.Barrier(n)
    results = [None] * n
    errors = []

    def target(i):
        try:
            barrier.wait(timeout=10)
            results[i] = work(i)
        except Exception as exc:  # reported below, with the thread's traceback lost
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return results


def test_the_same_seq_at_once_applies_exactly_one_move():
    user = make_user()
    play = start(client_for(user), preset="easthaven", seed=42).json()
    moves = [m for m in play["legal_moves"]]
    path = f"/api/v1/plays/{play['id']}/moves"

    def send(i):
        response = client_for(user).post(
            path, {"seq": 0, "move": moves[i % len(moves)]}, format="json"
        )
        return response.status_code, response.json().get("code")

    results = run_together(send)
    statuses = Counter(status for status, _ in results)
    assert statuses[200] == 1, results
    assert statuses[409] == THREADS - 1, results
    assert {code for status, code in results if status == 409} == {"stale_sequence"}
    assert Move.objects.filter(play_id=play["id"]).count() == 1
    assert Play.objects.get(pk=play["id"]).seq == 1


def test_the_same_idempotency_key_at_once_gives_one_answer():
    user = make_user()
    play = start(client_for(user), preset="easthaven", seed=42).json()
    path = f"/api/v1/plays/{play['id']}/moves"

    def send(i):
        response = client_for(user).post(
            path,
            {"seq": 0, "move": {"type": "deal"}},
            format="json",
            headers={"Idempotency-Key": "same-key"},
        )
        return response.status_code, response.content

    results = run_together(send)
    assert {status for status, _ in results} == {200}, results
    assert len({content for _, content in results}) == 1
    assert Move.objects.filter(play_id=play["id"]).count() == 1
    assert IdempotencyKey.objects.count() == 1


def test_simultaneous_ranked_starts_make_one_play():
    store_daily(utc_today())
    user = make_user()
    today = utc_today().isoformat()

    def send(i):
        response = client_for(user).post(
            "/api/v1/plays", {"preset": "easthaven", "daily": today}, format="json"
        )
        return response.status_code, response.json().get("code")

    results = run_together(send)
    statuses = Counter(status for status, _ in results)
    assert statuses[201] == 1, results
    assert statuses[409] == THREADS - 1, results
    assert {code for status, code in results if status == 409} == {"already_played"}
    assert Play.objects.filter(player=user, ranked=True).count() == 1
