"""Housekeeping: stored idempotent answers expire after ``IDEMPOTENCY_KEY_TTL_HOURS``; the
move log's monthly partitions are created ahead and archived (``games.partitions``).

Run hourly by Celery beat (``CELERY_BEAT_SCHEDULE``) or by hand with
``python manage.py purge_idempotency_keys``. Kept out of ``games/daily/tasks.py``, which holds
the daily-deal tasks.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from config.web.models import IdempotencyKey

from . import partitions


def purge_expired_idempotency_keys(hours: int | None = None) -> int:
    """Delete stored answers older than ``hours`` (default: the setting); return how many."""
    ttl = settings.IDEMPOTENCY_KEY_TTL_HOURS if hours is None else hours
    cutoff = timezone.now() - timedelta(hours=ttl)
    deleted, _ = IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted


@shared_task(name="games.maintenance.purge_idempotency_keys")
def purge_idempotency_keys() -> int:
    return purge_expired_idempotency_keys()


@shared_task(name="games.maintenance.movelog_partitions", acks_late=True)
def movelog_partitions() -> dict[str, list[str]]:
    """Create the move log's partitions ahead and archive the expired months (idempotent:
    an existing month is kept, an archived one is gone; a rerun picks up where one stopped)."""
    created = partitions.ensure_partitions(settings.MOVELOG_PARTITIONS_AHEAD)
    archived = partitions.archive_partitions(
        settings.MOVELOG_RETENTION_MONTHS, Path(settings.MOVELOG_ARCHIVE_DIR)
    )
    return {"created": created, "archived": [str(path) for path in archived]}
