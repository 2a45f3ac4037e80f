"""The stored daily deals of a day: the one query every reader of them goes through."""

from __future__ import annotations

import datetime as dt

from django.db.models import Count, QuerySet

from games import engine
from games.models import Deal, Source


def stored_deals(day: dt.date) -> QuerySet[Deal]:
    """The daily deals stored for ``day`` (UTC), at most one per preset."""
    return Deal.objects.filter(source=Source.DAILY, date=day)


def stored_deal(day: dt.date, preset: str) -> Deal | None:
    return stored_deals(day).filter(preset=preset).first()


def missing_presets(day: dt.date) -> list[str]:
    """The presets of ``day`` with no stored deal yet, in ``engine.PRESETS`` order."""
    stored = set(stored_deals(day).values_list("preset", flat=True))
    return [preset for preset in engine.PRESETS if preset not in stored]


def days_ahead_available(today: dt.date, horizon: int = 31) -> int:
    """How many days after ``today`` in a row have every preset's deal stored: what the
    ``haven_daily_days_ahead`` gauge reports. 0 means tomorrow's deals are not ready, so
    the first requests after midnight would solve them on demand (the beat fell behind)."""
    complete = set(
        stored_deals_between(today + dt.timedelta(days=1), today + dt.timedelta(days=horizon))
        .values("date")
        .annotate(presets=Count("preset", distinct=True))
        .filter(presets__gte=len(engine.PRESETS))
        .values_list("date", flat=True)
    )
    ahead = 0
    while today + dt.timedelta(days=ahead + 1) in complete:
        ahead += 1
    return ahead


def stored_deals_between(first: dt.date, last: dt.date) -> QuerySet[Deal]:
    """The daily deals stored for the days ``first`` … ``last`` (UTC), both included."""
    return Deal.objects.filter(source=Source.DAILY, date__gte=first, date__lte=last).order_by()
