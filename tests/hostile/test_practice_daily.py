"""The live daily is never a practice deck (issue 45).

The attack: Seahaven deals every card face up, so a ranked start shows the whole deck; the
cheater sends it to ``POST /plays`` as a practice deck (whole, or disguised: columns and
cells reordered, suits relabelled, another preset, options) or finds a seed or PySol number
that deals it, then asks ``/hint`` for the win, and hands the play to a fresh account when
the hint limit answers 429. Through the real API on PostgreSQL and Redis.
"""

from __future__ import annotations

import datetime as dt

import pytest

from games import engine
from games.daily import utc_today
from games.models import Deal, Source
from tests.factories import client_for, make_user

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db]

SUITS = "SHDC"


def store(day: dt.date, preset: str, deck: list[str]) -> Deal:
    return Deal.objects.create(
        preset=preset, source=Source.DAILY, date=day, deck=deck, verdict="winnable", par=90
    )


def practice(client, **body):
    return client.post("/api/v1/plays", body, format="json")


def refused(response) -> None:
    assert response.status_code == 409, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == "live_daily_deal"


def seahaven_deck_from_view(view: dict, columns: list[int], cells: list[int], suits: str) -> list:
    """The deck a player rebuilds from a Seahaven view: columns taken in ``columns`` order,
    the two cell cards in ``cells`` order, each suit renamed to ``suits``'s letter."""
    rename = dict(zip(SUITS, suits, strict=True))
    piles = [view["tableau"][c]["up"] for c in columns]
    deck = [piles[c][r] for r in range(5) for c in range(10)]
    dealt = [card for card in view["cells"] if card is not None]
    deck += [dealt[i] for i in cells]
    return [card[0] + rename[card[1]] for card in deck]


@pytest.fixture
def seahaven_daily(client):
    """Today's seahaven daily, and the view a ranked start of it shows the cheater."""
    deck = engine.format_deck(engine.deck_from_seed(4242))
    store(utc_today(), "seahaven", deck)
    response = client.post("/api/v1/plays", {"preset": "seahaven", "daily": "today"}, format="json")
    assert response.status_code == 201, response.content
    return deck, response.json()


def test_the_seahaven_dailys_visible_deck_sent_whole_is_refused(client, seahaven_daily):
    deck, ranked = seahaven_daily
    seen = seahaven_deck_from_view(ranked, list(range(10)), [0, 1], SUITS)
    assert seen == deck
    refused(practice(client, preset="seahaven", deck=seen))
    refused(practice(client, preset="seahaven", deck=seen, options={"classic_supermove": True}))
    for preset in ("easthaven", "westcliff", "westcliff-classic"):
        refused(practice(client, preset=preset, deck=seen))
    refused(practice(client, preset="easthaven-open", deck=seen, options={"partial_runs": True}))


@pytest.mark.parametrize(
    ("columns", "cells", "suits"),
    [
        ([9, 8, 7, 6, 5, 4, 3, 2, 1, 0], [1, 0], SUITS),
        ([3, 1, 4, 0, 5, 9, 2, 6, 8, 7], [0, 1], "HSCD"),
        ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 0], "CDHS"),
    ],
)
def test_the_same_deck_disguised_is_refused(client, seahaven_daily, columns, cells, suits):
    _, ranked = seahaven_daily
    disguised = seahaven_deck_from_view(ranked, columns, cells, suits)
    refused(practice(client, preset="seahaven", deck=disguised))
    refused(practice(client, preset="westcliff", deck=disguised))


def test_a_stock_game_disguised_by_its_symmetries_is_refused(client):
    """Easthaven: a column travels with the stock cards dealt onto it; t0-t2 (which get the
    last short row) among themselves, t3-t6 likewise. Westcliff: columns in any order."""
    deck = engine.format_deck(engine.deck_from_seed(99))
    store(utc_today(), "easthaven", deck)
    units = [deck[c::7] for c in range(7)]
    order = [2, 0, 1, 6, 3, 5, 4]
    moved = [units[order[i % 7]][i // 7] for i in range(52)]
    relabel = dict(zip(SUITS, "DCSH", strict=True))
    refused(practice(client, preset="easthaven", deck=[c[0] + relabel[c[1]] for c in moved]))

    store(utc_today(), "westcliff", westcliff := engine.format_deck(engine.deck_from_seed(98)))
    piles = [westcliff[c:30:10] for c in range(10)][::-1]
    shuffled = [piles[c][r] for r in range(3) for c in range(10)] + westcliff[30:]
    refused(practice(client, preset="westcliff", deck=shuffled))


def test_a_seed_or_pysol_number_that_deals_a_live_daily_is_refused(client):
    store(utc_today(), "westcliff", engine.format_deck(engine.deck_from_seed(31337)))
    store(utc_today(), "seahaven", engine.format_deck(engine.deck_from_pysol(1977)))
    refused(practice(client, preset="westcliff", seed=31337))
    refused(practice(client, preset="easthaven-suit", seed=31337))
    refused(practice(client, preset="seahaven", pysol_deal=1977))
    refused(
        practice(client, preset="seahaven", pysol_deal=1977, options={"classic_supermove": True})
    )
    assert not Deal.objects.exclude(source=Source.DAILY).exists()  # nothing stored for them
    assert practice(client, preset="westcliff", seed=31338).status_code == 201


def test_a_future_prepared_days_deck_is_refused(client):
    deck = engine.format_deck(engine.deck_from_seed(5150))
    store(utc_today() + dt.timedelta(days=3), "easthaven-open", deck)
    refused(practice(client, preset="easthaven-open", deck=deck))


def test_a_published_days_deck_is_allowed(client):
    deck = engine.format_deck(engine.deck_from_seed(8080))
    store(utc_today() - dt.timedelta(days=2), "seahaven", deck)
    response = practice(client, preset="seahaven", deck=deck)
    assert response.status_code == 201, response.content


def test_no_hint_for_a_practice_play_of_a_live_daily(client, settings):
    """The practice play began before its deck became a daily: its hints stop then."""
    deck = engine.format_deck(engine.deck_from_seed(777))
    play = practice(client, preset="seahaven", seed=777).json()
    store(utc_today() + dt.timedelta(days=1), "seahaven", deck)
    response = client.post(f"/api/v1/plays/{play['id']}/hint")
    refused(response)


def test_a_ranked_play_gets_no_hint(client, seahaven_daily):
    _, ranked = seahaven_daily
    response = client.post(f"/api/v1/plays/{ranked['id']}/hint")
    assert response.status_code == 403
    assert response.json()["code"] == "hints_not_allowed"


def test_the_hint_limit_is_not_lifted_by_a_second_account(settings, monkeypatch):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "hints": "2/min",
            "hints_address": "3/min",
        },
    }
    answer = {"result": "no_win_from_here", "move": None, "seconds": 0.0}
    monkeypatch.setattr("games.winnability.hints.cached_or_solved", lambda state: (answer, True))

    def hint(client, address: str):
        play = practice(client, preset="westcliff", seed=12).json()
        return client.post(f"/api/v1/plays/{play['id']}/hint", REMOTE_ADDR=address)

    first, second, elsewhere = (client_for(make_user()) for _ in range(3))
    assert [hint(first, "198.51.100.7").status_code for _ in range(3)] == [200, 200, 429]
    # The play handed to a fresh account, from the same address: one more, then the
    # address's own count (3 a minute) refuses it although this account used none.
    assert hint(second, "198.51.100.7").status_code == 200
    response = hint(second, "198.51.100.7")
    assert response.status_code == 429
    assert response["RateLimit-Policy"] == '"hints_address";q=3;w=60'
    # Another address is another count: players behind other addresses are not affected.
    assert hint(elsewhere, "203.0.113.9").status_code == 200
