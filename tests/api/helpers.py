"""Helpers shared by the API tests (fixtures live in conftest.py; players, clients and daily
deals in ``tests.factories``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from rest_framework.test import APIClient

from games import engine, services
from games.models import Play
from tests.factories import foundation_source

PROBLEM_KEYS = {"type", "title", "status", "detail", "code"}
CARD_STRING = re.compile(r'"((?:10|[A2-9TJQK])[SHDC])"')


def start(client: APIClient, **body: Any):
    return client.post("/api/v1/plays", body, format="json")


def move(client: APIClient, play: dict[str, Any], mv: dict[str, Any], seq: int | None = None):
    body = {"seq": play["seq"] if seq is None else seq, "move": mv}
    return client.post(f"/api/v1/plays/{play['id']}/moves", body, format="json")


def assert_problem(response, status: int, code: str | None = None) -> dict[str, Any]:
    """The response is an RFC 9457 problem document with that status (and code)."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json"), response["Content-Type"]
    body = json.loads(response.content)
    assert PROBLEM_KEYS <= set(body), body
    assert body["status"] == status
    assert isinstance(body["detail"], str)
    assert body["detail"]
    assert body["type"].endswith(body["code"])
    if code is not None:
        assert body["code"] == code, body
    return body


def hidden_cards(play_id: str) -> set[str]:
    """The cards a player of this play must not see now: face-down and stock cards."""
    play = Play.objects.get(pk=play_id)
    state = engine.state_from_json(services.rules_of(play), play.state)
    names = set()
    for col, down in zip(state.cols, state.down, strict=True):
        names.update(engine.card_name(c) for c in col[:down])
    names.update(engine.card_name(c) for c in state.stock)
    return names


def card_strings(content: bytes) -> set[str]:
    return set(CARD_STRING.findall(content.decode()))


def win_seahaven(client: APIClient, play: dict[str, Any]) -> Iterator[Any]:
    """Play the foundation-only win of ``seahaven_win_deck``; yield every response."""
    for k in range(52):
        response = move(client, play, {"type": "move", "from": foundation_source(k), "to": "f"})
        assert response.status_code == 200, response.content
        play = response.json()
        yield response
