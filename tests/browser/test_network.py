"""Moves survive a dropped connection without counting twice; a stale seq refetches."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from .driver import click_move, click_source, click_target, expect, register, screen, start_practice
from .support import PRACTICE_PRESET, PRACTICE_SEED, solved

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
MOVES = "**/api/v1/plays/*/moves"


def api_for(username: str) -> APIClient:
    client = APIClient()
    user = get_user_model().objects.get(username=username)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {RefreshToken.for_user(user).access_token}")
    return client


def move_log(client: APIClient, play_id: str) -> list[dict]:
    response = client.get(f"/api/v1/plays/{play_id}/moves")
    assert response.status_code == 200, response.content
    return response.json()["moves"]


def test_answer_lost_after_the_server_applied_the_move(open_browser, transactional_db):
    """The server applies the move, the answer never arrives: the client sends the same
    request again (same seq, same Idempotency-Key) and gets the first answer back."""
    win = solved(PRACTICE_PRESET, PRACTICE_SEED)
    b = open_browser()
    username = register(b)
    play_id = start_practice(b, PRACTICE_PRESET, PRACTICE_SEED)
    attempts: list[dict] = []

    def drop_first_answer(route, request):
        if request.method != "POST":
            return route.continue_()
        attempts.append({"key": request.headers.get("idempotency-key"), **request.post_data_json})
        if len(attempts) == 1:
            route.fetch()  # the server applies it …
            return route.abort("connectionreset")  # … and the connection drops
        return route.continue_()

    b.page.route(MOVES, drop_first_answer)
    click_move(b, win.moves[0])
    expect(screen(b)).to_have_attribute("data-seq", "1")
    b.shot("after-retry")
    assert len(attempts) == 2
    assert attempts[0] == attempts[1]  # same key, same seq, same move
    assert attempts[0]["key"]
    log = move_log(api_for(username), play_id)
    assert [row["seq"] for row in log] == [0]
    assert log[0]["move"] == {"count": 1, **win.moves[0]} or log[0]["move"] == win.moves[0]

    # The game goes on normally afterwards.
    b.page.unroute(MOVES)
    click_move(b, win.moves[1])
    assert [row["seq"] for row in move_log(api_for(username), play_id)] == [0, 1]
    dropped = [e for e in b.errors if "ERR_CONNECTION_RESET" not in e and "ERR_FAILED" not in e]
    assert dropped == []


def test_offline_move_is_retried_by_hand_and_applied_once(open_browser, transactional_db):
    """Every automatic attempt fails: the Retry button sends the very same request."""
    win = solved(PRACTICE_PRESET, PRACTICE_SEED)
    b = open_browser()
    username = register(b)
    play_id = start_practice(b, PRACTICE_PRESET, PRACTICE_SEED)
    keys: list[str] = []

    def offline(route, request):
        if request.method != "POST":
            return route.continue_()
        keys.append(request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # the first one reaches the server; no answer ever comes back
        return route.abort("internetdisconnected")

    b.page.route(MOVES, offline)
    if win.moves[0]["type"] == "deal":
        b.page.locator("[data-pile=s]").click()
    else:
        click_source(b, win.moves[0])
        click_target(b, win.moves[0])
    retry = b.page.locator(".message.offline button")
    expect(retry).to_be_visible(timeout=15_000)
    expect(screen(b)).to_have_attribute("data-seq", "0")
    b.shot("offline")

    b.page.unroute(MOVES)
    replayed: list[str | None] = []
    b.page.on(
        "response",
        lambda r: (
            replayed.append(r.headers.get("idempotent-replayed"))
            if r.url.endswith("/moves") and r.request.method == "POST"
            else None
        ),
    )
    retry.click()
    expect(screen(b)).to_have_attribute("data-seq", "1")
    assert len(set(keys)) == 1 and len(keys) == 4  # one request, sent four times
    assert replayed == ["true"]
    assert [row["seq"] for row in move_log(api_for(username), play_id)] == [0]


def test_stale_seq_refetches_the_play(open_browser, transactional_db):
    """A move made elsewhere (another device) makes the page's seq stale: the 409 answer
    is shown and the page fetches the play again."""
    win = solved(PRACTICE_PRESET, PRACTICE_SEED)
    b = open_browser()
    username = register(b)
    play_id = start_practice(b, PRACTICE_PRESET, PRACTICE_SEED)
    client = api_for(username)
    body = {"seq": 0, "move": win.moves[0]}
    response = client.post(f"/api/v1/plays/{play_id}/moves", body, format="json")
    assert response.status_code == 200, response.content

    # The page still shows seq 0; its next move is stale.
    b.page.locator("[data-pile=t0]").click(position={"x": 8, "y": 6})
    b.page.locator("[data-pile=f]").first.click()
    expect(b.page.locator(".message.error")).to_be_visible()
    expect(screen(b)).to_have_attribute("data-seq", "1")
    statuses = json.dumps(b.errors)
    assert all("409" in e for e in b.errors), statuses
    assert [row["seq"] for row in move_log(client, play_id)] == [0]
