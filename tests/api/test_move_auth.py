"""The move endpoint authenticates from the JWT's claims (accounts.auth): no user query per
request, yet a deactivated or deleted account is refused, and bad claims are a 401."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from accounts import auth
from tests.factories import client_for

from .helpers import assert_problem, move, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def play(client):
    return start(client, preset="westcliff", seed=3).json()


def moves_of(client, play):
    return client.get(f"/api/v1/plays/{play['id']}/moves")


def test_a_move_reads_no_user_row(client, play):
    assert moves_of(client, play).status_code == 200  # the first request checks the account
    with CaptureQueriesContext(connection) as queries:
        response = move(client, play, {"type": "deal"})
    assert response.status_code == 200, response.content
    assert not [q for q in queries.captured_queries if "auth_user" in q["sql"]]


def test_a_deactivated_user_is_refused_at_once_in_this_process(client, player, play):
    assert moves_of(client, play).status_code == 200
    player.is_active = False
    player.save()
    assert_problem(move(client, play, {"type": "deal"}), 401)


def test_a_deleted_user_is_refused(client, player, play):
    assert moves_of(client, play).status_code == 200
    get_user_model().objects.filter(pk=player.pk).delete()
    assert_problem(move(client, play, {"type": "deal"}), 401)


def test_another_process_s_change_is_seen_within_the_recheck_time(
    client, player, play, settings, monkeypatch
):
    """An update without signals stands for a change made by another process."""
    assert moves_of(client, play).status_code == 200
    get_user_model().objects.filter(pk=player.pk).update(is_active=False)
    assert moves_of(client, play).status_code == 200  # cached for AUTH_RECHECK_SECONDS
    clock = auth.time.monotonic() + settings.AUTH_RECHECK_SECONDS + 1
    monkeypatch.setattr(auth.time, "monotonic", lambda: clock)
    assert_problem(moves_of(client, play), 401)


def test_a_recheck_time_of_zero_reads_the_account_every_time(client, player, play, settings):
    settings.AUTH_RECHECK_SECONDS = 0
    assert moves_of(client, play).status_code == 200
    get_user_model().objects.filter(pk=player.pk).update(is_active=False)
    assert_problem(moves_of(client, play), 401)


def client_with_claim(**claims) -> APIClient:
    token = AccessToken()
    for name, value in claims.items():
        if value is ...:
            token.payload.pop(name, None)
        else:
            token[name] = value
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.mark.parametrize(
    "user_id",
    [..., None, "abc", "", "1.5", 1.5, True, -1, 0, 2**63, "9" * 40, [1], {"id": 1}, " 1"],
)
def test_bad_user_id_claims_are_401(play, user_id):
    client = client_with_claim(user_id=user_id)
    assert_problem(move(client, play, {"type": "deal"}), 401)
    assert_problem(moves_of(client, play), 401)


def test_a_token_for_someone_else_finds_no_play(play):
    other = client_for(get_user_model().objects.create_user("mallory", password="x" * 12))
    assert_problem(move(other, play, {"type": "deal"}), 404, "not_found")
