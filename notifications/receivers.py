"""The signals the outbox hears (connected in ``NotificationsConfig.ready``).

Neither receiver may break the fact it hears about: a failure is logged and the event lost
(the score and the deal matter more than a push message).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from games.models import Deal
from leaderboard.models import Score

from . import events

log = logging.getLogger(__name__)


def on_deal_prepared(sender: Any, deal: Deal, **kwargs: Any) -> None:
    """``games.signals.deal_prepared``: today's deal stored now (on demand) is ready."""
    try:
        events.daily_ready(deal)
    except Exception:
        log.exception("notifications: could not announce the daily %s %s", deal.date, deal.preset)


def on_score_written(sender: Any, score: Score, **kwargs: Any) -> None:
    """``leaderboard.signals.score_written``, inside the score's transaction."""
    try:
        # A savepoint: a failing query here must not abort the score's transaction.
        with transaction.atomic():
            events.friend_beats(score)
    except Exception:
        log.exception("notifications: could not publish the group events of %s", score.play_id)
