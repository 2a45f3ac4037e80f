"""Delivering one outbox row to ``NOTIFY_WEBHOOK_URL``, and sweeping the rows left pending.

:func:`deliver` locks the row (``FOR UPDATE SKIP LOCKED``: a row another worker is posting
is skipped, not waited for), posts it signed, and in the same transaction writes the
outcome: ``sent``, or one more attempt and the next one's time (exponential backoff from
``NOTIFY_RETRY_BASE_SECONDS`` up to ``NOTIFY_RETRY_MAX_SECONDS``), or ``dead`` once the
event is older than ``NOTIFY_MAX_AGE_HOURS``. A worker that dies between the POST and the
commit leaves the row ``pending``: it is posted again with the same event id, which the
receiver dedupes (at least once on the wire, exactly once at a deduping receiver).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import urllib.error
import urllib.request
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import EventState, OutboxEvent
from .signing import EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signature_header

log = logging.getLogger(__name__)


class DeliveryFailed(Exception):
    """The webhook did not take the event (a network error or a non-2xx answer)."""


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    # urllib would turn a redirected POST into a GET without the body: a 3xx is a failure.
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirects)


def body_of(event: OutboxEvent) -> bytes:
    document = {
        "id": str(event.pk),
        "type": event.kind,
        "created_at": event.created_at.isoformat(),
        "data": event.data,
    }
    return json.dumps(document, separators=(",", ":"), sort_keys=True).encode("utf-8")


def post(event: OutboxEvent) -> None:
    """POST the signed event; :class:`DeliveryFailed` unless the answer is 2xx."""
    body = body_of(event)
    request = urllib.request.Request(
        settings.NOTIFY_WEBHOOK_URL,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "haven-notifications/1",
            EVENT_ID_HEADER: str(event.pk),
            EVENT_TYPE_HEADER: event.kind,
            SIGNATURE_HEADER: signature_header(settings.NOTIFY_WEBHOOK_SECRET, body),
        },
    )
    try:
        with _opener.open(request, timeout=settings.NOTIFY_TIMEOUT_SECONDS) as answer:
            status = answer.status
    except urllib.error.HTTPError as error:
        raise DeliveryFailed(f"HTTP {error.code}") from error
    except (urllib.error.URLError, OSError) as error:
        raise DeliveryFailed(str(error)[:200]) from error
    if not 200 <= status < 300:
        raise DeliveryFailed(f"HTTP {status}")


def backoff_seconds(attempts: int) -> float:
    """The wait after the ``attempts``-th failure: base · 2^(attempts-1), capped."""
    base = settings.NOTIFY_RETRY_BASE_SECONDS
    return float(min(base * 2 ** max(attempts - 1, 0), settings.NOTIFY_RETRY_MAX_SECONDS))


def _after_the_post(event: OutboxEvent) -> None:
    """Between the POST and the commit: where a dying worker would stop (a test seam)."""


def configured() -> bool:
    return bool(settings.NOTIFY_WEBHOOK_URL)


def deliver(event_id: str) -> str:
    """Deliver one event if it is due; the outcome's name (idempotent: a sent row is left)."""
    if not configured():
        return "disabled"
    now = timezone.now()
    with transaction.atomic():
        event = (
            OutboxEvent.objects.select_for_update(skip_locked=True)
            .filter(pk=event_id, state=EventState.PENDING)
            .first()
        )
        if event is None:
            return "done or busy"
        if event.next_attempt_at > now:
            return "not due"
        try:
            post(event)
        except DeliveryFailed as failure:
            _failed(event, str(failure), now)
            return event.state
        _after_the_post(event)
        event.state = EventState.SENT
        event.sent_at = timezone.now()
        event.attempts += 1
        event.last_error = ""
        event.save(update_fields=["state", "sent_at", "attempts", "last_error"])
    return EventState.SENT


def _failed(event: OutboxEvent, error: str, now: dt.datetime) -> None:
    event.attempts += 1
    event.last_error = error[:300]
    max_age = dt.timedelta(hours=settings.NOTIFY_MAX_AGE_HOURS)
    if now - event.created_at >= max_age:
        event.state = EventState.DEAD
        log.error(
            "notifications: %s %s given up after %d attempts: %s",
            event.kind,
            event.pk,
            event.attempts,
            error,
        )
    else:
        event.next_attempt_at = now + dt.timedelta(seconds=backoff_seconds(event.attempts))
        log.warning(
            "notifications: %s %s failed (attempt %d): %s",
            event.kind,
            event.pk,
            event.attempts,
            error,
        )
    event.save(update_fields=["attempts", "last_error", "state", "next_attempt_at"])


def due_events(limit: int = 500) -> list[str]:
    """Ids of pending rows whose next attempt is due, oldest first."""
    rows = OutboxEvent.objects.filter(
        state=EventState.PENDING, next_attempt_at__lte=timezone.now()
    ).order_by("next_attempt_at")
    return [str(pk) for pk in rows.values_list("pk", flat=True)[:limit]]


def purge_finished() -> int:
    """Delete sent and dead rows older than ``NOTIFY_RETENTION_DAYS``."""
    cutoff = timezone.now() - dt.timedelta(days=settings.NOTIFY_RETENTION_DAYS)
    old = OutboxEvent.objects.filter(
        state__in=(EventState.SENT, EventState.DEAD), created_at__lt=cutoff
    )
    return old.delete()[0]
