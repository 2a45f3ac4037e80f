"""Recording scores (leaderboard.scores): one ranked result per play and per day, none for
practice, a board per option set, weekly and all-time totals."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError

from leaderboard import boards, scores
from leaderboard.models import Score, Total
from leaderboard.refs import BoardRef
from tests.factories import make_user

from .helpers import DAY, at, ranked_play, record

BOARD = BoardRef.daily("easthaven", DAY)


@pytest.mark.django_db
def test_one_ranked_result_per_play_and_per_day(django_capture_on_commit_callbacks):
    player = make_user()
    play = ranked_play(player, won=True, moves=70)
    with django_capture_on_commit_callbacks(execute=True):
        first = scores.record_play(play)
        again = scores.record_play(play)
    assert first.pk == again.pk
    assert Score.objects.filter(player=player).count() == 1
    total = Total.objects.get(player=player, period="all")
    assert (total.wins, total.plays, total.points) == (1, 1, 100)
    with pytest.raises(IntegrityError):  # the games app's constraint: one ranked play a day
        ranked_play(player, cards=3)


@pytest.mark.django_db
def test_practice_and_unfinished_plays_get_no_score():
    player = make_user()
    play = ranked_play(player, won=True)
    play.ranked = False
    assert scores.record_play(play) is None
    play.ranked, play.status = True, "playing"
    assert scores.record_play(play) is None
    assert not Score.objects.exists()


@pytest.mark.django_db
def test_options_make_their_own_board(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user("plain"), won=True)
        record(make_user("partial"), won=True, options={"partial_runs": True})
    assert [e["username"] for e in boards.read(BOARD, "first", 9).entries] == ["plain"]
    ref = BoardRef.daily("easthaven+partial_runs", DAY)
    assert [e["username"] for e in boards.read(ref, "first", 9).entries] == ["partial"]


@pytest.mark.django_db
def test_weekly_and_all_time_totals(django_capture_on_commit_callbacks, no_redis):
    alice, bob, carol, dave = (make_user(n) for n in ("alice", "bob", "carol", "dave"))
    monday = dt.date(2026, 11, 23)
    with django_capture_on_commit_callbacks(execute=True):
        for day, (who, figures) in [
            (monday, (alice, dict(won=True))),
            (monday, (bob, dict(won=True))),
            (monday, (carol, dict(cards=40))),
            (monday + dt.timedelta(days=1), (alice, dict(cards=10))),
            (monday + dt.timedelta(days=1), (bob, dict(cards=30))),
            (monday + dt.timedelta(days=1), (carol, dict(won=True))),
            (monday + dt.timedelta(days=2), (carol, dict(cards=0, status="resigned"))),
            (monday - dt.timedelta(days=1), (dave, dict(won=True))),  # the week before
            (monday - dt.timedelta(days=2), (dave, dict(won=True))),
        ]:
            record(who, day=day, finished_at=at(day, 12), **figures)
    week = boards.read(BoardRef.weekly("easthaven", "2026-W48"), "first", 10)
    assert [(e["username"], e["wins"], e["points"], e["plays"]) for e in week.entries] == [
        ("carol", 1, 140, 3),  # 40 + 100 + 0
        ("bob", 1, 130, 2),
        ("alice", 1, 110, 2),
    ]
    alltime = boards.read(BoardRef.all_time("easthaven"), "first", 10)
    assert [e["username"] for e in alltime.entries] == ["dave", "carol", "bob", "alice"]
    assert [e["rank"] for e in alltime.entries] == [1, 2, 3, 4]
