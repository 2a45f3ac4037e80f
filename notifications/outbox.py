"""Writing events into the outbox, and queueing their delivery once committed.

:func:`publish` is called inside the transaction of the fact when there is one (a score),
so the event commits or rolls back with it; the unique ``key`` makes a second publish of
the same fact a no-op (a redelivered task, a beat that runs twice, the signal and the beat
both announcing a daily). With no ``NOTIFY_WEBHOOK_URL`` nothing is written: an outbox
nobody drains would only grow, and events queued while disabled would arrive hours late.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q

from . import delivery
from .models import EventState, OutboxEvent
from .sending import deliver_event

log = logging.getLogger(__name__)


def enabled() -> bool:
    return delivery.configured()


def publish(key: str, kind: str, data: dict[str, Any]) -> OutboxEvent | None:
    """Write the event ``key`` once (None when disabled or already written) and queue its
    delivery after the commit. Its own savepoint: a failure here never undoes the fact."""
    if not enabled():
        return None
    try:
        with transaction.atomic():
            event = OutboxEvent.objects.create(key=key, kind=kind, data=data)
    except IntegrityError:
        return None  # published before: the unique key says so
    event_id = str(event.pk)
    transaction.on_commit(lambda: queue_delivery(event_id))
    return event


def queue_delivery(event_id: str) -> None:
    """Send the delivery task; if the broker is away the sweep queues the row later."""
    try:
        deliver_event.delay(event_id)
    except Exception:
        log.warning("notifications: could not queue %s; the sweep will", event_id, exc_info=True)


def forget_player(player_id: int) -> None:
    """Drop the pending events about ``player_id`` (an account deletion's part)."""
    about = Q(data__player_id=player_id) | Q(data__friend_id=player_id)
    OutboxEvent.objects.filter(about, state=EventState.PENDING).delete()
