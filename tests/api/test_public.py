"""Public reads: presets, daily deals, health."""

from __future__ import annotations

import datetime as dt

import pytest

from games import engine
from games.daily import utc_today
from tests.factories import store_daily

from .helpers import assert_problem, card_strings

pytestmark = pytest.mark.django_db


def test_presets_lists_every_preset_with_options(anon):
    response = anon.get("/api/v1/presets")
    assert response.status_code == 200
    presets = {p["name"]: p for p in response.json()["presets"]}
    assert set(presets) == set(engine.PRESETS)
    assert presets["easthaven"]["options"] == {"partial_runs": False}
    assert presets["seahaven"]["options"] == {"classic_supermove": False}
    assert all(p["description"] and p["title"] for p in presets.values())


def test_daily_today_shows_ids_verdicts_and_par_but_no_deck(anon, today_deals):
    today = utc_today()
    for path in ("/api/v1/daily/today", f"/api/v1/daily/{today.isoformat()}"):
        response = anon.get(path)
        assert response.status_code == 200
        body = response.json()
        assert body["date"] == today.isoformat()
        assert set(body["deals"]) == set(engine.PRESETS)
        deal = body["deals"]["easthaven"]
        assert deal == {
            "id": str(today_deals["easthaven"].id),
            "verdict": "winnable",
            "par": today_deals["easthaven"].par,
        }
        assert not card_strings(response.content)


def test_daily_of_a_past_day_adds_deck_and_solution(anon):
    day = utc_today() - dt.timedelta(days=3)
    deals = store_daily(day)
    response = anon.get(f"/api/v1/daily/{day.isoformat()}")
    assert response.status_code == 200
    deal = response.json()["deals"]["westcliff"]
    assert deal["deck"] == deals["westcliff"].deck
    assert deal["solution"] == deals["westcliff"].solution


def test_daily_of_a_future_day_is_404_even_when_prepared(anon):
    day = utc_today() + dt.timedelta(days=1)
    store_daily(day)
    response = anon.get(f"/api/v1/daily/{day.isoformat()}")
    assert_problem(response, 404, "not_found")
    assert b'"deck"' not in response.content


def test_daily_of_a_past_day_without_deals_is_404(anon):
    assert_problem(anon.get("/api/v1/daily/2001-01-01"), 404, "not_found")


@pytest.mark.parametrize("text", ["tomorrow", "2026-13-01", "29-11-2026", "2026-02-30", "x" * 300])
def test_daily_of_a_bad_date_is_400(anon, text):
    assert_problem(anon.get(f"/api/v1/daily/{text}"), 400, "invalid_date")


def test_daily_today_asks_the_daily_service(anon, monkeypatch):
    calls = []
    monkeypatch.setattr("games.daily.service._prepare_day", lambda day: calls.append(day))
    response = anon.get("/api/v1/daily/today")
    assert response.status_code == 200
    assert response.json()["deals"] == {}
    assert calls == [utc_today()]


def test_health(anon):
    response = anon.get("/api/v1/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
