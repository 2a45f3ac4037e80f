"""A server that cannot hold a stream (a WSGI worker: ``make run``'s gunicorn, Django's test
client) answers 200 with one ``fallback`` event naming the URL to poll, never a 5xx, and
refuses what the API refuses (docs/live.md, "Degradation").

Committed rows (``transactional_db``): a stream reads the database from the shared
executor's threads, which see only what is committed (realtime.offloop)."""

from __future__ import annotations

import pytest

from tests.factories import client_for, make_user

pytestmark = pytest.mark.postgres


@pytest.mark.parametrize(
    ("path", "poll"),
    [
        ("/api/v1/leaderboards/easthaven/daily/2026-12-01/stream",
         "/api/v1/leaderboards/easthaven/daily/2026-12-01"),
        ("/api/v1/players/me/stream", "/api/v1/players/me"),
    ],
)
def test_a_wsgi_worker_says_poll_instead(transactional_db, path, poll):
    answer = client_for(make_user()).get(path)
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/event-stream"
    assert answer["Cache-Control"] == "no-store"
    text = answer.content.decode()
    assert text.startswith("retry: ")
    assert "event: fallback" in text and f'"poll":"{poll}"' in text
    assert text.count("event: ") == 1


def test_bad_input_is_a_problem_not_a_stream(transactional_db):
    api = client_for(make_user())
    bad_day = api.get("/api/v1/leaderboards/easthaven/daily/2026-13-01/stream")
    assert bad_day.status_code == 400 and bad_day.json()["code"] == "invalid_date"
    bad_game = api.get("/api/v1/leaderboards/nope/daily/today/stream")
    assert bad_game.status_code == 400 and bad_game.json()["code"] == "unknown_preset"
    posted = api.post("/api/v1/players/me/stream")
    assert posted.status_code == 405 and posted["Allow"] == "GET, HEAD"
    assert api.get("/api/v1/tournaments/999999/stream").json()["code"] == "tournament_not_found"
