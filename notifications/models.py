"""The outbox: one row per event, from its first write until it is delivered or given up.

States: ``pending`` (to deliver: at ``next_attempt_at`` or later) → ``sent`` (the webhook
answered 2xx) or ``dead`` (still failing when ``NOTIFY_MAX_AGE_HOURS`` passed). A delivery
holds the row's lock (``SELECT … FOR UPDATE SKIP LOCKED``) while it posts, so no two
workers post the same event at once; a worker that dies before writing ``sent`` leaves the
row ``pending`` (its lock goes with its database session) and the sweep queues it again,
with the same ``id``: the receiver dedupes on ``X-Haven-Event-Id``.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.utils import timezone


class EventState(models.TextChoices):
    PENDING = "pending"
    SENT = "sent"
    DEAD = "dead"


class OutboxEvent(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    key = models.CharField(
        max_length=200, unique=True, help_text="what makes the event once: kind:day:…"
    )
    kind = models.CharField(max_length=40)
    data = models.JSONField(help_text="the payload: player ids, days, presets; never secrets")
    state = models.CharField(max_length=8, choices=EventState.choices, default=EventState.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["state", "next_attempt_at"], name="outbox_due_idx"),
            models.Index(fields=["created_at"], name="outbox_created_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} ({self.state})"
