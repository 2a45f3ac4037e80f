"""What schemathesis' every-check run found, pinned as plain tests: each is a request the
schema calls valid that was refused, or one it calls invalid that was accepted."""

from __future__ import annotations

import uuid

import pytest

from games.models import Move
from tests.factories import client_for, make_user

from .tally import check

pytestmark = pytest.mark.django_db

BOARD = "/api/v1/leaderboards/easthaven/all-time"


def start(client) -> dict:
    response = client.post("/api/v1/plays", {"preset": "westcliff", "seed": 3}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.mark.parametrize("query", ["lang=xx", "lang=", "lang=EN", "lang=de-at", "lang=en&lang=x"])
@pytest.mark.parametrize("path", ["/api/v1/presets", "/api/v1/health", BOARD])
def test_a_lang_outside_the_schemas_enum_is_refused(anon, path, query):
    check("query", anon.get(f"{path}?{query}"), {400}, "unsupported_language")


@pytest.mark.parametrize("query", ["lang=en", "lang=de", "lang=ru", "lang=de&lang=ru"])
def test_the_three_languages_are_accepted(anon, query):
    response = check("query", anon.get(f"/api/v1/presets?{query}"), {200})
    assert response["Content-Language"] == query[-2:]


@pytest.mark.parametrize("page_size", ["", "²", " 5", "+5", "٥", "1_0", "5.0"])
@pytest.mark.parametrize("path", ["/api/v1/plays", BOARD])
def test_page_size_is_ascii_digits(client, path, page_size):
    response = client.get(path, {"page_size": page_size})
    check("query", response, {400}, "invalid_page_size")


@pytest.mark.parametrize(
    "body",
    [
        {"seq": 0},
        {"seq": 0, "move": {"type": "deal"}, "moves": [{"type": "deal"}]},
    ],
)
def test_a_move_request_holds_move_or_moves(client, body):
    """Exactly one of the two: a rule across fields, answered under non_field_errors."""
    play = start(client)
    response = client.post(f"/api/v1/plays/{play['id']}/moves", body, format="json")
    problem = check("types", response, {400}, "validation_error").json()
    assert set(problem["errors"]) == {"non_field_errors"}
    assert not Move.objects.exists()


@pytest.mark.parametrize("if_match", ["", "garbage", '"0123456789abcdef"', 'W/"x", "y"'])
def test_if_match_on_a_play_that_is_not_yours_is_404_not_412(client, if_match):
    """A play that does not exist, or is another player's, is 404 whatever If-Match says;
    only on the caller's own play does a mismatch mean 412."""
    theirs = start(client_for(make_user()))
    body = {"seq": 0, "move": {"type": "deal"}}
    for play_id in (uuid.uuid4(), theirs["id"]):
        response = client.post(
            f"/api/v1/plays/{play_id}/moves", body, format="json", HTTP_IF_MATCH=if_match
        )
        check("types", response, {404}, "not_found")
    mine = start(client)
    response = client.post(
        f"/api/v1/plays/{mine['id']}/moves", body, format="json", HTTP_IF_MATCH=if_match
    )
    check("types", response, {412}, "precondition_failed")
    assert not Move.objects.exists()


@pytest.mark.parametrize("preset", ["", "EASTHAVEN", "easthaven ", "klondike"])
def test_a_preset_outside_the_schemas_pattern_is_refused(client, preset):
    check("types", client.post("/api/v1/plays", {"preset": preset, "seed": 1}), {400})
