"""The beat's tournament work: freeze what closed, create the weekly cups (idempotent)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from games import daily

from . import services


@shared_task(acks_late=True, ignore_result=True)
def freeze_closed() -> int:
    return services.freeze_closed()


@shared_task(acks_late=True, ignore_result=True)
def create_weekly_cups() -> int:
    for preset in settings.TOURNAMENTS_WEEKLY_PRESETS:
        services.weekly_cup(preset, daily.utc_today())
    return len(settings.TOURNAMENTS_WEEKLY_PRESETS)
