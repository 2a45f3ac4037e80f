"""The stored daily deals of a day: the one query every reader of them goes through."""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet

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
