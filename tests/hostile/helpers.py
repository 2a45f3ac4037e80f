"""Users and clients for the hostile tests."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

PASSWORD = "correct-horse-42"
HIGH_RATES = {"plays": "100000/min", "moves": "100000/min", "auth": "100000/min"}
_names = itertools.count()


def make_user(username: str | None = None):
    name = username or f"hostile{next(_names)}"
    return get_user_model().objects.create_user(username=name, password=PASSWORD)


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {RefreshToken.for_user(user).access_token}")
    return client
