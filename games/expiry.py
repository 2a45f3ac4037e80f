"""Ranked plays end with their day: the ones nobody touched are closed as expired.

A ranked play may move until its day's deadline (``games.daily.ranked_deadline``: the next
UTC midnight plus ``RANKED_GRACE_MINUTES``). The move path expires a play that is touched
after it (``games.moving``); :func:`expire_overdue_plays`, run every minute by Celery beat
(``CELERY_BEAT_SCHEDULE``), closes the rest, so a day's open plays are all closed soon after
the day is published. The ranked plays of an event's own deal (a seeded tournament's) close
the same way at the deadline their owner registered (``games.events``): the beat asks the
registry which event deals closed lately and closes their open plays too. An expired play
is unfinished: it gets no score and sends no ``play_finished`` (the leaderboard never hears
of it; docs/fair-play-rules.md).
"""

from __future__ import annotations

import datetime as dt

from celery import shared_task
from django.utils import timezone

from . import events
from .daily.window import first_unpublished_day
from .models import Deal, Play, PlayStatus, Source
from .task_policy import RELIABLE

#: Days of dailies looked at, back from the last closed one. The beat runs every minute, so
#: one would do; the rest covers a beat that was down. Older open plays still expire the
#: moment they are touched, and no open play is ever scored.
LOOKBACK_DAYS = 14


def last_closed_day(now: dt.datetime) -> dt.date:
    """The latest UTC day whose ranked deadline is at or before ``now``."""
    return first_unpublished_day(now) - dt.timedelta(days=1)


def expire_overdue_plays(now: dt.datetime | None = None) -> int:
    """Close every open ranked play whose deadline has passed (its day's, or its event
    deal's: ``games.events.closed_deal_ids``); return how many.

    Idempotent: a closed play is not touched again. A play a move holds locked is waited
    for; if that move expired it (or ended it in the grace) the row no longer matches.
    """
    now = now or timezone.now()
    last = last_closed_day(now)
    # Through the daily deals of the days concerned, so the (deal, status) index finds them.
    deals = Deal.objects.filter(
        source=Source.DAILY, date__gte=last - dt.timedelta(days=LOOKBACK_DAYS), date__lte=last
    ).values("id")
    expired = Play.objects.filter(
        deal_id__in=deals, status=PlayStatus.PLAYING, ranked=True, daily_date__lte=last
    ).update(status=PlayStatus.EXPIRED, finished_at=now)
    closed_events = events.closed_deal_ids(now)
    if closed_events:
        expired += Play.objects.filter(
            deal_id__in=closed_events, status=PlayStatus.PLAYING, ranked=True
        ).update(status=PlayStatus.EXPIRED, finished_at=now)
    return expired


@shared_task(name="games.expiry.expire_ranked_plays", **RELIABLE)
def expire_ranked_plays() -> int:
    return expire_overdue_plays()
