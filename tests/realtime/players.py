"""Players of the stream tests: accounts, tokens, and a ranked daily finished over HTTP."""

from __future__ import annotations

import datetime as dt

import httpx
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework_simplejwt.tokens import RefreshToken

from games.daily import utc_today

PRESET = "easthaven"


def make_player(name: str):
    user = get_user_model().objects.create_user(username=name)
    # Old enough for any account-age rule of fair play.
    get_user_model().objects.filter(pk=user.pk).update(
        date_joined=timezone.now() - dt.timedelta(days=30)
    )
    return user


def bearer(user) -> dict[str, str]:
    return {"Authorization": f"Bearer {RefreshToken.for_user(user).access_token}"}


def finish_daily(base: str, user, preset: str = PRESET) -> dict:
    """Start today's ranked daily of ``preset`` and resign it, through the server."""
    headers = bearer(user)
    day = utc_today().isoformat()
    started = httpx.post(
        f"{base}/api/v1/plays", json={"preset": preset, "daily": day}, headers=headers, timeout=15
    )
    assert started.status_code == 201, started.text
    play = started.json()
    moved = httpx.post(
        f"{base}/api/v1/plays/{play['id']}/moves",
        json={"seq": play["seq"], "move": {"type": "resign"}},
        headers=headers,
        timeout=15,
    )
    assert moved.status_code == 200, moved.text
    return moved.json()


def board_stream_url(base: str, preset: str = PRESET) -> str:
    return f"{base}/api/v1/leaderboards/{preset}/daily/{utc_today().isoformat()}/stream"
