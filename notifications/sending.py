"""The Celery tasks that drain the outbox (:mod:`.delivery` does the work).

``deliver_event`` is queued after the commit of each event and by the sweep; ``acks_late``
and ``reject_on_worker_lost`` put a message back when its worker dies, and the row's state
(``pending`` until the webhook took it) makes every rerun safe. ``sweep_outbox`` (beat,
every ``NOTIFY_SWEEP_SECONDS``) queues the due rows again: retries after backoff, and rows
whose message was lost with its broker.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from . import delivery


@shared_task(name="notifications.deliver_event", acks_late=True, reject_on_worker_lost=True)
def deliver_event(event_id: str) -> str:
    return str(delivery.deliver(event_id))


@shared_task(name="notifications.sweep_outbox", acks_late=True)
def sweep_outbox() -> dict[str, Any]:
    # Disabled: rows written while a webhook was configured wait for it to come back.
    due = delivery.due_events() if delivery.configured() else []
    for event_id in due:
        deliver_event.delay(event_id)
    return {"queued": len(due), "purged": delivery.purge_finished()}
