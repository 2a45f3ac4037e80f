"""Simultaneous starts of a seeded tournament's deal by one entrant never exceed its
attempts: the entry's row lock decides (PostgreSQL, one connection per thread)."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest
from django.utils import timezone

from games.models import Play
from tests.api.test_concurrency import run_together
from tests.factories import client_for, make_user
from tournaments import seeding, services
from tournaments.models import Entry

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_simultaneous_starts_stop_at_the_attempts():
    now = timezone.now()
    cup = services.build(
        name="Race", preset="seahaven", deal_rule="seeded", attempts=3,
        starts_at=now - dt.timedelta(minutes=5), ends_at=now + dt.timedelta(hours=1),
    )  # fmt: skip
    seeding.prepare(cup.pk)  # in case the save's hook had no commit to follow
    player = make_user("racer")
    Entry.objects.create(tournament=cup, player=player)

    def start(i):
        answer = client_for(player).post(f"/api/v1/tournaments/{cup.pk}/plays")
        return answer.status_code, answer.json().get("code")

    outcomes = Counter(run_together(start))
    assert outcomes == {(201, None): 3, (409, "tournament_attempts_used"): 5}
    assert Play.objects.filter(player=player, ranked=True).count() == 3
