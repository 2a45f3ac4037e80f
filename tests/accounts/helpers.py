"""Devices and guests for the accounts tests."""

from __future__ import annotations

import base64
import os
import uuid
from typing import Any

from rest_framework.test import APIClient

PASSWORD = "a long passphrase"


def new_device() -> dict[str, str]:
    """A device's id and secret, made as an app makes them."""
    secret = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
    return {"device_id": str(uuid.uuid4()), "device_secret": secret}


def guest(client: APIClient, device: dict[str, str], **env: Any):
    return client.post("/api/v1/auth/guest", device, format="json", **env)


def signed_in(tokens: dict[str, Any]) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {tokens['access']}")
    return client


def new_guest(**env: Any) -> tuple[APIClient, dict[str, Any], dict[str, str]]:
    """A guest signed in: its client, its token answer and its device."""
    device = new_device()
    response = guest(APIClient(), device, **env)
    assert response.status_code == 201, response.content
    return signed_in(response.json()), response.json(), device


def link(client: APIClient, username: str, password: str = PASSWORD):
    return client.post(
        "/api/v1/auth/link", {"username": username, "password": password}, format="json"
    )


def refresh(token: str):
    return APIClient().post("/api/v1/auth/token/refresh", {"refresh": token}, format="json")
