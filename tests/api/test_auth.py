"""Register, token, refresh; bearer JWTs on every non-public call."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import make_user

from .helpers import assert_problem

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-passphrase"


def register(client: APIClient, username: str = "alice", password: str = PASSWORD):
    return client.post(
        "/api/v1/auth/register", {"username": username, "password": password}, format="json"
    )


def test_register_returns_a_working_bearer_token(anon):
    response = register(anon)
    assert response.status_code == 201
    body = response.json()
    assert body["token_type"] == "Bearer"
    assert body["username"] == "alice"
    assert body["access"]
    assert body["refresh"]
    anon.credentials(HTTP_AUTHORIZATION=f"Bearer {body['access']}")
    assert anon.get("/api/v1/plays").status_code == 200


def test_register_twice_is_a_conflict(anon):
    assert register(anon).status_code == 201
    assert_problem(register(anon, username="ALICE"), 409, "username_taken")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"username": "bob"},
        {"password": PASSWORD},
        {"username": "bob", "password": "short"},
        {"username": "bob", "password": "12345678901"},
        {"username": "bad name!", "password": PASSWORD},
        {"username": ["bob"], "password": PASSWORD},
        {"username": "x" * 151, "password": PASSWORD},
    ],
)
def test_register_refuses_bad_input(anon, body):
    response = anon.post("/api/v1/auth/register", body, format="json")
    problem = assert_problem(response, 400, "validation_error")
    assert problem["errors"]


def test_token_for_the_right_password(anon):
    make_user("carol")
    response = anon.post(
        "/api/v1/auth/token", {"username": "carol", "password": "correct-horse-42"}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["token_type"] == "Bearer"
    assert body["access"]
    assert body["refresh"]


def test_token_for_a_wrong_password_is_401(anon):
    make_user("dave")
    response = anon.post(
        "/api/v1/auth/token", {"username": "dave", "password": "wrong-password"}, format="json"
    )
    assert_problem(response, 401)


def test_token_without_fields_is_400(anon):
    assert_problem(anon.post("/api/v1/auth/token", {}, format="json"), 400, "validation_error")


def test_refresh_gives_a_new_access_token(anon):
    tokens = register(anon).json()
    response = anon.post(
        "/api/v1/auth/token/refresh", {"refresh": tokens["refresh"]}, format="json"
    )
    assert response.status_code == 200
    anon.credentials(HTTP_AUTHORIZATION=f"Bearer {response.json()['access']}")
    assert anon.get("/api/v1/plays").status_code == 200


def test_refresh_with_garbage_is_401(anon):
    response = anon.post("/api/v1/auth/token/refresh", {"refresh": "nope"}, format="json")
    assert_problem(response, 401, "token_not_valid")


@pytest.mark.parametrize(
    "path", ["/api/v1/plays", "/api/v1/plays/00000000-0000-4000-8000-000000000000"]
)
def test_private_endpoints_need_a_token(anon, path):
    response = anon.get(path)
    problem = assert_problem(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert problem["title"]


def test_a_bad_token_is_401(anon):
    anon.credentials(HTTP_AUTHORIZATION="Bearer not-a-jwt")
    assert_problem(anon.get("/api/v1/plays"), 401, "token_not_valid")


def test_public_reads_ignore_a_bad_token(anon):
    anon.credentials(HTTP_AUTHORIZATION="Bearer not-a-jwt")
    assert anon.get("/api/v1/presets").status_code == 200
