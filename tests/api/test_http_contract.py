"""The HTTP details of issue 46: Vary on 304, strong If-Match, Cache-Control on a play's 201,
the schema's URL without the slash, cursors within the declared alphabet."""

from __future__ import annotations

import base64
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from .helpers import assert_problem, move, start

pytestmark = pytest.mark.django_db

CURSOR = re.compile(r"^[A-Za-z0-9_-]*$")  # the schema's pattern for ?cursor


def vary(response) -> set[str]:
    return {part.strip().lower() for part in response.get("Vary", "").split(",") if part.strip()}


@pytest.mark.parametrize("url", ["/api/v1/presets", "/api/v1/health"])
def test_a_304_varies_as_its_200(anon, settings, url):
    settings.GZIP_RESPONSES = True
    first = anon.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert "accept-encoding" in vary(first)
    if "ETag" not in first:  # /health: no validator, the Vary alone is checked
        return
    again = anon.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert vary(again) == vary(first)


def test_a_play_poll_304_varies_as_its_200(client, settings):
    settings.GZIP_RESPONSES = True
    play = start(client, preset="westcliff", seed=7).json()
    first = client.get(f"/api/v1/plays/{play['id']}", HTTP_ACCEPT_ENCODING="gzip")
    again = client.get(
        f"/api/v1/plays/{play['id']}",
        HTTP_ACCEPT_ENCODING="gzip",
        HTTP_IF_NONE_MATCH=first["ETag"],
    )
    assert again.status_code == 304
    assert vary(again) == vary(first)
    assert "accept-encoding" in vary(again)


def test_if_match_compares_strongly(client):
    play = start(client, preset="westcliff", seed=7).json()
    etag = client.get(f"/api/v1/plays/{play['id']}")["ETag"]
    url = f"/api/v1/plays/{play['id']}/moves"
    body = {"move": {"type": "deal"}}
    weak = client.post(url, body, format="json", HTTP_IF_MATCH=f"W/{etag}")
    assert_problem(weak, 412, "precondition_failed")
    strong = client.post(url, body, format="json", HTTP_IF_MATCH=etag)
    assert strong.status_code == 200, strong.content
    assert strong.json()["seq"] == 1


def test_every_play_state_answer_is_private_no_cache(client):
    created = start(client, preset="westcliff", seed=7)
    assert created.status_code == 201
    assert created["Cache-Control"] == "private, no-cache"
    play = created.json()
    moved = move(client, play, {"type": "deal"})
    assert moved["Cache-Control"] == "private, no-cache"
    for url in (f"/api/v1/plays/{play['id']}", f"/api/v1/plays/{play['id']}/moves"):
        assert client.get(url)["Cache-Control"] == "private, no-cache"


def test_the_schema_is_served_without_the_trailing_slash(anon):
    bare = anon.get("/api/v1/schema?format=json")
    assert bare.status_code == 200
    assert bare.json()["openapi"].startswith("3.")


def _cursor(link: str) -> str:
    return parse_qs(urlsplit(link).query)["cursor"][0]


def test_plays_cursors_match_the_declared_pattern_both_ways(client):
    for seed in range(4):
        assert start(client, preset="westcliff", seed=seed).status_code == 201
    first = client.get("/api/v1/plays", {"page_size": 1}).json()
    second = client.get("/api/v1/plays", {"page_size": 1, "cursor": _cursor(first["next"])})
    third = client.get(
        "/api/v1/plays", {"page_size": 1, "cursor": _cursor(second.json()["next"])}
    ).json()
    previous = _cursor(third["previous"])
    assert CURSOR.match(previous), previous
    assert "%3D" not in third["previous"]
    back = client.get("/api/v1/plays", {"page_size": 1, "cursor": previous}).json()
    assert back["results"] == second.json()["results"]
    # A cursor of the older form (standard base64, padded) is still read.
    text = previous + "=" * (-len(previous) % 4)
    old = base64.b64encode(base64.urlsafe_b64decode(text)).decode()
    assert client.get("/api/v1/plays", {"page_size": 1, "cursor": old}).json() == back
