"""Periodic clean-up of abandoned guests (``CELERY_BEAT_SCHEDULE``).

A guest unseen for ``GUEST_IDLE_DAYS`` (default 30) that never played is deleted: it holds
nothing but a generated name and a device hash. A guest with a play is kept (it may come
back to its scores); linking is how a player keeps an account for good. Idempotent: a rerun
finds nothing more to delete, and ``acks_late`` lets a killed worker's run be redone.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from . import guests


@shared_task(name="accounts.tasks.delete_abandoned_guests", acks_late=True)
def delete_abandoned_guests(batch: int = 1000) -> int:
    deleted = 0
    while True:
        ids = list(guests.abandoned().values_list("pk", flat=True)[:batch])
        if not ids:
            return deleted
        # Checked again in the DELETE itself, so a guest that just played or signed in stays.
        _, per_model = guests.abandoned().filter(pk__in=ids).delete()
        deleted += per_model.get(settings.AUTH_USER_MODEL, 0)
        if len(ids) < batch:
            return deleted
