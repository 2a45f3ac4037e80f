"""The tournaments' Celery work: freeze what closed, create the weekly cups, prepare the
seeded tournaments' own deals (all idempotent).

``prepare_seeded_deal`` is queued after the commit that created a seeded tournament (the
admin, a group owner; ``receivers.on_tournament_saved``) and again by the beat's
``prepare_seeded_deals`` for any seeded tournament not over whose deal is still missing (a
lost message, a solver that failed everywhere). It is ``acks_late`` and requeued when its
worker dies, as the daily's preparation is; a copy that finds the tournament's lock held
retries later and then finds the deal stored.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from games import daily
from games.task_policy import RELIABLE

from . import seeding, services


@shared_task(acks_late=True, ignore_result=True)
def freeze_closed() -> int:
    return services.freeze_closed()


@shared_task(acks_late=True, ignore_result=True)
def create_weekly_cups() -> int:
    for preset in settings.TOURNAMENTS_WEEKLY_PRESETS:
        services.weekly_cup(preset, daily.utc_today())
    return len(settings.TOURNAMENTS_WEEKLY_PRESETS)


@shared_task(bind=True, reject_on_worker_lost=True, **RELIABLE)
def prepare_seeded_deal(self: Any, tournament_id: int) -> dict[str, Any]:
    """Search and store seeded tournament ``tournament_id``'s deal (idempotent)."""
    try:
        deal, created = seeding.prepare(
            tournament_id, lock_timeout=settings.DAILY_LOCK_WAIT_SECONDS
        )
    except daily.DealLocked as busy:
        countdown = min(settings.DAILY_LOCK_RETRY_SECONDS * 2**self.request.retries, 600)
        raise self.retry(exc=busy, countdown=countdown, max_retries=50) from busy
    return {
        "tournament": tournament_id,
        "created": created,
        "verdict": deal.verdict if deal else None,
        "par": deal.par if deal else None,
    }


@shared_task(acks_late=True, ignore_result=True)
def prepare_seeded_deals() -> int:
    """Queue the preparation of every seeded tournament not over whose deal is missing."""
    missing = seeding.unprepared()
    for tournament_id in missing:
        prepare_seeded_deal.delay(tournament_id)
    return len(missing)
