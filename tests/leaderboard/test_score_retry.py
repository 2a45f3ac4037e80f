"""A score write that fails is retried until it lands (issue 46, leaderboard.sweeper): with a
broker through the ``record_play`` task, without one through the in-process sweeper; the
board then shows the play, in Redis as in the database. Runs on SQLite and on PostgreSQL
(``DATABASE_URL``), with Redis when ``REDIS_URL`` is set."""

from __future__ import annotations

import time

import pytest
from django.db import OperationalError

from games.daily import utc_today
from games.models import Play
from games.signals import play_finished
from leaderboard import rebuilding, scores, store, sweeper, tasks
from leaderboard.models import Score
from leaderboard.refs import BoardRef
from tests.factories import make_user

from .helpers import ranked_play


class Flaky:
    """``scores.record_play`` failing with "database is locked" for its first calls."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0
        self.real = scores.record_play

    def __call__(self, play: Play) -> Score | None:
        self.calls += 1
        if self.calls <= self.failures:
            raise OperationalError("database is locked")
        return self.real(play)


class Broker:
    """Stands in for Celery's app: the tasks sent, as (name, args, countdown)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, list[str], float]] = []

    def send_task(self, name: str, args: list[str], countdown: float) -> None:
        self.sent.append((name, args, countdown))


def finish(play: Play) -> None:
    """What games does after the commit that ended a play."""
    play_finished.send(sender=Play, play=play)


def assert_on_its_board(play: Play) -> None:
    """The play's entry is on its daily board, and Redis' board equals the database's."""
    ref = BoardRef.daily(scores.board_of(play.preset, play.options), play.daily_date)
    in_database = {member for _, member, _, _ in rebuilding.pg_entries(ref)}
    assert ref.member(play.pk) in in_database
    if store.configured():
        in_redis = set(store.client().zrange(ref.redis_key, 0, -1)) - {"~"}
        assert in_redis == in_database


@pytest.mark.django_db
def test_with_a_broker_the_write_is_queued_and_retried_until_it_lands(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    broker = Broker()
    monkeypatch.setattr(sweeper, "current_app", broker)
    flaky = Flaky(failures=4)  # the receiver's write, then the task's first three tries
    monkeypatch.setattr(scores, "record_play", flaky)
    play = ranked_play(make_user(), day=utc_today())

    finish(play)
    assert not Score.objects.filter(play_id=play.pk).exists()
    assert broker.sent == [(sweeper.RECORD_TASK, [str(play.pk)], 2.0)]

    # A worker runs the task. Applied eagerly, Celery runs its retries at once, in order
    # (when an eager task's errors are not raised to the caller: a worker's behaviour).
    monkeypatch.setitem(tasks.record_play.app.conf, "task_eager_propagates", False)
    with django_capture_on_commit_callbacks(execute=True):
        result = tasks.record_play.apply(args=broker.sent[0][1])
    assert result.get() is True
    assert flaky.calls == 5
    assert Score.objects.filter(play_id=play.pk).count() == 1
    assert_on_its_board(play)


def test_the_task_retries_on_database_errors_late_acknowledged():
    assert tasks.record_play.acks_late
    assert OperationalError in tasks.record_play.autoretry_for
    assert tasks.record_play.max_retries > 0


@pytest.fixture
def in_process(settings, transactional_db):
    """No broker: the sweeper thread does the retrying (stopped before the database is
    emptied); short intervals so the test takes a second."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.LEADERBOARD_SWEEP_SECONDS = 0.3
    settings.LEADERBOARD_SWEEP_RETRY_SECONDS = 0.05
    yield
    if sweeper._sweeper is not None:
        sweeper._sweeper.stop()
        sweeper._sweeper = None


# The sweeper is a thread of its own: on SQLite the test database is one in-memory
# database shared by threads, whose table locks it meets; the embedded server's file-backed
# SQLite is tested with the sweeper by tests/deploy/test_embedded_club.py.
@pytest.mark.postgres
def test_without_a_broker_the_sweeper_retries_until_it_lands(in_process, monkeypatch):
    flaky = Flaky(failures=3)  # the receiver's write, then the sweeper's first two runs
    monkeypatch.setattr(scores, "record_play", flaky)
    play = ranked_play(make_user(), day=utc_today())

    finish(play)  # fails; the process's sweeper starts and is nudged
    deadline = time.monotonic() + 30
    while not Score.objects.filter(play_id=play.pk).exists():
        assert time.monotonic() < deadline, f"not scored after {flaky.calls} tries"
        time.sleep(0.05)
    assert flaky.calls == 4
    assert Score.objects.filter(play_id=play.pk).count() == 1
    running = sweeper._sweeper
    assert running is not None
    swept = running.sweeps
    while running.sweeps == swept:  # a later sweep leaves the scored play alone
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert flaky.calls == 4
    assert_on_its_board(play)


def test_with_a_beat_no_sweeper_starts(settings):
    settings.LEADERBOARD_SWEEP_SECONDS = 0
    assert sweeper.start_in_process() is None


@pytest.mark.django_db
def test_a_play_that_fails_again_does_not_hold_back_the_others(monkeypatch, no_redis):
    first, second = (ranked_play(make_user(), day=utc_today()) for _ in range(2))
    real = scores.record_play

    def fails_for_the_first(play: Play) -> Score | None:
        if play.pk == first.pk:
            raise OperationalError("database is locked")
        return real(play)

    monkeypatch.setattr(scores, "record_play", fails_for_the_first)
    assert scores.rescore_missing() == 1
    assert Score.objects.filter(play_id=second.pk).exists()
    monkeypatch.setattr(scores, "record_play", real)
    assert scores.rescore_missing() == 1
    assert Score.objects.filter(play_id=first.pk).exists()
