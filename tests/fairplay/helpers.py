"""Helpers of the fair-play tests: ranked plays through the API from a given address, and
the check that every Redis board equals PostgreSQL."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from games.daily import utc_today
from leaderboard import ranking, store
from leaderboard.rebuilding import pg_entries
from leaderboard.refs import BoardRef

BASE = "/api/v1/leaderboards"


def play_daily(
    client: APIClient, address: str, deals: int, preset: str = "easthaven", **headers: Any
) -> dict[str, Any]:
    """Start today's ranked ``preset`` play from ``address``, deal ``deals`` times (each deal
    turns stock cards face up), then resign; the finished play."""
    env = {"REMOTE_ADDR": address, **headers}
    response = client.post(
        "/api/v1/plays", {"preset": preset, "daily": "today"}, format="json", **env
    )
    assert response.status_code == 201, response.content
    play = response.json()
    for _ in range(deals):
        play = _move(client, play, {"type": "deal"}, env)
    return _move(client, play, {"type": "resign"}, env)


def _move(client: APIClient, play: dict[str, Any], move: dict[str, Any], env) -> dict[str, Any]:
    response = client.post(
        f"/api/v1/plays/{play['id']}/moves",
        {"seq": play["seq"], "move": move},
        format="json",
        **env,
    )
    assert response.status_code == 200, response.content
    return response.json()


def board_names(client: APIClient, path: str) -> list[str]:
    response = client.get(f"{BASE}/{path}")
    assert response.status_code == 200, response.content
    return [entry["username"] for entry in response.json()["results"]]


def live_refs(board: str = "easthaven") -> list[BoardRef]:
    today = utc_today()
    return [
        BoardRef.daily(board, today),
        BoardRef.weekly(board, ranking.iso_week(today)),
        BoardRef.all_time(board),
    ]


def assert_redis_equals_postgres(refs: list[BoardRef]) -> None:
    """Each built Redis board holds exactly PostgreSQL's entries: members, sort keys, the
    details beside them and the ``@player`` aliases (no hidden play, no stale total)."""
    client = store.client()
    for ref in refs:
        assert client.exists(ref.redis_key), f"{ref.redis_key} is not built"
        in_redis = {
            member: int(score)
            for member, score in client.zrange(ref.redis_key, 0, -1, withscores=True)
            if member != store.SENTINEL
        }
        rows = list(pg_entries(ref))
        assert in_redis == {member: key for key, member, _, _ in rows}, ref
        expected_info = {member: info for _, member, info, _ in rows}
        expected_info |= {alias: member for _, member, _, alias in rows if alias}
        assert client.hgetall(store.info_key(ref.redis_key)) == expected_info, ref
