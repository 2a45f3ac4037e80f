"""A tournament's life: a group owner creates it, players join inside the join window
(``tournament_closed`` after it, ``tournament_full`` over the cap), play, and the beat
freezes the final standing, which follows fair play's decisions (docs/tournaments.md)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games.daily import utc_today
from leaderboard import groups, moderation
from leaderboard.models import Score
from tests.factories import client_for, make_user, store_daily
from tournaments import services, tasks
from tournaments.models import Standing, Tournament

pytestmark = pytest.mark.postgres


@pytest.fixture
def deals(db):
    return store_daily(utc_today(), seed_base=4300)


def _window(**extra):
    now = timezone.now()
    return {
        "starts_at": (now - dt.timedelta(hours=1)).isoformat(),
        "ends_at": (now + dt.timedelta(hours=2)).isoformat(),
        **extra,
    }


def _resign_daily(client, preset="easthaven"):
    """Start today's ranked daily and resign it (its score is recorded after the commit)."""
    started = client.post("/api/v1/plays", {"preset": preset, "daily": utc_today().isoformat()})
    assert started.status_code == 201, started.content
    play = started.json()
    body = {"seq": play["seq"], "move": {"type": "resign"}}
    moved = client.post(f"/api/v1/plays/{play['id']}/moves", body)
    assert moved.status_code == 200, moved.content
    return play["id"]


def _group_with(owner, *members):
    group = groups.create_group(owner, "club")
    for member in members:
        groups.join_group(member, group.code)
    return group


def test_join_play_freeze(deals, django_capture_on_commit_callbacks):
    owner, ann, bob = make_user("owner"), make_user("ann"), make_user("bob")
    group = _group_with(owner, ann, bob)
    created = client_for(owner).post(
        "/api/v1/tournaments",
        {"group": group.pk, "name": "Sunday cup", "preset": "easthaven", **_window()},
    )
    assert created.status_code == 201, created.content
    tournament = created.json()
    assert tournament["status"] == "running" and tournament["entrants"] == 0
    url = f"/api/v1/tournaments/{tournament['id']}"

    for player in (ann, bob):
        joined = client_for(player).post(f"{url}/join")
        assert joined.status_code == 201 and joined.json()["joined"] is True
    assert client_for(ann).post(f"{url}/join").status_code == 200  # again: no error

    with django_capture_on_commit_callbacks(execute=True):
        ann_play = _resign_daily(client_for(ann))
        _resign_daily(client_for(bob))
        _resign_daily(client_for(owner))  # not an entrant: not counted

    live = client_for(owner).get(url).json()
    assert [p["username"] for p in live["standings"] if p["rank"]] == ["ann", "bob"]
    assert "deck" not in str(live) and "cards" not in live

    assert tasks.freeze_closed() == 0  # still running
    Tournament.objects.filter(pk=tournament["id"]).update(ends_at=timezone.now())
    assert tasks.freeze_closed() == 1
    assert tasks.freeze_closed() == 0  # idempotent: frozen once
    final = client_for(bob).get(url).json()
    assert final["status"] == "final"
    assert [(p["rank"], p["username"]) for p in final["standings"]] == [(1, "ann"), (2, "bob")]

    # Fair play hides ann's play afterwards: the final standing follows.
    with django_capture_on_commit_callbacks(execute=True):
        moderation.hide_play(ann_play)
    assert Score.objects.get(play_id=ann_play).hidden
    final = client_for(bob).get(url).json()
    assert [(p["rank"], p["username"]) for p in final["standings"]] == [(1, "bob")]
    assert Standing.objects.filter(tournament_id=tournament["id"]).count() == 1


def test_a_join_after_the_window_is_tournament_closed(db):
    owner, late = make_user("owner2"), make_user("late")
    group = _group_with(owner, late)
    now = timezone.now()
    tournament = services.create(
        owner,
        group.pk,
        name="closed",
        preset="easthaven",
        starts_at=now - dt.timedelta(hours=3),
        ends_at=now + dt.timedelta(hours=1),
        join_until=now - dt.timedelta(hours=2),
    )
    answer = client_for(late).post(f"/api/v1/tournaments/{tournament.pk}/join")
    assert answer.status_code == 409
    assert answer["Content-Type"] == "application/problem+json"
    assert answer.json()["code"] == "tournament_closed"


def test_an_over_cap_join_is_tournament_full(db):
    owner = make_user("owner3")
    players = [make_user(f"cap{i}") for i in range(3)]
    group = _group_with(owner, *players)
    now = timezone.now()
    tournament = services.create(
        owner,
        group.pk,
        name="small",
        preset="easthaven",
        max_players=2,
        starts_at=now,
        ends_at=now + dt.timedelta(hours=1),
    )
    url = f"/api/v1/tournaments/{tournament.pk}/join"
    assert [client_for(p).post(url).status_code for p in players[:2]] == [201, 201]
    answer = client_for(players[2]).post(url)
    assert answer.status_code == 409 and answer.json()["code"] == "tournament_full"
    assert answer.json()["max_players"] == 2


def test_a_groups_tournament_is_not_found_by_others_nor_made_by_them(db):
    owner, member, stranger = make_user("o4"), make_user("m4"), make_user("s4")
    group = _group_with(owner, member)
    body = {"group": group.pk, "name": "x", "preset": "easthaven", **_window()}
    refused = client_for(member).post("/api/v1/tournaments", body)
    assert refused.status_code == 403 and refused.json()["code"] == "not_group_owner"
    made = client_for(owner).post("/api/v1/tournaments", body).json()
    hidden = client_for(stranger).get(f"/api/v1/tournaments/{made['id']}")
    assert hidden.status_code == 404 and hidden.json()["code"] == "tournament_not_found"
    assert client_for(stranger).get("/api/v1/tournaments").json()["results"] == []
    assert client_for(stranger).post(f"/api/v1/tournaments/{made['id']}/join").status_code == 404


@pytest.mark.parametrize(
    "change",
    [
        {"ends_at": (timezone.now() - dt.timedelta(hours=5)).isoformat()},
        {"max_players": 1},
        {"preset": "no-such-game"},
        {"join_until": (timezone.now() + dt.timedelta(days=3)).isoformat()},
    ],
)
def test_a_tournament_that_makes_no_sense_is_refused(db, change):
    owner = make_user()
    group = _group_with(owner)
    body = {"group": group.pk, "name": "x", "preset": "easthaven", **_window(), **change}
    answer = client_for(owner).post("/api/v1/tournaments", body)
    assert answer.status_code == 400
    assert answer.json()["code"] in ("invalid_tournament", "validation_error")


def test_the_weekly_cup_is_made_once_per_week(db, settings):
    settings.TOURNAMENTS_WEEKLY_PRESETS = ["easthaven", "westcliff"]
    assert tasks.create_weekly_cups() == 2
    assert tasks.create_weekly_cups() == 2
    cups = Tournament.objects.filter(recurrence__startswith="weekly-cup:")
    assert cups.count() == 2
    cup = cups.get(preset="easthaven")
    assert cup.starts_at.weekday() == 0 and cup.ends_at - cup.starts_at == dt.timedelta(days=7)
    assert cup.starts_at.date() <= utc_today() < cup.ends_at.date()
    player = make_user()
    assert client_for(player).post(f"/api/v1/tournaments/{cup.pk}/join").status_code in (201, 409)
