"""Helpers shared by the API tests (fixtures live in conftest.py)."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from games import engine, services
from games.models import Deal, Play, Source

HIGH_RATES = {"plays": "100000/min", "moves": "100000/min", "auth": "100000/min"}
PROBLEM_KEYS = {"type", "title", "status", "detail", "code"}
CARD_STRING = re.compile(r'"((?:10|[A2-9TJQK])[SHDC])"')

_usernames = itertools.count()


def make_user(username: str | None = None):
    name = username or f"player{next(_usernames)}"
    return get_user_model().objects.create_user(username=name, password="correct-horse-42")


def client_for(user) -> APIClient:
    client = APIClient()
    token = RefreshToken.for_user(user).access_token
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def store_daily(day, seed_base: int = 1000) -> dict[str, Deal]:
    """One daily deal per preset for ``day``, with a made-up verdict, par and solution."""
    deals = {}
    for n, preset in enumerate(engine.PRESETS):
        deck = engine.format_deck(engine.deck_from_seed(seed_base + n))
        deals[preset] = Deal.objects.create(
            preset=preset,
            source=Source.DAILY,
            date=day,
            deck=deck,
            verdict="winnable",
            par=80 + n,
            solution=[{"type": "deal"}],
        )
    return deals


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


def seahaven_deck_won_by_foundation_moves() -> list[str]:
    """A Seahaven deck that is won by foundation moves alone: after k moves, card k of the
    suit-major order (AS … KS, AH … KH, …) is the top of column k mod 10 (or a cell)."""
    order = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]
    deck = [""] * 52
    for row in range(5):
        for col in range(10):
            deck[row * 10 + col] = order[col + (4 - row) * 10]
    deck[50], deck[51] = order[50], order[51]
    return deck


def win_seahaven(client: APIClient, play: dict[str, Any]) -> Iterator[Any]:
    """Play the foundation-only win of ``seahaven_win_deck``; yield every response."""
    for k in range(52):
        src = f"t{k % 10}" if k < 50 else ("c1" if k == 50 else "c2")
        response = move(client, play, {"type": "move", "from": src, "to": "f"})
        assert response.status_code == 200, response.content
        play = response.json()
        yield response
