"""The names of the live channels: one Redis Stream each, under a configurable prefix.

A channel's stream keeps the last ``REALTIME_HISTORY`` events (``XADD MAXLEN ~``); their
ids are the SSE ids a client sends back as ``Last-Event-ID``. A board's channel expires a
few days after its day; a player's and a group's after a week without events.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings

BOARD_TTL_SECONDS = 3 * 86400
OTHER_TTL_SECONDS = 7 * 86400


def prefix() -> str:
    return str(settings.REALTIME_REDIS_PREFIX)


def board(rules_key: str, day: dt.date) -> str:
    return f"{prefix()}board:{rules_key}:{day.isoformat()}"


def group(group_id: int) -> str:
    return f"{prefix()}group:{group_id}"


def player(player_id: int) -> str:
    return f"{prefix()}player:{player_id}"


def tournament(tournament_id: int) -> str:
    return f"{prefix()}tournament:{tournament_id}"


def ttl_of(channel: str) -> int:
    return BOARD_TTL_SECONDS if channel.startswith(f"{prefix()}board:") else OTHER_TTL_SECONDS
