"""Conditional GETs and HTTP envelope features for front ends: ETags, 304, Cache-Control,
If-Match on moves, Location on 201, ``"daily": "today"``, CORS and compression."""

from __future__ import annotations

import datetime as dt
import gzip
import json

import pytest
from rest_framework.test import APIClient

from games.daily import utc_today
from tests.factories import store_daily

from .helpers import assert_problem, move, start

pytestmark = pytest.mark.django_db


def refetch(client, url, response, **headers):
    return client.get(url, HTTP_IF_NONE_MATCH=response["ETag"], **headers)


def test_presets_are_cacheable_and_revalidate_with_304(anon):
    first = anon.get("/api/v1/presets")
    etag = first["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert first["Cache-Control"] == "public, max-age=86400"
    second = refetch(anon, "/api/v1/presets", first)
    assert second.status_code == 304
    assert second.content == b""
    assert second["ETag"] == etag
    assert anon.get("/api/v1/presets", HTTP_IF_NONE_MATCH='"other"').status_code == 200
    assert anon.get("/api/v1/presets", HTTP_IF_NONE_MATCH=f'"x", W/{etag}').status_code == 304
    assert anon.get("/api/v1/presets", HTTP_IF_NONE_MATCH="*").status_code == 304


def test_a_past_day_is_immutable_and_today_short_lived(anon, today_deals):
    past = utc_today() - dt.timedelta(days=1)
    store_daily(past, seed_base=2000)
    old = anon.get(f"/api/v1/daily/{past}")
    assert old.status_code == 200
    assert old["Cache-Control"] == "public, max-age=31536000, immutable"
    assert refetch(anon, f"/api/v1/daily/{past}", old).status_code == 304
    today = anon.get("/api/v1/daily/today")
    assert today["Cache-Control"] == "public, max-age=30"
    assert refetch(anon, "/api/v1/daily/today", today).status_code == 304
    assert today["ETag"] != old["ETag"]


def test_a_plays_etag_changes_exactly_when_its_seq_does(client):
    created = start(client, preset="easthaven-open", seed=7)
    play = created.json()
    url = f"/api/v1/plays/{play['id']}"
    first = client.get(url)
    assert first["Cache-Control"] == "private, no-cache"
    assert first["ETag"] == created["ETag"]
    assert refetch(client, url, first).status_code == 304
    log = client.get(f"{url}/moves")
    assert log["ETag"] == first["ETag"]
    assert refetch(client, f"{url}/moves", log).status_code == 304

    illegal = move(client, play, {"type": "move", "from": "t0", "to": "t0"})
    assert illegal.status_code == 422
    assert refetch(client, url, first).status_code == 304  # refused: same seq, same tag

    moved = move(client, play, {"type": "deal"})
    assert moved.status_code == 200
    assert moved["ETag"] != first["ETag"]
    again = refetch(client, url, first)
    assert again.status_code == 200
    assert again["ETag"] == moved["ETag"]
    assert again.json()["seq"] == 1
    assert refetch(client, f"{url}/moves", log).status_code == 200


def test_if_match_applies_a_move_to_that_version_only(client):
    play = start(client, preset="easthaven-open", seed=7).json()
    url = f"/api/v1/plays/{play['id']}/moves"
    etag = client.get(f"/api/v1/plays/{play['id']}")["ETag"]
    response = client.post(url, {"move": {"type": "deal"}}, format="json", HTTP_IF_MATCH=etag)
    assert response.status_code == 200, response.content
    assert response.json()["seq"] == 1
    stale = client.post(url, {"move": {"type": "deal"}}, format="json", HTTP_IF_MATCH=etag)
    body = assert_problem(stale, 412, "precondition_failed")
    assert body["seq"] == 1
    other = client.post(url, {"move": {"type": "deal"}}, format="json", HTTP_IF_MATCH='"nope"')
    assert_problem(other, 412, "precondition_failed")
    mixed = client.post(
        url, {"seq": 0, "move": {"type": "deal"}}, format="json", HTTP_IF_MATCH=response["ETag"]
    )
    assert_problem(mixed, 412, "precondition_failed")
    assert_problem(client.post(url, {"move": {"type": "deal"}}, format="json"), 400)


def test_a_created_play_has_a_location(client):
    response = start(client, preset="westcliff", seed=3)
    assert response.status_code == 201
    assert response["Location"] == f"/api/v1/plays/{response.json()['id']}"
    assert client.get(response["Location"]).status_code == 200


def test_a_replayed_201_keeps_its_location(client):
    body = {"preset": "westcliff", "seed": 3}
    first = client.post("/api/v1/plays", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = client.post("/api/v1/plays", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again["Idempotent-Replayed"] == "true"
    assert again["Location"] == first["Location"]


def test_registering_answers_with_the_players_location(anon):
    response = anon.post(
        "/api/v1/auth/register",
        {"username": "lin", "password": "a long passphrase"},
        format="json",
    )
    assert response.status_code == 201
    assert response["Location"] == "/api/v1/players/lin"


def test_daily_today_starts_todays_ranked_play(client, today_deals):
    response = start(client, preset="easthaven", daily="today")
    assert response.status_code == 201, response.content
    assert response.json()["daily"] == utc_today().isoformat()
    assert response.json()["ranked"] is True
    assert_problem(start(client, preset="easthaven", daily="today"), 409, "already_played")


def test_health_is_never_cached(anon):
    assert anon.get("/api/v1/health")["Cache-Control"] == "no-store"


# --- CORS ------------------------------------------------------------------------------------

ORIGIN = "https://app.haven.example"


@pytest.fixture
def cors_origin(settings):
    settings.CORS_ALLOWED_ORIGINS = [ORIGIN]
    return ORIGIN


def test_a_browser_origin_passes_preflight_before_authentication(anon, cors_origin):
    response = anon.options(
        "/api/v1/plays",
        HTTP_ORIGIN=cors_origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, idempotency-key",
    )
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == cors_origin
    allowed = response["Access-Control-Allow-Headers"].lower()
    for header in ("authorization", "content-type", "idempotency-key", "if-match"):
        assert header in allowed
    assert "POST" in response["Access-Control-Allow-Methods"]


def test_cors_exposes_the_headers_clients_need(client, cors_origin):
    response = client.post(
        "/api/v1/plays", {"preset": "westcliff", "seed": 3}, format="json", HTTP_ORIGIN=ORIGIN
    )
    assert response["Access-Control-Allow-Origin"] == ORIGIN
    exposed = {h.strip().lower() for h in response["Access-Control-Expose-Headers"].split(",")}
    expected = {"etag", "location", "retry-after", "ratelimit", "ratelimit-policy"}
    assert expected | {"idempotent-replayed"} <= exposed
    problem = APIClient().get("/api/v1/plays", HTTP_ORIGIN=ORIGIN)
    assert problem.status_code == 401
    assert problem["Access-Control-Allow-Origin"] == ORIGIN


def test_no_origin_is_allowed_by_default(anon, settings):
    assert settings.CORS_ALLOWED_ORIGINS == []
    response = anon.options(
        "/api/v1/presets",
        HTTP_ORIGIN="https://evil.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
    )
    assert "Access-Control-Allow-Origin" not in response


# --- Compression -------------------------------------------------------------------------------


@pytest.fixture
def gzip_on(settings):
    settings.GZIP_RESPONSES = True


def test_large_answers_are_gzipped_with_a_strong_etag(anon, gzip_on):
    response = anon.get("/api/v1/presets", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    assert response["ETag"].endswith('-gzip"') and not response["ETag"].startswith("W/")
    assert json.loads(gzip.decompress(response.content))["presets"]
    again = anon.get(
        "/api/v1/presets", HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=response["ETag"]
    )
    assert again.status_code == 304
    plain = anon.get("/api/v1/presets", HTTP_IF_NONE_MATCH=response["ETag"])
    assert plain.status_code == 304


def test_auth_answers_are_never_compressed(anon, gzip_on):
    """BREACH: tokens next to the username the client chose must not share a gzip stream."""
    response = anon.post(
        "/api/v1/auth/register",
        {"username": "x" * 150, "password": "a long passphrase"},
        format="json",
        HTTP_ACCEPT_ENCODING="gzip",
    )
    assert response.status_code == 201
    assert "Content-Encoding" not in response
    assert "access" in response.json()


def test_group_answers_with_invite_codes_are_never_compressed(client, gzip_on):
    response = client.post(
        "/api/v1/groups", {"name": "n" * 80}, format="json", HTTP_ACCEPT_ENCODING="gzip"
    )
    assert response.status_code == 201
    assert "Content-Encoding" not in response
    listed = client.get("/api/v1/groups", HTTP_ACCEPT_ENCODING="gzip")
    assert "Content-Encoding" not in listed


def test_a_move_log_is_compressed(client, gzip_on):
    play = start(client, preset="easthaven-open", seed=7).json()
    for _ in range(3):
        play = move(client, play, {"type": "deal"}).json()
    response = client.get(f"/api/v1/plays/{play['id']}/moves", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    assert len(json.loads(gzip.decompress(response.content))["moves"]) == 3
    assert "Accept-Encoding" in response["Vary"]
