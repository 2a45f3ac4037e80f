"""``rebuild_leaderboards`` and the Celery tasks."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from leaderboard import boards, store, tasks
from leaderboard.models import FrozenDay, Score
from leaderboard.refs import BoardRef
from tests.factories import make_user

from .helpers import DAY, ranked_play, record, via_redis

TODAY_BOARD = BoardRef.all_time("easthaven")


@pytest.mark.django_db
@pytest.mark.redis
def test_rebuild_command_restores_every_board(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(4):
            record(make_user(f"c{i}"), won=i % 2 == 0, cards=20 + i, moves=60 + i)
    unscored = ranked_play(make_user("crashed"), won=True, moves=10)  # receiver never ran
    store.delete_all()
    out = StringIO()
    call_command("rebuild_leaderboards", "--rescore", "--freeze", stdout=out)
    assert "scored 1 play(s)" in out.getvalue()
    assert "rebuilt 3 board(s)" in out.getvalue()
    assert Score.objects.filter(play=unscored).exists()
    assert FrozenDay.objects.filter(board="easthaven", date=DAY).exists()
    for ref in (BoardRef.weekly("easthaven", "2026-W48"), TODAY_BOARD):
        assert store.exists(ref.redis_key)
        result = via_redis(lambda ref=ref: boards.read(ref, "first", 10))
        # Equal wins, points and plays: player id order (crashed signed up last).
        assert [e["username"] for e in result.entries] == ["c0", "c2", "crashed", "c3", "c1"]
    daily = boards.read(BoardRef.daily("easthaven", DAY), "first", 10)
    assert [e["username"] for e in daily.entries] == ["crashed", "c0", "c2", "c3", "c1"]
    assert [e["rank"] for e in daily.entries] == [1, 2, 3, 4, 5]


@pytest.mark.django_db
def test_rebuild_command_without_redis_says_so(no_redis):
    with pytest.raises(CommandError, match="REDIS_URL"):
        call_command("rebuild_leaderboards", stdout=StringIO())


@pytest.mark.django_db
def test_freeze_tasks(django_capture_on_commit_callbacks, monkeypatch):
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user(), won=True)
        record(make_user(), cards=3)
    assert tasks.freeze_day.delay(DAY.isoformat()).get() == 1
    assert sorted(Score.objects.values_list("rank", flat=True)) == [1, 2]
    monkeypatch.setattr("games.daily.utc_today", lambda: DAY + dt.timedelta(days=1))
    assert tasks.freeze_yesterday.delay().get() == 1
