"""Idempotency-Key on POST /plays and POST /plays/{id}/moves."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.utils import timezone

from config.web.models import IdempotencyKey
from games.models import Move, Play

from .helpers import assert_problem, start

pytestmark = pytest.mark.django_db


def post(client, path, body, key):
    return client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_retried_move_returns_the_first_answer_and_applies_once(client):
    play = start(client, preset="easthaven", seed=42).json()
    path = f"/api/v1/plays/{play['id']}/moves"
    body = {"seq": 0, "move": {"type": "deal"}}
    first = post(client, path, body, "move-1")
    again = post(client, path, body, "move-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Move.objects.filter(play_id=play["id"]).count() == 1
    assert Play.objects.get(pk=play["id"]).seq == 1


def test_the_replay_is_the_first_answer_even_after_the_play_moved_on(client):
    play = start(client, preset="easthaven", seed=42).json()
    path = f"/api/v1/plays/{play['id']}/moves"
    first = post(client, path, {"seq": 0, "move": {"type": "deal"}}, "k1")
    client.post(path, {"seq": 1, "move": {"type": "resign"}}, format="json")
    again = post(client, path, {"seq": 0, "move": {"type": "deal"}}, "k1")
    assert again.json() == first.json()
    assert again.json()["status"] == "playing"


def test_a_retried_start_creates_one_play(client):
    body = {"preset": "westcliff", "seed": 5}
    first = post(client, "/api/v1/plays", body, "start-1")
    again = post(client, "/api/v1/plays", body, "start-1")
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert Play.objects.count() == 1


def test_the_same_key_with_another_body_is_422(client):
    post(client, "/api/v1/plays", {"preset": "westcliff", "seed": 5}, "start-2")
    response = post(client, "/api/v1/plays", {"preset": "westcliff", "seed": 6}, "start-2")
    assert_problem(response, 422, "idempotency_key_reused")
    assert Play.objects.count() == 1


def test_the_same_key_on_another_path_is_422(client):
    play = post(client, "/api/v1/plays", {"preset": "westcliff", "seed": 5}, "k").json()
    response = post(
        client, f"/api/v1/plays/{play['id']}/moves", {"seq": 0, "move": {"type": "deal"}}, "k"
    )
    assert_problem(response, 422, "idempotency_key_reused")


def test_keys_belong_to_their_player(client, other_client):
    body = {"preset": "westcliff", "seed": 5}
    mine = post(client, "/api/v1/plays", body, "shared").json()
    theirs = post(other_client, "/api/v1/plays", body, "shared").json()
    assert mine["id"] != theirs["id"]
    assert Play.objects.count() == 2


def test_error_answers_are_replayed_too(client):
    play = start(client, preset="seahaven", seed=1).json()
    path = f"/api/v1/plays/{play['id']}/moves"
    body = {"seq": 0, "move": {"type": "deal"}}
    first = post(client, path, body, "bad")
    assert_problem(first, 422, "illegal_move")
    again = post(client, path, body, "bad")
    assert_problem(again, 422, "illegal_move")
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"


def test_without_a_key_nothing_is_stored(client):
    start(client, preset="westcliff", seed=5)
    assert IdempotencyKey.objects.count() == 0


@pytest.mark.parametrize("key", ["", "x" * 256, "with space", "tab\there", "ключ"])
def test_an_invalid_key_is_400(client, key):
    response = client.post(
        "/api/v1/plays",
        {"preset": "westcliff", "seed": 5},
        format="json",
        headers={"Idempotency-Key": key},
    )
    assert_problem(response, 400, "invalid_idempotency_key")
    assert Play.objects.count() == 0


def test_old_keys_are_purged(client, player):
    post(client, "/api/v1/plays", {"preset": "westcliff", "seed": 5}, "old")
    post(client, "/api/v1/plays", {"preset": "westcliff", "seed": 6}, "new")
    IdempotencyKey.objects.filter(key="old").update(
        created_at=timezone.now() - dt.timedelta(hours=25)
    )
    call_command("purge_idempotency_keys")
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["new"]


def test_the_purge_task_runs(player):
    from games.maintenance import purge_idempotency_keys

    IdempotencyKey.objects.create(
        player=player, key="k", fingerprint="f", response_status=200, response_body="{}"
    )
    IdempotencyKey.objects.update(created_at=timezone.now() - dt.timedelta(days=2))
    assert purge_idempotency_keys.delay().get() == 1
