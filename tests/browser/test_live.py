"""The live parts of the web client in Chromium: the day's board updating beside the table
while the player plays, and the tournaments (list, join, standings; a seeded one's own deal
played from its screen).

The live server is WSGI (as ``make run``), so the streams answer ``fallback`` and the
client polls what it names (docs/live.md); ``REALTIME_POLL_SECONDS`` is 1 here. The same
client code follows a real stream under uvicorn (tests/realtime cover the server side).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games.daily import utc_today
from games.models import Play
from tests.factories import client_for, make_user
from tournaments import seeding, services

from .driver import expect, register, screen, start_ranked
from .support import DAILY_PRESET

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _poll_fast(settings):
    settings.REALTIME_POLL_SECONDS = 1


def _finish_daily(user, preset: str = DAILY_PRESET) -> None:
    api = client_for(user)
    play = api.post("/api/v1/plays", {"preset": preset, "daily": utc_today().isoformat()}).json()
    body = {"seq": play["seq"], "move": {"type": "resign"}}
    assert api.post(f"/api/v1/plays/{play['id']}/moves", body).status_code == 200


def test_the_days_board_updates_beside_the_table(open_browser, daily_deals):
    b = open_browser()
    register(b)
    start_ranked(b, DAILY_PRESET)
    board = b.page.locator("aside.live-board")
    expect(board).to_be_visible()
    expect(board.locator("h3")).to_have_text("Live board")
    b.shot("live-board-empty")
    _finish_daily(make_user("rival"))  # someone else finishes while we play
    expect(board.locator("tr", has_text="rival")).to_be_visible(timeout=15_000)
    b.shot("live-board-rival")
    assert b.errors == []


def test_tournaments_list_join_and_standings(open_browser, daily_deals):
    now = timezone.now()
    cup = services.build(
        name="Evening cup", preset=DAILY_PRESET, starts_at=now - dt.timedelta(minutes=5),
        ends_at=now + dt.timedelta(hours=2), max_players=10,
    )
    b = open_browser()
    register(b)
    b.page.evaluate("location.hash = '#/tournaments'")
    item = b.page.locator(f"li[data-tournament='{cup.pk}']")
    expect(item).to_contain_text("Evening cup")
    expect(item.locator(".status")).to_have_text("Running")
    b.shot("tournaments")
    item.locator("button.join").click()
    expect(b.page.locator("section.tournament h2")).to_have_text("Evening cup")
    expect(b.page.locator("section.tournament p.status")).to_contain_text("1 players")
    b.shot("tournament-joined")

    rival = make_user("rival2")
    assert client_for(rival).post(f"/api/v1/tournaments/{cup.pk}/join").status_code == 201
    _finish_daily(rival)
    standings = b.page.locator("section.tournament .standings")
    expect(standings.locator("tr", has_text="rival2")).to_be_visible(timeout=15_000)
    b.shot("tournament-standings")
    assert b.errors == []


def test_a_seeded_tournaments_deal_is_played_from_its_screen(open_browser):
    now = timezone.now()
    cup = services.build(
        name="Seeded cup", preset="seahaven", deal_rule="seeded", attempts=2,
        starts_at=now - dt.timedelta(minutes=5), ends_at=now + dt.timedelta(hours=2),
    )  # fmt: skip
    deal = seeding.own_deal(cup)  # prepared as the save committed (eager Celery here)
    assert deal is not None
    b = open_browser()
    username = register(b)
    b.page.evaluate(f"location.hash = '#/tournaments/{cup.pk}'")
    expect(b.page.locator("section.tournament h2")).to_have_text("Seeded cup")
    expect(b.page.locator("button.play-tournament")).to_have_count(0)  # not joined yet
    b.page.locator("section.tournament button.join").click()
    expect(b.page.locator("section.tournament p.status")).to_contain_text("1 players")
    b.page.locator("button.play-tournament").click()
    expect(screen(b)).to_have_attribute("data-seq", "0")
    b.shot("tournament-seeded-play")
    play_id = b.page.evaluate("location.hash").rsplit("/", 1)[-1]
    play = Play.objects.get(pk=play_id)
    assert play.player.username == username and play.deal_id == deal.pk and play.ranked
    assert b.errors == []
