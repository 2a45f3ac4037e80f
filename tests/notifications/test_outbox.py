"""The notification outbox end to end: events written with their facts, delivered signed to a
local receiver, retried with backoff, redelivered with the same id after a worker died
mid-delivery, and nothing at all without a webhook."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone

from accounts.deletion import delete_account
from games import daily, engine
from games.daily import service
from games.models import Deal
from leaderboard import groups
from notifications import delivery, events, signing
from notifications.models import EventState, OutboxEvent
from notifications.sending import sweep_outbox
from tests.factories import PASSWORD, make_user
from tests.leaderboard.helpers import record

from .conftest import SECRET

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db]


def _fields(day: dt.date, preset: str) -> dict:
    deck = engine.format_deck(engine.deck_from_seed(4242))
    return {
        "date": day,
        "preset": preset,
        "source": "daily",
        "deck": deck,
        "verdict": "winnable",
        "par": 80,
        "solution": [{"type": "deal"}],
    }


@pytest.fixture
def no_solver(monkeypatch):
    monkeypatch.setattr(service, "search_day", lambda day, preset, deadline: _fields(day, preset))


def _make_due(event_id: str) -> None:
    past = timezone.now() - dt.timedelta(seconds=1)
    OutboxEvent.objects.filter(pk=event_id).update(next_attempt_at=past)


def test_todays_daily_is_announced_once_with_a_valid_signature(
    receiver, no_solver, django_capture_on_commit_callbacks
):
    today = daily.utc_today()
    with django_capture_on_commit_callbacks(execute=True):
        service.prepare(today, "easthaven")
        service.prepare(today, "easthaven")  # stored already: no second event
        events.announce_today()  # the beat's catch-up finds it announced
        service.prepare(today + dt.timedelta(days=1), "easthaven")  # ahead: waits for its day
    assert len(receiver.requests) == 1
    headers, body = receiver.requests[0]
    assert signing.verify(SECRET, body, headers["x-haven-signature"])
    assert not signing.verify(SECRET, body + b" ", headers["x-haven-signature"])
    assert not signing.verify("another-secret", body, headers["x-haven-signature"])
    document = json.loads(body)
    assert headers["x-haven-event-id"] == document["id"]
    assert headers["x-haven-event-type"] == document["type"] == "daily_ready"
    assert document["data"] == {"date": today.isoformat(), "preset": "easthaven"}
    assert OutboxEvent.objects.get().state == EventState.SENT


def test_the_days_ahead_are_announced_by_the_beat_when_their_day_comes(
    receiver, django_capture_on_commit_callbacks
):
    today = daily.utc_today()
    for preset in engine.PRESETS:
        Deal.objects.create(**_fields(today, preset))
    with django_capture_on_commit_callbacks(execute=True):
        assert events.announce_today() == len(engine.PRESETS)
        assert events.announce_today() == 0
    announced = {e["data"]["preset"] for e in receiver.of_type("daily_ready")}
    assert announced == set(engine.PRESETS)


def test_a_group_mate_who_beats_your_score_is_announced_to_you(
    receiver, django_capture_on_commit_callbacks
):
    day = daily.utc_today()
    alice, bob, carol, dave = (make_user() for _ in range(4))
    group = groups.create_group(bob, "Friday club")
    groups.join_group(alice, group.code)
    groups.join_group(dave, group.code)
    with django_capture_on_commit_callbacks(execute=True):
        record(bob, cards=20, day=day)
        record(carol, cards=10, day=day)  # not in the group
        record(dave, won=True, moves=60, day=day)  # better than alice will be
    assert len(receiver.of_type("friend_beat")) == 1  # dave beat bob
    with django_capture_on_commit_callbacks(execute=True):
        record(alice, won=True, moves=90, day=day)
    beats = receiver.of_type("friend_beat")
    told = sorted((e["data"]["friend_id"], e["data"]["player_id"]) for e in beats)
    assert told == sorted([(dave.pk, bob.pk), (alice.pk, bob.pk)])
    data = next(e["data"] for e in beats if e["data"]["friend_id"] == alice.pk)
    assert data == {
        "player_id": bob.pk,
        "friend_id": alice.pk,
        "board": "easthaven",
        "preset": "easthaven",
        "date": day.isoformat(),
        "friend_won": True,
        "friend_foundation_cards": 52,
    }


def test_a_streak_that_ends_tonight_is_announced_once_per_player_and_day(
    receiver, django_capture_on_commit_callbacks
):
    today = daily.utc_today()
    yesterday, before = today - dt.timedelta(days=1), today - dt.timedelta(days=2)
    alice, bob, carol = make_user(), make_user(), make_user()
    with django_capture_on_commit_callbacks(execute=True):
        record(alice, won=True, day=before)
        record(alice, won=True, day=yesterday)
        record(alice, cards=4, day=today)  # lost today: the streak still ends tonight
        record(bob, won=True, day=yesterday)
        record(bob, won=True, day=today)  # safe
        record(carol, won=True, day=before)  # no streak left
        assert events.streaks_ending(today) == 1
        assert events.streaks_ending(today) == 0
    (event,) = receiver.of_type("streak_ends")
    midnight = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    assert event["data"] == {
        "player_id": alice.pk,
        "date": today.isoformat(),
        "streak": 2,
        "ends_at": midnight.isoformat(),
    }


def test_a_failing_receiver_gets_the_event_once_it_recovers_with_backoff(
    receiver, django_capture_on_commit_callbacks, settings
):
    settings.NOTIFY_RETRY_BASE_SECONDS = 10
    receiver.fail_next = 2
    today = daily.utc_today()
    with django_capture_on_commit_callbacks(execute=True):
        Deal.objects.create(**_fields(today, "westcliff"))
        events.announce_today()
    event = OutboxEvent.objects.get()
    assert (event.state, event.attempts, event.last_error) == (EventState.PENDING, 1, "HTTP 503")
    first_wait = (event.next_attempt_at - timezone.now()).total_seconds()
    assert 5 < first_wait <= 10
    assert sweep_outbox() == {"queued": 0, "purged": 0}  # not due yet
    _make_due(event.pk)
    sweep_outbox()
    event.refresh_from_db()
    assert (event.state, event.attempts) == (EventState.PENDING, 2)
    assert 15 < (event.next_attempt_at - timezone.now()).total_seconds() <= 20  # doubled
    _make_due(event.pk)
    assert sweep_outbox()["queued"] == 1
    event.refresh_from_db()
    assert (event.state, event.attempts) == (EventState.SENT, 3)
    assert len(receiver.requests) == 3
    assert list(receiver.events) == [str(event.pk)]
    _make_due(event.pk)
    assert sweep_outbox()["queued"] == 0  # sent rows are never posted again
    assert delivery.deliver(str(event.pk)) == "done or busy"
    assert len(receiver.requests) == 3


def test_an_event_failing_past_its_max_age_is_given_up(receiver, settings):
    settings.NOTIFY_MAX_AGE_HOURS = 1
    receiver.fail_next = 1
    event = OutboxEvent.objects.create(key="daily_ready:x", kind="daily_ready", data={})
    OutboxEvent.objects.filter(pk=event.pk).update(
        created_at=timezone.now() - dt.timedelta(hours=2)
    )
    assert delivery.deliver(str(event.pk)) == EventState.DEAD
    _make_due(event.pk)
    assert sweep_outbox()["queued"] == 0
    assert receiver.events == {}


def test_a_worker_dying_after_the_post_leaves_the_event_to_be_posted_again_with_its_id(
    receiver, monkeypatch, django_capture_on_commit_callbacks
):
    """The POST landed but the worker died before writing ``sent``: its transaction never
    committed, so the row is still pending and the sweep posts it again under the same
    ``X-Haven-Event-Id``; the receiver, deduping on it, has the event once."""

    class WorkerKilled(BaseException):
        pass

    def die(event):
        raise WorkerKilled

    monkeypatch.setattr(delivery, "_after_the_post", die)
    today = daily.utc_today()
    Deal.objects.create(**_fields(today, "seahaven"))
    with pytest.raises(WorkerKilled), django_capture_on_commit_callbacks(execute=True):
        events.announce_today()
    event = OutboxEvent.objects.get()
    assert (event.state, event.attempts) == (EventState.PENDING, 0)
    assert len(receiver.requests) == 1
    monkeypatch.undo()
    assert sweep_outbox()["queued"] == 1
    event.refresh_from_db()
    assert event.state == EventState.SENT
    ids = [headers["x-haven-event-id"] for headers, _ in receiver.requests]
    assert ids == [str(event.pk), str(event.pk)]
    assert list(receiver.events) == [str(event.pk)]


def test_no_webhook_means_no_event_and_nothing_sent(
    receiver, settings, no_solver, django_capture_on_commit_callbacks
):
    settings.NOTIFY_WEBHOOK_URL = ""  # the receiver listens, but nobody names it
    today = daily.utc_today()
    alice, bob = make_user(), make_user()
    groups.join_group(alice, groups.create_group(bob, "club").code)
    with django_capture_on_commit_callbacks(execute=True):
        service.prepare(today, "easthaven")
        record(bob, won=True, moves=99, day=today - dt.timedelta(days=1))
        record(bob, cards=3, day=today)
        record(alice, won=True, day=today)
        assert events.announce_today() == 0
        assert events.streaks_ending(today) == 0
    assert not OutboxEvent.objects.exists()
    stray = OutboxEvent.objects.create(key="k", kind="daily_ready", data={})
    assert delivery.deliver(str(stray.pk)) == "disabled"
    assert sweep_outbox()["queued"] == 0
    assert receiver.requests == []


def test_a_deleted_accounts_pending_events_go_with_it(receiver):
    alice, bob = make_user(), make_user()
    for key, data in (
        ("streak_ends:a", {"player_id": alice.pk}),
        ("friend_beat:b", {"player_id": bob.pk, "friend_id": alice.pk}),
        ("streak_ends:b", {"player_id": bob.pk}),
    ):
        OutboxEvent.objects.create(key=key, kind=key.split(":")[0], data=data)
    delete_account(alice.pk, password=PASSWORD, device_secret=None)
    assert list(OutboxEvent.objects.values_list("key", flat=True)) == ["streak_ends:b"]
