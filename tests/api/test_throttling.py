"""Per-user throttles on plays and moves (DRF scoped throttles on the Django cache)."""

from __future__ import annotations

import pytest

from tests.factories import client_for, make_user

from .helpers import assert_problem, move, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def low_rates(settings):
    rates = {"plays": "3/min", "moves": "2/min", "auth": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def test_moves_are_throttled_per_user(client, low_rates):
    play = start(client, preset="easthaven", seed=1).json()
    assert client.get(f"/api/v1/plays/{play['id']}/moves").status_code == 200
    assert client.get(f"/api/v1/plays/{play['id']}/moves").status_code == 200
    response = client.get(f"/api/v1/plays/{play['id']}/moves")
    problem = assert_problem(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    assert problem["detail"]
    # another player has a budget of their own
    other = client_for(make_user())
    theirs = start(other, preset="easthaven", seed=1).json()
    assert move(other, theirs, {"type": "deal"}).status_code == 200


def test_plays_are_throttled(client, low_rates):
    for _ in range(3):
        assert start(client, preset="easthaven", seed=1).status_code == 201
    assert_problem(start(client, preset="easthaven", seed=1), 429, "throttled")


def test_auth_is_throttled_per_address(anon, low_rates):
    body = {"username": "nobody", "password": "whatever-it-is"}
    for _ in range(2):
        assert anon.post("/api/v1/auth/token", body, format="json").status_code == 401
    assert_problem(anon.post("/api/v1/auth/token", body, format="json"), 429, "throttled")


def test_a_throttled_retry_is_not_stored_as_the_answer(client, low_rates):
    play = start(client, preset="easthaven", seed=1).json()
    path = f"/api/v1/plays/{play['id']}/moves"
    body = {"seq": 0, "move": {"type": "deal"}}
    headers = {"Idempotency-Key": "t-1"}
    assert client.post(path, body, format="json", headers=headers).status_code == 200
    assert client.post(path, body, format="json", headers=headers).status_code == 200
    assert client.post(path, body, format="json", headers=headers).status_code == 429
