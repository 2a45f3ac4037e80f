"""Beat tasks that publish events nobody's request causes (idempotent by the events' keys).

* ``announce_today`` (every 10 minutes): today's dailies, prepared days ahead, announced
  once their day begins;
* ``warn_streaks`` (daily at ``NOTIFY_STREAK_HOUR`` UTC): streaks that end tonight.
"""

from __future__ import annotations

from celery import shared_task

from games import daily

from . import events, outbox


@shared_task(name="notifications.announce_today", acks_late=True)
def announce_today() -> int:
    return events.announce_today() if outbox.enabled() else 0


@shared_task(name="notifications.warn_streaks", acks_late=True)
def warn_streaks() -> int:
    return events.streaks_ending(daily.utc_today()) if outbox.enabled() else 0
