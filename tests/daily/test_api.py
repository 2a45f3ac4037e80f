"""The daily deals through the API, end to end, with the real solver and the real lock.

* With no worker at all, ``GET /api/v1/daily/today`` prepares the day on demand within the
  time budget, saying ``unknown`` where the solver ran out of it.
* A future day's deck (and today's) appears in no response; a past day's deck and par
  solution do, and the solution replays through the engine to a win.
"""

from __future__ import annotations

import datetime as dt
import json
import time

import pytest
from rest_framework.test import APIClient

from games import daily, engine
from games.daily import tasks, utc_today
from games.models import Deal, Source
from tests.factories import client_for, make_user

from .conftest import wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _generous_throttles(settings):
    rates = {"plays": "100000/min", "moves": "100000/min", "auth": "100000/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


def _client(username: str) -> APIClient:
    return client_for(make_user(username))


def _deck_leaks(body: bytes, deck: list[str]) -> bool:
    """Does ``body`` show ``deck``, or any eight cards of it in dealing order?"""
    text = body.decode().replace(" ", "")
    if '"deck"' in text:
        return True
    return any(
        json.dumps(deck[i : i + 8], separators=(",", ":"))[1:-1] in text
        for i in range(len(deck) - 7)
    )


def test_on_demand_with_no_worker_is_bounded_and_stored(settings):
    settings.SOLVER_BUDGET_SECONDS = 3.0  # the on-demand path's whole budget by default
    anon = APIClient()
    started = time.monotonic()
    response = anon.get("/api/v1/daily/today")
    elapsed = time.monotonic() - started
    assert response.status_code == 200, response.content
    assert elapsed < 3.0 + 4.0, elapsed  # the budget plus the final solve's and DB slack
    body = response.json()
    today = utc_today()
    assert body["date"] == today.isoformat()
    assert set(body["deals"]) == set(engine.PRESETS)
    for preset, deal in body["deals"].items():
        assert deal["verdict"] in ("winnable", "unknown"), (preset, deal)
        assert "deck" not in deal and "solution" not in deal
        if deal["verdict"] == "unknown":
            assert deal["par"] is None
    stored = Deal.objects.filter(source=Source.DAILY, date=today)
    assert stored.count() == 6
    # stored: the next request is served from the database, the same deals
    started = time.monotonic()
    again = anon.get("/api/v1/daily/today").json()
    assert time.monotonic() - started < 1.0
    assert {p: d["id"] for p, d in again["deals"].items()} == {
        p: d["id"] for p, d in body["deals"].items()
    }
    # and a ranked play of today's deal starts on it
    play = _client("ondemand").post(
        "/api/v1/plays", {"preset": "seahaven", "daily": today.isoformat()}, format="json"
    )
    assert play.status_code == 201, play.content


def test_future_and_current_decks_appear_in_no_response(settings):
    settings.SOLVER_BUDGET_SECONDS = 2.0
    today = utc_today()
    tomorrow = today + dt.timedelta(days=1)
    daily.get_or_prepare_day(tomorrow, time_budget=3.0)  # as the workers would, days ahead
    secret = [
        Deal.objects.get(source=Source.DAILY, date=tomorrow, preset=p).deck for p in engine.PRESETS
    ]
    client, anon = _client("peeker"), APIClient()
    responses = [
        anon.get(f"/api/v1/daily/{tomorrow.isoformat()}"),
        anon.get(f"/api/v1/daily/{(tomorrow + dt.timedelta(days=6)).isoformat()}"),
        client.post("/api/v1/plays", {"preset": "seahaven", "daily": tomorrow.isoformat()}),
        anon.get("/api/v1/daily/today"),  # prepares today on demand
    ]  # fmt: skip
    assert [r.status_code for r in responses[:3]] == [404, 404, 404]
    assert responses[3].status_code == 200
    secret += [
        Deal.objects.get(source=Source.DAILY, date=today, preset=p).deck for p in engine.PRESETS
    ]
    for preset in engine.PRESETS:
        start = client.post(
            "/api/v1/plays", {"preset": preset, "daily": today.isoformat()}, format="json"
        )
        assert start.status_code == 201, start.content
        play = start.json()
        responses += [start, client.get(f"/api/v1/plays/{play['id']}")]
        if play["legal_moves"]:
            moved = client.post(
                f"/api/v1/plays/{play['id']}/moves",
                {"seq": play["seq"], "move": play["legal_moves"][0]},
                format="json",
            )
            assert moved.status_code == 200, moved.content
            responses.append(moved)
        responses.append(client.get(f"/api/v1/plays/{play['id']}/moves"))
        responses.append(anon.get(f"/api/v1/leaderboards/{preset}/daily/{today.isoformat()}"))
    responses.append(client.get("/api/v1/players/me"))
    for response in responses:
        for deck in secret:
            assert not _deck_leaks(response.content, deck), (
                response.status_code,
                response.content[:300],
            )


@pytest.mark.redis
def test_a_past_day_shows_decks_and_par_solutions_that_win(workers, settings):
    """A worker prepared yesterday; now that it is over, the API shows each deck and par
    solution, and every solution replays through the engine to a win."""
    settings.RANKED_GRACE_MINUTES = 0  # published at midnight: no flake just after it
    yesterday = utc_today() - dt.timedelta(days=1)
    workers.start("w1", HAVEN_TEST_MAX_ATTEMPTS="2")
    tasks.prepare_daily.apply_async((yesterday.isoformat(),), queue=workers.queue).get(timeout=60)
    wait_for(
        lambda: Deal.objects.filter(source=Source.DAILY, date=yesterday).count() == 6,
        240,
        "yesterday's six deals",
    )
    response = APIClient().get(f"/api/v1/daily/{yesterday.isoformat()}")
    assert response.status_code == 200
    deals = response.json()["deals"]
    assert set(deals) == set(engine.PRESETS)
    winnable = []
    for preset, shown in deals.items():
        stored = Deal.objects.get(source=Source.DAILY, date=yesterday, preset=preset)
        assert shown["deck"] == stored.deck
        assert shown["solution"] == stored.solution
        if shown["verdict"] != "winnable":
            assert shown["par"] is None and shown["solution"] == []
            continue
        winnable.append(preset)
        rules = engine.get_rules(preset)
        state, index, error = engine.replay(
            rules, engine.parse_deck(shown["deck"]), shown["solution"]
        )
        assert error is None, (preset, index, error)
        assert engine.status(state) == engine.WON
        assert shown["par"] == len(shown["solution"])
    assert {"seahaven", "westcliff"} <= set(winnable)
