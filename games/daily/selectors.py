"""The stored daily deals of a day: the one query every reader of them goes through."""

from __future__ import annotations

import datetime as dt

from django.db.models import Count, QuerySet

from games import engine
from games.models import Deal, Source


def stored_deals(day: dt.date) -> QuerySet[Deal]:
    """The daily deals stored for ``day`` (UTC), at most one per preset."""
    return Deal.objects.filter(source=Source.DAILY, date=day)


def stored_deals_between(first: dt.date, last: dt.date) -> QuerySet[Deal]:
    return Deal.objects.filter(source=Source.DAILY, date__gte=first, date__lte=last)


def stored_deal(day: dt.date, preset: str) -> Deal | None:
    return stored_deals(day).filter(preset=preset).first()


def missing_presets(day: dt.date) -> list[str]:
    """The presets of ``day`` with no stored deal yet, in ``engine.PRESETS`` order."""
    stored = set(stored_deals(day).values_list("preset", flat=True))
    return [preset for preset in engine.PRESETS if preset not in stored]


def days_ahead_ready(today: dt.date, horizon: int = 60) -> int:
    """How many days after ``today`` have all their deals stored, counting on from today
    without a gap: 0 when only today is complete, -1 when today is not (one query). The
    ``haven_daily_days_ahead`` gauge; it should stay near ``DAILY_DAYS_AHEAD``, and 0 means
    the first requests after midnight would solve tomorrow's deals on demand."""
    full = len(engine.PRESETS)
    counts = dict(
        stored_deals_between(today, today + dt.timedelta(days=horizon))
        .values_list("date")
        .annotate(n=Count("id"))
        .values_list("date", "n")
    )
    ahead = -1
    while ahead < horizon and counts.get(today + dt.timedelta(days=ahead + 1), 0) >= full:
        ahead += 1
    return ahead
