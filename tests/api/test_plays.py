"""POST /plays (ranked daily and practice), GET /plays/{id}, GET /plays."""

from __future__ import annotations

import datetime as dt

import pytest

from games import engine
from games.daily import utc_today
from games.models import Deal, Play
from tests.factories import store_daily

from .helpers import assert_problem, start

pytestmark = pytest.mark.django_db

META = {
    "id",
    "preset",
    "options",
    "ranked",
    "daily",
    "status",
    "seq",
    "score",
    "started_at",
    "finished_at",
}


@pytest.mark.parametrize("preset", sorted(engine.PRESETS))
def test_practice_by_seed_for_every_preset(client, preset):
    response = start(client, preset=preset, seed=12345)
    assert response.status_code == 201, response.content
    play = response.json()
    assert META <= set(play)
    assert play["preset"] == preset
    assert play["ranked"] is False
    assert play["daily"] is None
    assert play["status"] == "playing"
    assert play["seq"] == 0
    assert play["score"] == {"foundation_cards": 0, "moves": 0, "undos": 0, "seconds": None}
    assert play["finished_at"] is None
    assert play["options"] == dict(engine.PRESETS[preset].options)
    rules = engine.PRESETS[preset]
    assert len(play["tableau"]) == rules.columns
    assert set(play["foundations"]) == {"S", "H", "D", "C"}
    assert isinstance(play["stock"], int)
    assert ("cells" in play) == (preset == "seahaven")
    assert ("waste" in play) == preset.startswith("westcliff")
    assert play["legal_moves"]
    expected = engine.visible(engine.new_game(rules, engine.deck_from_seed(12345)))
    assert {key: play[key] for key in expected} == expected


def test_same_seed_reuses_its_deal(client):
    first = start(client, preset="westcliff", seed=7).json()
    second = start(client, preset="westcliff", seed=7).json()
    assert first["id"] != second["id"]
    assert Deal.objects.filter(source="seed", seed=7).count() == 1


def test_practice_by_pysol_number(client):
    response = start(client, preset="seahaven", pysol_deal=1977)
    assert response.status_code == 201
    expected = engine.visible(
        engine.new_game(engine.PRESETS["seahaven"], engine.deck_from_pysol(1977))
    )
    assert response.json()["tableau"] == expected["tableau"]


def test_practice_by_deck_accepts_10_for_ten(client):
    deck = engine.format_deck(engine.deck_from_seed(99))
    spelled = [card.replace("T", "10") for card in deck]
    response = start(client, preset="easthaven-open", deck=spelled)
    assert response.status_code == 201, response.content
    assert response.json()["tableau"][0]["up"] == [deck[14]]


def test_options_are_applied_and_echoed(client):
    response = start(client, preset="easthaven", seed=1, options={"partial_runs": True})
    assert response.status_code == 201
    assert response.json()["options"] == {"partial_runs": True}
    play = Play.objects.get(pk=response.json()["id"])
    assert play.options == {"partial_runs": True}

    seahaven = start(client, preset="seahaven", seed=1, options={"classic_supermove": True})
    assert seahaven.json()["options"] == {"classic_supermove": True}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"preset": "klondike", "seed": 1}, "unknown_preset"),
        ({"preset": "easthaven", "seed": 1, "options": {"supermove": True}}, "unknown_option"),
        ({"preset": "seahaven", "seed": 1, "options": {"partial_runs": True}}, "unknown_option"),
        ({"preset": "easthaven", "seed": -1}, "seed_out_of_range"),
        ({"preset": "easthaven", "seed": 2**63}, "seed_out_of_range"),
        ({"preset": "easthaven", "pysol_deal": 0}, None),
        ({"preset": "easthaven", "deck": ["AS"] * 52}, "invalid_deck"),
        ({"preset": "easthaven", "deck": ["AS", "KD"]}, "invalid_deck"),
        ({"preset": "easthaven", "deck": ["ZZ"] * 52}, "invalid_deck"),
        ({"preset": "easthaven"}, "validation_error"),
        ({"preset": "easthaven", "seed": 1, "pysol_deal": 2}, "validation_error"),
        ({"seed": 1}, "validation_error"),
        ({"preset": "easthaven", "seed": "many"}, "validation_error"),
        ({"preset": "easthaven", "seed": 1.5}, "validation_error"),
        ({"preset": "easthaven", "deck": "AS KD"}, "validation_error"),
        ({"preset": "easthaven", "seed": 1, "options": ["partial_runs"]}, "validation_error"),
        ({"preset": "easthaven", "daily": "yesterday"}, "validation_error"),
        ({"preset": ["easthaven"], "seed": 1}, "validation_error"),
    ],
)
def test_bad_start_requests_are_400(client, body, code):
    assert_problem(start(client, **body), 400, code)
    assert Play.objects.count() == 0


def test_a_non_object_body_is_400(client):
    for body in ([1, 2], "easthaven", 3, None):
        response = client.post("/api/v1/plays", body, format="json")
        assert_problem(response, 400)


def test_an_invalid_deck_error_does_not_echo_the_deck(client):
    deck = engine.format_deck(engine.deck_from_seed(5))
    deck[-1] = deck[0]  # a duplicate
    response = start(client, preset="easthaven", deck=deck)
    assert_problem(response, 400, "invalid_deck")
    assert "invalid_deck" in response.content.decode()
    assert not any(f'"{card}"' in response.content.decode() for card in deck)
    assert deck[0] not in response.json()["detail"]


# --- ranked daily plays -------------------------------------------------------------------


def test_ranked_play_of_today(client, today_deals):
    today = utc_today()
    response = start(client, preset="easthaven", daily=today.isoformat())
    assert response.status_code == 201, response.content
    play = response.json()
    assert play["ranked"] is True
    assert play["daily"] == today.isoformat()
    stored = Play.objects.get(pk=play["id"])
    assert stored.deal == today_deals["easthaven"]
    assert stored.daily_date == today


def test_second_ranked_play_is_409_even_with_other_options(client, today_deals):
    today = utc_today().isoformat()
    assert start(client, preset="westcliff", daily=today).status_code == 201
    assert_problem(start(client, preset="westcliff", daily=today), 409, "already_played")
    again = start(client, preset="westcliff", daily=today, options={"partial_runs": True})
    assert_problem(again, 409, "already_played")
    # other presets and practice plays are still open
    assert start(client, preset="seahaven", daily=today).status_code == 201
    assert start(client, preset="westcliff", seed=3).status_code == 201


def test_the_db_constraint_backs_already_played(client, player, today_deals, monkeypatch):
    """Even if the pre-check misses a concurrent start, the unique constraint answers 409."""
    today = utc_today().isoformat()
    assert start(client, preset="easthaven", daily=today).status_code == 201
    real_filter = Play.objects.filter

    class _Blind:
        def exists(self):
            return False

    def blind_filter(*args, **kwargs):
        if kwargs.get("ranked"):
            return _Blind()
        return real_filter(*args, **kwargs)

    monkeypatch.setattr(Play.objects, "filter", blind_filter)
    assert_problem(start(client, preset="easthaven", daily=today), 409, "already_played")
    assert Play.objects.all().count() == 1


def test_another_player_may_play_the_same_day(client, other_client, today_deals):
    today = utc_today().isoformat()
    assert start(client, preset="easthaven", daily=today).status_code == 201
    assert start(other_client, preset="easthaven", daily=today).status_code == 201


def test_ranked_play_of_a_past_day_is_400(client):
    yesterday = utc_today() - dt.timedelta(days=1)
    store_daily(yesterday)
    assert_problem(
        start(client, preset="easthaven", daily=yesterday.isoformat()), 400, "daily_over"
    )


def test_ranked_play_of_a_future_day_is_404(client):
    tomorrow = utc_today() + dt.timedelta(days=1)
    store_daily(tomorrow)
    response = start(client, preset="easthaven", daily=tomorrow.isoformat())
    assert_problem(response, 404, "daily_not_available")


def test_ranked_play_without_a_prepared_deal_is_404(client):
    response = start(client, preset="easthaven", daily=utc_today().isoformat())
    assert_problem(response, 404, "daily_not_available")


def test_ranked_play_asks_the_daily_service_for_todays_deal(client, monkeypatch):
    calls = []

    def prepare(day):
        calls.append(day)
        store_daily(day)

    monkeypatch.setattr("games.daily.service._prepare_day", prepare)
    response = start(client, preset="seahaven", daily=utc_today().isoformat())
    assert response.status_code == 201
    assert calls == [utc_today()]


# --- reading plays ---------------------------------------------------------------------------


def test_get_play(client):
    created = start(client, preset="easthaven", seed=11).json()
    response = client.get(f"/api/v1/plays/{created['id']}")
    assert response.status_code == 200
    assert response.json() == created


def test_another_players_play_is_404(client, other_client):
    created = start(client, preset="easthaven", seed=11).json()
    assert_problem(other_client.get(f"/api/v1/plays/{created['id']}"), 404, "not_found")
    assert_problem(other_client.get(f"/api/v1/plays/{created['id']}/moves"), 404, "not_found")
    body = {"seq": 0, "move": created["legal_moves"][0]}
    response = other_client.post(f"/api/v1/plays/{created['id']}/moves", body, format="json")
    assert_problem(response, 404, "not_found")
    assert Play.objects.get(pk=created["id"]).seq == 0


def test_unknown_and_malformed_play_ids_are_404(client):
    assert_problem(client.get("/api/v1/plays/00000000-0000-4000-8000-000000000000"), 404)
    assert_problem(client.get("/api/v1/plays/not-a-uuid"), 404, "not_found")


def test_list_own_plays_newest_first(client, other_client):
    ids = [start(client, preset="easthaven", seed=n).json()["id"] for n in range(3)]
    start(other_client, preset="easthaven", seed=9)
    response = client.get("/api/v1/plays")
    assert response.status_code == 200
    body = response.json()
    assert [play["id"] for play in body["results"]] == ids[::-1]
    assert "tableau" not in body["results"][0]
    assert "state" not in body["results"][0]


def test_list_is_cursor_paginated(client):
    for n in range(3):
        start(client, preset="easthaven", seed=n)
    first = client.get("/api/v1/plays?page_size=2").json()
    assert len(first["results"]) == 2
    assert first["next"]
    second = client.get(first["next"]).json()
    assert len(second["results"]) == 1
