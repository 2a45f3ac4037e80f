"""The admin shows deals, plays and moves without leaking today's deck or a play's state."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from games.daily import utc_today
from games.models import Play
from tests.factories import store_daily

from .helpers import hidden_cards, move, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(db):
    from django.test import Client

    get_user_model().objects.create_superuser("root", "root@example.com", "admin-pass-123")
    c = Client()
    c.login(username="root", password="admin-pass-123")
    return c


def test_admin_lists_and_shows_deals_plays_and_moves(admin_client, client, today_deals):
    play = start(client, preset="easthaven", daily=utc_today().isoformat()).json()
    move(client, play, {"type": "deal"})
    for path in (
        "/admin/games/deal/",
        "/admin/games/play/",
        "/admin/games/move/",
        "/admin/web/idempotencykey/",
    ):
        assert admin_client.get(path).status_code == 200, path
    deal = today_deals["easthaven"]
    page = admin_client.get(f"/admin/games/deal/{deal.pk}/change/").content.decode()
    assert "hidden until the day is over" in page
    assert " ".join(deal.deck) not in page
    hidden = hidden_cards(play["id"])
    page = admin_client.get(f"/admin/games/play/{play['id']}/change/").content.decode()
    assert "what the player sees" in page.lower()
    assert not any(f"&quot;{card}&quot;" in page or f'"{card}"' in page for card in hidden)
    row = Play.objects.get(pk=play["id"]).moves.first()
    assert admin_client.get(f"/admin/games/move/{row.pk}/change/").status_code == 200


def test_admin_shows_a_past_days_deck(admin_client):
    deal = store_daily(utc_today() - dt.timedelta(days=2))["seahaven"]
    page = admin_client.get(f"/admin/games/deal/{deal.pk}/change/").content.decode()
    assert " ".join(deal.deck) in page
