"""The leaderboard's side of a decision (``leaderboard.moderation``) on hand-made results:
a hidden score leaves frozen ranks, totals, streaks, groups and others' profiles, its owner
still sees it, a restore puts everything back, and Redis equals PostgreSQL after each."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from leaderboard import moderation, ranking
from leaderboard.models import Score, Total
from leaderboard.refs import BoardRef
from tests.factories import client_for, make_user
from tests.leaderboard.helpers import DAY, at, record

from .helpers import assert_redis_equals_postgres

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]
BOARD = "/api/v1/leaderboards/easthaven"
REFS = [
    BoardRef.daily("easthaven", DAY),
    BoardRef.weekly("easthaven", ranking.iso_week(DAY)),
    BoardRef.all_time("easthaven"),
]


def _names(client: APIClient, path: str) -> list[str]:
    response = client.get(f"{BOARD}/{path}")
    assert response.status_code == 200, response.content
    return [entry["username"] for entry in response.json()["results"]]


@pytest.fixture
def results(django_capture_on_commit_callbacks):
    """Three results of 2026-11-26: ace (best, won), bob (won), cid (lost)."""
    users = [make_user(name) for name in ("ace", "bob", "cid")]
    with django_capture_on_commit_callbacks(execute=True):
        plays = [
            record(users[0], won=True, moves=60, finished_at=at(DAY, 9)),
            record(users[1], won=True, moves=70, finished_at=at(DAY, 10)),
            record(users[2], cards=30, finished_at=at(DAY, 11)),
        ]
    # The first reads freeze the past day and have Redis build the weekly and all-time
    # boards (a frozen day is served from its stored ranks, never from Redis).
    for path in (f"daily/{DAY}", f"weekly/{ranking.iso_week(DAY)}", "all-time"):
        _names(APIClient(), path)
    return users, plays


def test_hide_and_restore_follow_on_every_board(results, django_capture_on_commit_callbacks):
    (ace, bob, cid), (best, _, _) = results
    anon, owner = APIClient(), client_for(ace)
    assert _names(anon, f"daily/{DAY}") == ["ace", "bob", "cid"]

    with django_capture_on_commit_callbacks(execute=True):
        assert moderation.hide_play(best.play_id)
        assert not moderation.hide_play(best.play_id)  # idempotent
    assert _names(anon, f"daily/{DAY}") == ["bob", "cid"]
    frozen = dict(Score.objects.values_list("player__username", "rank"))
    assert frozen == {"ace": None, "bob": 1, "cid": 2}
    for path in (f"weekly/{ranking.iso_week(DAY)}", "all-time"):
        assert _names(anon, path) == ["bob", "cid"]
    assert not Total.objects.filter(player=ace, shadow=False).exists()
    assert_redis_equals_postgres(REFS[1:])
    # Others see no win and no streak; the owner sees their own ranked result unchanged.
    seen = anon.get("/api/v1/players/ace").json()
    assert (seen["wins"], seen["best_streak"], seen["best_ranks"]) == (0, 0, [])
    mine = owner.get("/api/v1/players/me").json()
    assert (mine["wins"], mine["best_streak"]) == (1, 1)
    shadow = owner.get(f"{BOARD}/daily/{DAY}")
    assert [(e["rank"], e["username"]) for e in shadow.json()["results"]] == [
        (1, "ace"),
        (2, "bob"),
        (3, "cid"),
    ]
    assert shadow["Cache-Control"].startswith("private")
    # Their weekly and all-time boards count it too, as if nothing were hidden.
    for path in (f"weekly/{ranking.iso_week(DAY)}", "all-time"):
        own = owner.get(f"{BOARD}/{path}").json()["results"]
        assert [(e["rank"], e["username"], e["wins"]) for e in own] == [
            (1, "ace", 1),
            (2, "bob", 1),
            (3, "cid", 0),
        ]
        around = owner.get(f"{BOARD}/{path}?around=me&n=0").json()["results"]
        assert [(e["rank"], e["username"]) for e in around] == [(1, "ace")]
    # A group's board leaves it out for the other members too.
    group = owner.post("/api/v1/groups", {"name": "club"}, format="json").json()
    client_for(bob).post("/api/v1/groups/join", {"code": group["code"]}, format="json")
    assert _names(client_for(bob), f"daily/{DAY}?group={group['id']}") == ["bob"]

    with django_capture_on_commit_callbacks(execute=True):
        assert moderation.restore_play(best.play_id)
    assert _names(anon, f"daily/{DAY}") == ["ace", "bob", "cid"]
    assert dict(Score.objects.values_list("player__username", "rank"))["ace"] == 1
    assert not Total.objects.filter(shadow=True).exists()  # nothing hidden: no shadow rows
    assert _names(anon, "all-time") == ["ace", "bob", "cid"]
    assert anon.get("/api/v1/players/ace").json()["best_streak"] == 1
    assert_redis_equals_postgres(REFS[1:])


def test_hiding_a_player_hides_every_ranked_score(results, django_capture_on_commit_callbacks):
    (ace, _, _), _ = results
    with django_capture_on_commit_callbacks(execute=True):
        record(ace, cards=12, day=DAY.replace(day=25), finished_at=at(DAY.replace(day=25), 9))
        assert moderation.hide_player(ace.pk) == 2
    assert not Score.objects.filter(player=ace, hidden=False).exists()
    assert _names(APIClient(), "all-time") == ["bob", "cid"]
    assert_redis_equals_postgres(REFS[1:])
