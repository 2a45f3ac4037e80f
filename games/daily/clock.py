"""The UTC day: daily deals, ranked plays and the daily boards all turn over at UTC midnight."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone


def utc_today() -> dt.date:
    return timezone.now().astimezone(dt.UTC).date()
