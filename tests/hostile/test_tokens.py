"""Correctly signed tokens with bad claims are 401 problems: never a 500, never someone else.

Behavioural only (status and problem body), so these tests guard whichever authentication
class the service uses.
"""

from __future__ import annotations

import datetime as dt
import uuid

import jwt
import pytest
from django.conf import settings
from rest_framework.test import APIClient
from rest_framework_simplejwt.utils import get_md5_hash_password

from tests.factories import make_user

from .tally import check

pytestmark = pytest.mark.django_db

MISSING = object()


def forge(user_id: object = MISSING, token_type: object = "access", **extra: object) -> str:
    now = dt.datetime.now(dt.UTC)
    claims: dict[str, object] = {
        "token_type": token_type,
        "exp": int((now + dt.timedelta(hours=1)).timestamp()),
        "iat": int(now.timestamp()),
        "jti": uuid.uuid4().hex,
    }
    if user_id is not MISSING:
        claims["user_id"] = user_id
    if token_type is MISSING:
        del claims["token_type"]
    claims.update(extra)
    return jwt.encode(claims, settings.SIMPLE_JWT["SIGNING_KEY"], algorithm="HS256")


BAD_USER_IDS = {
    "word": "abc",
    "empty": "",
    "decimal-string": "1.5",
    "float": 1.5,
    "float-whole": 1.0,
    "true": True,
    "false": False,
    "null": None,
    "list": [1],
    "object": {"id": 1},
    "huge": 10**30,
    "huge-string": "9" * 40,
    "negative": -1,
    "zero": 0,
    "padded": " 1",
    "arabic-digit": "١",
    "nul": "1\x00",
}


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.fixture
def first_user(db):
    """A user with the smallest id, so that ``1.0`` or ``true`` read as 1 would find one."""
    return make_user()


@pytest.mark.parametrize("path", ["/api/v1/plays", "/api/v1/players/me", "/api/v1/groups"])
@pytest.mark.parametrize("value_id", BAD_USER_IDS)
def test_a_user_id_that_is_not_an_id_is_401(first_user, path, value_id):
    response = bearer(forge(BAD_USER_IDS[value_id])).get(path)
    check("tokens", response, {401})


@pytest.mark.parametrize("value_id", BAD_USER_IDS)
def test_a_refresh_token_with_a_bad_user_id_is_401(first_user, value_id):
    token = forge(BAD_USER_IDS[value_id], token_type="refresh")
    response = APIClient().post("/api/v1/auth/token/refresh", {"refresh": token}, format="json")
    check("tokens", response, {401})


@pytest.mark.parametrize(
    ("label", "token"),
    [
        ("no user_id", lambda user: forge()),
        ("refresh as access", lambda user: forge(str(user.pk), token_type="refresh")),
        ("no token_type", lambda user: forge(str(user.pk), token_type=MISSING)),
        ("unknown token_type", lambda user: forge(str(user.pk), token_type="admin")),
        ("token_type a list", lambda user: forge(str(user.pk), token_type=["access"])),
        ("no such user", lambda user: forge(str(user.pk + 1000))),
        ("expired", lambda user: forge(str(user.pk), exp=1)),
        ("exp a string", lambda user: forge(str(user.pk), exp="tomorrow")),
        ("no jti", lambda user: forge(str(user.pk), jti=None)),
        (
            "other key",
            lambda user: jwt.encode(
                {"user_id": str(user.pk)}, "not-our-key-" * 4, algorithm="HS256"
            ),
        ),
        (
            "alg none",
            lambda user: jwt.encode(
                {"user_id": str(user.pk), "token_type": "access"}, None, algorithm="none"
            ),
        ),
    ],
)
def test_other_bad_claims_are_401(first_user, label, token):
    check("tokens", bearer(token(first_user)).get("/api/v1/plays"), {401})


def test_access_token_as_refresh_is_401(first_user):
    token = forge(str(first_user.pk))
    response = APIClient().post("/api/v1/auth/token/refresh", {"refresh": token}, format="json")
    check("tokens", response, {401})


def test_a_refresh_token_of_a_deleted_user_is_401(first_user):
    token = forge(str(first_user.pk), token_type="refresh")
    first_user.delete()
    response = APIClient().post("/api/v1/auth/token/refresh", {"refresh": token}, format="json")
    check("tokens", response, {401})


@pytest.mark.parametrize("form", [str, int], ids=["string", "integer"])
def test_a_well_formed_user_id_still_works(first_user, form):
    """simplejwt writes ``"42"``; a JSON ``42`` is the same id. (A well-formed token also
    carries the revoke claim of the account's password, accounts.sessions.)"""
    stamp = get_md5_hash_password(first_user.password)
    response = bearer(forge(form(first_user.pk), hash_password=stamp)).get("/api/v1/players/me")
    check("tokens", response, {200})
    assert response.json()["username"] == first_user.username


@pytest.mark.parametrize(
    "header",
    [
        "Bearer",
        "Bearer ",
        "Bearer a b",
        "Bearer \x00",
        "Bearer " + "a" * 60_000,
        "Bearer é.é.é",
        "Bearer ..",
        "Basic dXNlcjpwYXNz",
        "bearer x.y.z",
    ],
    ids=["bare", "empty", "two-parts", "nul", "huge", "latin1", "dots", "basic", "lowercase"],
)
def test_a_malformed_authorization_header_is_401(first_user, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    check("tokens", client.get("/api/v1/plays"), {401})
