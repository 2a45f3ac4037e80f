"""Catching the Redis boards up after a fault (leaderboard.catchup): the outbox of scores
Redis missed, and ranked plays that finished without a score."""

from __future__ import annotations

import datetime as dt

import pytest

from games.daily import utc_today
from leaderboard import catchup, locks, ranking, rebuilding, refs, scores, store
from leaderboard.models import PendingPush, Score
from tests.factories import make_user

from .helpers import ranked_play, record

pytestmark = pytest.mark.django_db


def today() -> dt.date:
    return utc_today()


def test_a_ranked_play_without_its_score_is_scored_once(no_redis):
    play = ranked_play(make_user(), day=today())
    assert not Score.objects.filter(play=play).exists()
    assert catchup.catch_up() == (1, 0)
    assert Score.objects.filter(play=play).count() == 1
    assert catchup.catch_up() == (0, 0)


def test_plays_older_than_the_window_are_left_to_the_command(no_redis):
    ranked_play(make_user(), day=today() - dt.timedelta(days=5))
    assert catchup.catch_up() == (0, 0)
    assert scores.rescore_missing() == 1


def test_without_redis_no_outbox_is_kept(no_redis, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user(), won=True, day=today())
    assert not PendingPush.objects.exists()


@pytest.mark.redis
def test_a_score_redis_missed_is_replayed(django_capture_on_commit_callbacks, monkeypatch):
    player = make_user()
    ref = refs.BoardRef.daily("easthaven", today())
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user(), won=True, day=today())
    rebuilding.rebuild(ref)  # the board exists in Redis: a missed push would stay missed
    assert catchup.replay_pending() == 1  # the first push found the boards missing

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


# --- Redis that lost its boards (restarted empty, flushed) ----------------------------------


def board_keys() -> list[str]:
    return sorted(
        k for k in store.client().scan_iter(match=f"{store.prefix()}{{*") if "}:" not in k
    )


def live_refs() -> list[refs.BoardRef]:
    return sorted(rebuilding.live_boards(today()), key=lambda ref: ref.redis_key)


@pytest.mark.redis
def test_a_flushed_redis_is_restored_whole_by_the_catch_up(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user(), won=True, day=today())
        record(make_user(), won=False, day=today() - dt.timedelta(days=1))
    expected = [ref.redis_key for ref in live_refs()]
    weeks = {ranking.iso_week(today()), ranking.iso_week(today() - dt.timedelta(days=1))}
    assert len(expected) == 2 + len(weeks) + 1  # two days, their weeks, all time
    assert board_keys() == sorted(expected)  # built when their first scores came
    store.delete_all()  # FLUSHALL, as far as these keys go; nobody reads the boards again

    catchup.catch_up()
    assert board_keys() == sorted(expected)
    for ref in live_refs():
        assert store.client().zcard(ref.redis_key) == ref.queryset().count() + 1  # + sentinel
    assert store.client().get(locks.epoch_key()).startswith("done:")
    assert rebuilding.restore_if_lost() == 0  # the marker says nothing was lost since


@pytest.mark.redis
def test_a_missing_board_seen_by_a_push_restores_the_others(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user(), won=True, day=today(), preset="westcliff")
    westcliff = sorted(ref.redis_key for ref in live_refs())
    store.delete_all()
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user(), won=True, day=today())  # easthaven: its boards are missing too
    assert set(westcliff) <= set(board_keys())


@pytest.mark.redis
def test_a_restore_flushed_midway_is_not_marked_done():
    token = locks.claim_restore(30)
    assert token is not None
    assert locks.claim_restore(30) is None  # one restorer at a time
    store.delete_all()  # the flush takes the claim with it
    assert not locks.finish_restore(token, "now")
    assert store.client().get(locks.epoch_key()) is None  # so the next check restores again


@pytest.mark.redis
def test_a_board_whose_rebuilder_died_is_rebuilt_once_its_lock_expires(
    django_capture_on_commit_callbacks, settings
):
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user(), won=True, day=today())
    daily = refs.BoardRef.daily("easthaven", today())
    store.client().delete(daily.redis_key)
    dead = locks.lock(f"rebuild:{daily.redis_key}", 1)  # a rebuilder that was killed
    assert dead is not None
    assert rebuilding.rebuild_missing() == 0  # still locked: left alone
    assert not store.client().exists(daily.redis_key)
    store.client().delete(f"{store.prefix()}lock:rebuild:{daily.redis_key}")  # expired
    assert rebuilding.rebuild_missing() == 1
    assert store.client().exists(daily.redis_key)


@pytest.mark.redis
def test_a_lock_is_released_and_renewed_only_by_its_holder():
    token = locks.lock("job", 30)
    assert token is not None and locks.lock("job", 30) is None
    locks.unlock("job", "someone else")
    assert locks.lock("job", 30) is None
    assert not locks.renew("job", "someone else", 60)
    assert locks.renew("job", token, 60)
    assert store.client().ttl(f"{store.prefix()}lock:job") > 30
    locks.unlock("job", token)
    assert locks.lock("job", 30) is not None


@pytest.mark.redis
def test_a_score_pushed_while_its_board_was_rebuilt_survives_the_rebuilder_dying(
    django_capture_on_commit_callbacks,
):
    """The rebuilder copies PostgreSQL, renames the copy into place, then re-adds what was
    committed meanwhile; killed between the two, it leaves out a score whose push found the
    board missing. That push keeps its outbox row, so the catch-up adds the score."""
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user(), won=True, day=today())
    assert catchup.replay_pending() == 1  # built by its first push, which keeps its row
    daily = refs.BoardRef.daily("easthaven", today())
    copy = list(rebuilding.pg_entries(daily))  # the rebuilder's first pass
    store.client().delete(daily.redis_key)
    assert locks.lock(f"rebuild:{daily.redis_key}", 30) is not None  # it holds the lock

    with django_capture_on_commit_callbacks(execute=True):
        late = record(make_user(), won=False, day=today())  # the push finds no board
    assert PendingPush.objects.filter(score=late).exists()

    store.build(daily.redis_key, copy)  # its rename; then it is killed
    store.client().delete(f"{store.prefix()}lock:rebuild:{daily.redis_key}")  # expired
    assert late.play_id.hex not in store.client().zrange(daily.redis_key, 0, -1)

    assert catchup.catch_up() == (0, 1)
    assert late.play_id.hex in store.client().zrange(daily.redis_key, 0, -1)
    assert not PendingPush.objects.exists()


@pytest.mark.redis
def test_a_replay_passes_rows_whose_board_is_still_missing(
    django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(rebuilding, "schedule_rebuild", lambda ref: None)
    monkeypatch.setattr(rebuilding, "schedule_restore", lambda: False)
    monkeypatch.setattr(rebuilding, "rebuild_missing", lambda: 0)
    with django_capture_on_commit_callbacks(execute=True):
        first = record(make_user(), won=True, day=today())
        second = record(make_user(), won=True, day=today(), preset="westcliff")
    assert PendingPush.objects.count() == 2  # no board exists: both kept
    westcliff = refs.BoardRef.daily("westcliff", today())
    for ref in scores.refs_of(second):
        store.build(ref.redis_key, [])
    assert catchup.replay_pending(batch=1) == 1  # the first row is passed, not retried forever
    assert list(PendingPush.objects.values_list("score", flat=True)) == [first.pk]
    assert second.play_id.hex in store.client().zrange(westcliff.redis_key, 0, -1)


@pytest.mark.redis
def test_a_board_rebuilt_meanwhile_is_not_rebuilt_again(django_capture_on_commit_callbacks):
    """Found missing, then rebuilt by another process before this one got the lock: this
    one leaves the live board alone (replacing it would drop the scores pushed to it since,
    were this rebuilder killed before its second pass)."""
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user(), won=True, day=today())
    daily = refs.BoardRef.daily("easthaven", today())
    store.client().zadd(daily.redis_key, {"pushed-meanwhile": 1})
    assert not rebuilding.rebuild_locked(daily)
    assert store.client().zscore(daily.redis_key, "pushed-meanwhile") == 1
    store.client().delete(daily.redis_key)
    assert rebuilding.rebuild_locked(daily)
    assert store.client().zscore(daily.redis_key, "pushed-meanwhile") is None
