"""The ranked window of a UTC day: until when its ranked plays may move, and from when the
day is public.

A ranked play may finish until its UTC day ends plus ``RANKED_GRACE_MINUTES`` (a play in
progress at midnight keeps a few minutes). Only after that deadline does anything that
would help an open ranked play leave the server: the day's decks, par solutions and
replays. One deadline serves both, so no ranked play can still move once its day is public.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone


def ranked_deadline(day: dt.date) -> dt.datetime:
    """The moment the ranked plays of ``day`` close: the next UTC midnight plus the grace."""
    midnight = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
    return midnight + dt.timedelta(minutes=settings.RANKED_GRACE_MINUTES)


def is_published(day: dt.date, now: dt.datetime | None = None) -> bool:
    """Whether ``day``'s decks, solutions and replays may be shown: its ranked window is over."""
    return (now or timezone.now()) >= ranked_deadline(day)


def first_unpublished_day(now: dt.datetime | None = None) -> dt.date:
    """The earliest UTC day not yet published: yesterday within the grace, else today."""
    grace = dt.timedelta(minutes=settings.RANKED_GRACE_MINUTES)
    return ((now or timezone.now()) - grace).astimezone(dt.UTC).date()
