"""The move path's own transaction on PostgreSQL (games.movelog.MoveTransaction): BEGIN with
the row lock, COMMIT with the write. Tests wrapped in a transaction never take that route,
so these run with real commits and check that no request leaves a transaction open."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from psycopg.pq import TransactionStatus

from games import engine
from games.models import Move, Play
from games.signals import play_finished
from tests.factories import client_for, make_user

from .helpers import assert_problem, move, start, win_seahaven
from .test_batches import plan, send

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def idle() -> bool:
    return connection.connection.info.transaction_status == TransactionStatus.IDLE


def locked_elsewhere(play_id) -> bool:
    """Can another connection lock the play row right now?"""
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        dbname=settings["NAME"],
        autocommit=False,
    ) as other:
        try:
            other.execute("SELECT 1 FROM games_play WHERE id = %s FOR UPDATE NOWAIT", [play_id])
        except psycopg.errors.LockNotAvailable:
            return True
        return False


@pytest.fixture
def client():
    return client_for(make_user())


@pytest.fixture
def play(client):
    return start(client, preset="westcliff", seed=21).json()


def test_moves_and_batches_commit_and_leave_no_transaction_open(client, play):
    first = plan(play["id"], 1)[0]
    with CaptureQueriesContext(connection) as queries:
        after = move(client, play, first)
    assert after.status_code == 200, after.content
    # (the first request of a user also reads is_active: accounts.auth)
    statements = [q["sql"] for q in queries.captured_queries if "auth_user" not in q["sql"]]
    assert statements[0].startswith("BEGIN; SELECT") and "FOR UPDATE" in statements[0]
    assert statements[1].startswith("WITH log AS (INSERT") and statements[1].endswith("COMMIT")
    assert len(statements) == 2
    assert idle()
    batched = send(client, after.json(), plan(play["id"], 10))
    assert batched.status_code == 200, batched.content
    assert idle() and not locked_elsewhere(play["id"])
    assert Move.objects.filter(play_id=play["id"]).count() == 11
    assert Play.objects.get(pk=play["id"]).seq == 11


@pytest.mark.parametrize("kind", ["illegal", "stale", "not_found", "undo"])
def test_refusals_roll_back(client, play, kind):
    moves = [*plan(play["id"], 3), {"type": "move", "from": "t0", "to": "t0"}]
    if kind == "illegal":
        assert_problem(send(client, play, moves), 422, "illegal_move")
    elif kind == "stale":
        assert_problem(send(client, play, moves[:3], seq=5), 409, "stale_sequence")
    elif kind == "not_found":
        other = client_for(make_user())
        assert_problem(send(other, play, moves[:3]), 404, "not_found")
    else:
        assert_problem(move(client, play, {"type": "undo"}), 422, "nothing_to_undo")
    assert idle() and not locked_elsewhere(play["id"])
    assert Move.objects.filter(play_id=play["id"]).count() == 0
    assert move(client, play, moves[0]).status_code == 200


def test_an_unexpected_error_rolls_back_and_frees_the_row(client, play, monkeypatch):
    def broken(state):
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "state_hash", broken)
    with pytest.raises(RuntimeError):
        send(client, play, plan(play["id"], 3))
    assert idle() and not locked_elsewhere(play["id"])
    monkeypatch.undo()
    assert Move.objects.filter(play_id=play["id"]).count() == 0
    assert send(client, play, plan(play["id"], 3)).status_code == 200


def test_the_end_is_announced_after_the_commit(client, seahaven_win_deck):
    play = start(client, preset="seahaven", deck=seahaven_win_deck).json()
    seen = []

    def receiver(sender, play, **kwargs):
        seen.append((play.status, idle(), Play.objects.get(pk=play.pk).status))

    play_finished.connect(receiver)
    try:
        responses = list(win_seahaven(client, play))
    finally:
        play_finished.disconnect(receiver)
    assert responses[-1].json()["status"] == "won"
    assert seen == [("won", True, "won")]


def test_moves_may_commit_without_waiting_for_the_flush(client, play, settings):
    settings.MOVES_SYNCHRONOUS_COMMIT = False
    batched = send(client, play, plan(play["id"], 5))
    assert batched.status_code == 200, batched.content
    assert idle()
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"  # SET LOCAL ended with the transaction
    assert Play.objects.get(pk=play["id"]).seq == 5


def test_a_dead_kept_connection_is_replaced_before_the_lock(client, play):
    """The lock stands in for Django's per-request health check on a kept connection."""
    first = plan(play["id"], 1)[0]
    connection.ensure_connection()
    assert connection.health_check_enabled  # conn_health_checks=True in the settings
    backend = connection.connection.info.backend_pid
    with psycopg.connect(
        host=connection.settings_dict["HOST"],
        port=connection.settings_dict["PORT"] or 5432,
        user=connection.settings_dict["USER"],
        dbname=connection.settings_dict["NAME"],
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [backend])
    connection.health_check_done = False  # as at the start of a request
    with CaptureQueriesContext(connection) as queries:
        response = move(client, play, first)
    assert response.status_code == 200, response.content
    assert connection.connection.info.backend_pid != backend
    assert not [q for q in queries.captured_queries if q["sql"] == "SELECT 1"]
    assert Move.objects.filter(play_id=play["id"]).count() == 1
