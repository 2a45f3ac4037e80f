"""Concurrent batches on PostgreSQL: the row lock orders them, each is all or nothing."""

from __future__ import annotations

from collections import Counter

import pytest

from config.web.models import IdempotencyKey
from games.models import Move, Play
from tests.factories import client_for, make_user

from .helpers import start
from .test_batches import plan
from .test_concurrency import THREADS, run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_batches_for_the_same_seq_at_once_apply_exactly_one():
    user = make_user()
    play = start(client_for(user), preset="westcliff", seed=11).json()
    batch = plan(play["id"], 20)
    path = f"/api/v1/plays/{play['id']}/moves"

    def send(i):
        # Different lengths, so a half-applied loser would show in the row count.
        response = client_for(user).post(path, {"seq": 0, "moves": batch[: 10 + i]}, format="json")
        return response.status_code, response.json().get("code"), response.json().get("seq")

    results = run_together(send)
    statuses = Counter(status for status, _, _ in results)
    assert statuses[200] == 1, results
    assert statuses[409] == THREADS - 1, results
    winner = next(seq for status, _, seq in results if status == 200)
    assert {code for status, code, _ in results if status == 409} == {"stale_sequence"}
    assert Move.objects.filter(play_id=play["id"]).count() == winner
    assert Play.objects.get(pk=play["id"]).seq == winner
    seqs = list(Move.objects.filter(play_id=play["id"]).values_list("seq", flat=True))
    assert seqs == list(range(winner))


def test_a_batch_and_single_moves_at_once_never_interleave():
    user = make_user()
    play = start(client_for(user), preset="westcliff", seed=12).json()
    batch = plan(play["id"], 30)
    path = f"/api/v1/plays/{play['id']}/moves"

    def send(i):
        if i == 0:
            body = {"seq": 0, "moves": batch}
        else:
            body = {"seq": 0, "move": batch[0]}
        response = client_for(user).post(path, body, format="json")
        return i, response.status_code

    results = run_together(send)
    applied = [i for i, status in results if status == 200]
    assert len(applied) == 1, results
    expected = 30 if applied == [0] else 1
    assert Move.objects.filter(play_id=play["id"]).count() == expected
    assert Play.objects.get(pk=play["id"]).seq == expected


def test_the_same_batch_key_at_once_gives_one_answer():
    user = make_user()
    play = start(client_for(user), preset="westcliff", seed=13).json()
    batch = plan(play["id"], 15)
    path = f"/api/v1/plays/{play['id']}/moves"

    def send(i):
        response = client_for(user).post(
            path, {"seq": 0, "moves": batch}, format="json", headers={"Idempotency-Key": "b"}
        )
        return response.status_code, response.content

    results = run_together(send)
    assert {status for status, _ in results} == {200}, results
    assert len({content for _, content in results}) == 1
    assert Move.objects.filter(play_id=play["id"]).count() == 15
    assert IdempotencyKey.objects.count() == 1
