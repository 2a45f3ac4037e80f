"""Every error is an RFC 9457 problem document; bad input never causes a 500."""

from __future__ import annotations

import json

import pytest
from django.test import RequestFactory

from config.web import problems

from .helpers import assert_problem, start

pytestmark = pytest.mark.django_db


def test_unknown_url_is_a_404_problem(anon):
    assert_problem(anon.get("/api/v1/nothing-here"), 404, "not_found")
    assert_problem(anon.get("/"), 404, "not_found")


def test_wrong_method_is_a_405_problem(client):
    response = client.delete("/api/v1/plays")
    assert_problem(response, 405, "method_not_allowed")
    assert "POST" in response["Allow"]


def test_oversized_body_is_a_413_problem(client, settings):
    body = {"preset": "easthaven", "seed": 1, "pad": "x" * (70 * 1024)}
    assert_problem(client.post("/api/v1/plays", body, format="json"), 413, "payload_too_large")


def test_non_json_body_is_a_415_problem(client):
    response = client.post(
        "/api/v1/plays", {"preset": "easthaven", "seed": "1"}, format="multipart"
    )
    assert_problem(response, 415, "unsupported_media_type")


def test_malformed_json_is_a_400_problem(client):
    response = client.post("/api/v1/plays", b"{nope", content_type="application/json")
    assert_problem(response, 400, "malformed_json")


def test_nul_characters_are_refused_not_crashing(client):
    response = start(client, preset="easthaven\x00", seed=1)
    assert response.status_code == 400
    response = client.post(
        "/api/v1/auth/register", {"username": "a\x00b", "password": "x\x00" * 8}, format="json"
    )
    assert_problem(response, 400, "validation_error")


def test_not_acceptable_is_a_406_problem(client):
    response = client.get("/api/v1/plays", HTTP_ACCEPT="text/html")
    assert response.status_code == 406
    assert json.loads(response.content)["code"] == "not_acceptable"


def test_django_handlers_answer_with_problems():
    request = RequestFactory().get("/")
    for response, status, code in (
        (problems.bad_request(request), 400, "bad_request"),
        (problems.permission_denied(request), 403, "permission_denied"),
        (problems.page_not_found(request), 404, "not_found"),
        (problems.server_error(request), 500, "server_error"),
    ):
        assert_problem(response, status, code)


def test_an_unexpected_error_is_a_500_problem(client, monkeypatch):
    from games import services

    def boom(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(services, "start_play", boom)
    client.raise_request_exception = False
    response = client.post("/api/v1/plays", {"preset": "easthaven", "seed": 1}, format="json")
    body = assert_problem(response, 500, "server_error")
    assert "boom" not in body["detail"]


def test_redact_cards_keeps_only_shown_cards():
    text = "KS cannot go on 10H; QD is hidden; th lower"
    assert problems.redact_cards(text, {"KS"}) == (
        "KS cannot go on a hidden card; a hidden card is hidden; a hidden card lower"
    )
