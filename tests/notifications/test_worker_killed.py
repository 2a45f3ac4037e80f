"""A real Celery worker SIGKILLed in the middle of a delivery (the receiver has the event,
the worker never heard back): the row stays pending, the unacknowledged message goes to the
next worker, which posts the event again under the same id; the receiver dedupes it."""

from __future__ import annotations

import pytest

from notifications.models import EventState, OutboxEvent
from notifications.sending import deliver_event

from .conftest import PORT, SECRET, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_a_worker_killed_mid_delivery_leaves_the_event_to_the_next_worker(receiver, workers):
    env = {
        "NOTIFY_WEBHOOK_URL": f"http://127.0.0.1:{PORT}/hook",
        "NOTIFY_WEBHOOK_SECRET": SECRET,
        "NOTIFY_TIMEOUT_SECONDS": "60",
        "HAVEN_TEST_VISIBILITY": "3",
    }
    receiver.stall_next, receiver.stall_seconds = 1, 20.0
    doomed = workers.start("doomed", **env)
    workers.wait_ready(doomed)
    event = OutboxEvent.objects.create(
        key="streak_ends:2026-12-06:1",
        kind="streak_ends",
        data={"player_id": 1, "date": "2026-12-06", "streak": 3},
    )
    deliver_event.apply_async((str(event.pk),), queue=workers.queue)
    wait_for(lambda: len(receiver.requests) == 1, 60, "the first POST")
    workers.kill(doomed)  # between the POST and the commit of "sent"
    event.refresh_from_db()
    assert (event.state, event.attempts) == (EventState.PENDING, 0)

    workers.start("next", **env)
    wait_for(
        lambda: OutboxEvent.objects.get(pk=event.pk).state == EventState.SENT,
        90,
        "the redelivered task to send the event",
    )
    ids = [headers["x-haven-event-id"] for headers, _ in receiver.requests]
    assert ids == [str(event.pk), str(event.pk)]
    assert list(receiver.events) == [str(event.pk)]  # deduped: the receiver has it once
