"""Catching the Redis boards up after a fault (leaderboard.catchup): the outbox of scores
Redis missed, and ranked plays that finished without a score."""

from __future__ import annotations

import datetime as dt

import pytest
from lb_helpers import make_user, ranked_play, record

from games import services as game_services
from leaderboard import boards, catchup, services, store
from leaderboard.models import PendingPush, Score

pytestmark = pytest.mark.django_db


def today() -> dt.date:
    return game_services.utc_today()


def test_a_ranked_play_without_its_score_is_scored_once(no_redis):
    play = ranked_play(make_user(), day=today())
    assert not Score.objects.filter(play=play).exists()
    assert catchup.catch_up() == (1, 0)
    assert Score.objects.filter(play=play).count() == 1
    assert catchup.catch_up() == (0, 0)


def test_plays_older_than_the_window_are_left_to_the_command(no_redis):
    ranked_play(make_user(), day=today() - dt.timedelta(days=5))
    assert catchup.catch_up() == (0, 0)
    assert services.rescore_missing() == 1


def test_without_redis_no_outbox_is_kept(no_redis, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user(), won=True, day=today())
    assert not PendingPush.objects.exists()


@pytest.mark.redis
def test_a_score_redis_missed_is_replayed(django_capture_on_commit_callbacks, monkeypatch):
    player = make_user()
    ref = boards.BoardRef.daily("easthaven", today())
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user(), won=True, day=today())
    boards.rebuild(ref)  # the board exists in Redis: a missed push would stay missed

    def down(items):
        raise store.StoreUnavailable("Redis is down")

    with monkeypatch.context() as patch:
        patch.setattr(store, "push", down)
        with django_capture_on_commit_callbacks(execute=True):
            score = record(player, won=True, moves=50, day=today())
    assert PendingPush.objects.filter(score=score).exists()
    assert score.play_id.hex not in store.client().zrange(ref.redis_key, 0, -1)

    assert catchup.catch_up() == (0, 1)
    assert not PendingPush.objects.exists()
    assert score.play_id.hex in store.client().zrange(ref.redis_key, 0, -1)
    assert catchup.catch_up() == (0, 0)
