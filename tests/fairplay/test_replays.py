"""``GET /api/v1/daily/{date}/replays``: 404 until the day's ranked plays have closed, then
the top plays with their whole logs, which replay to the recorded results; plays kept off
the boards are never served, and nothing of the deck leaves before publication."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from rest_framework.test import APIClient

from games import engine
from games.daily import ranked_deadline, utc_today
from leaderboard.models import Score
from tests.factories import client_for, make_user

from .helpers import play_daily

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]


class _Clock:
    def __init__(self, now: dt.datetime) -> None:
        self._now = now

    def now(self) -> dt.datetime:
        return self._now


def _after_the_day(monkeypatch, day: dt.date) -> None:
    """The day's ranked window is over (games.daily.window reads the clock)."""
    clock = _Clock(ranked_deadline(day) + dt.timedelta(seconds=1))
    monkeypatch.setattr("games.daily.window.timezone", clock)


def _url(day: dt.date, preset: str = "easthaven") -> str:
    return f"/api/v1/daily/{day.isoformat()}/replays?preset={preset}"


def test_replays_are_404_before_the_day_is_published(today_deals, detector_records):
    play_daily(client_for(make_user("early")), "203.0.113.20", deals=3)
    today = utc_today()
    deck = set(today_deals["easthaven"].deck)
    for day in (today, today + dt.timedelta(days=1)):
        response = APIClient().get(_url(day))
        assert response.status_code == 404, response.content
        body = json.loads(response.content)
        assert body["code"] == "replays_not_published"
        assert not deck & set(json.dumps(body).replace('"', " ").split())  # no card names


def test_replays_after_publication_are_complete_and_leave_flagged_plays_out(
    today_deals, detector_records, monkeypatch
):
    today = utc_today()
    play_daily(client_for(make_user("honest")), "203.0.113.20", deals=2)
    play_daily(client_for(make_user("scout")), "198.51.100.7", deals=3)
    play_daily(client_for(make_user("cheat")), "198.51.100.7", deals=3)
    assert Score.objects.filter(hidden=True).count() == 1

    _after_the_day(monkeypatch, today)
    response = APIClient().get(_url(today))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["deck"] == today_deals["easthaven"].deck
    names = [r["username"] for r in body["replays"]]
    assert sorted(names) == ["honest", "scout"]  # the flagged play is never served
    assert [r["rank"] for r in body["replays"]] == [1, 2]
    rules = engine.get_rules("easthaven", {})
    for replay in body["replays"]:
        score = Score.objects.get(player__username=replay["username"])
        log = replay["log"]
        assert [row["seq"] for row in log] == list(range(score.moves + 1))  # + resign
        assert all(row["seconds"] >= 0 for row in log)
        moves = [row["move"] for row in log if row["move"]["type"] != "resign"]
        state, bad, _ = engine.replay(rules, engine.parse_deck(body["deck"]), moves)
        assert bad is None
        assert engine.foundation_cards(state) == replay["foundation_cards"]


def test_replays_refuse_a_missing_or_unknown_preset(monkeypatch):
    day = dt.date(2026, 11, 26)
    _after_the_day(monkeypatch, day)
    missing = APIClient().get(f"/api/v1/daily/{day}/replays")
    assert (missing.status_code, missing.json()["code"]) == (400, "validation_error")
    unknown = APIClient().get(_url(day, "klondike"))
    assert (unknown.status_code, unknown.json()["code"]) == (400, "unknown_preset")
    empty = APIClient().get(_url(day))
    assert empty.status_code == 200 and empty.json()["replays"] == []


def test_replays_are_in_the_schema_with_their_problems():
    schema = APIClient().get("/api/v1/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/daily/{date}/replays"]["get"]
    assert operation["operationId"] == "daily_replays"
    assert {"200", "400", "404"} <= set(operation["responses"])
    assert "replays_not_published" in json.dumps(operation["responses"]["404"])
