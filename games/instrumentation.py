"""The games app's metrics: its signals' receivers, recording through
``config.observability.metrics`` (connected in ``GamesConfig.ready``).

Nothing on the move path or in the game library imports the metrics: the services send
signals (``games.signals``; Django's ``post_save`` for a play started) and these receivers,
which return at once unless ``METRICS_ENABLED``, turn them into counters. Also connected
here, since config is no app of its own: the database's ``connection_created``, and the
days of deals prepared ahead after each hourly ``prepare_upcoming_days`` run.
"""

from __future__ import annotations

from typing import Any

from celery import signals as celery_signals
from django.db.backends.signals import connection_created
from django.db.models.signals import post_save

from config.observability import metrics

from .models import Deal, Play
from .signals import deal_prepared, move_refused, moves_applied, play_finished

UPCOMING_DAYS_TASK = "games.tasks.prepare_upcoming_days"


def on_play_saved(sender: Any, instance: Play, created: bool, **kwargs: Any) -> None:
    if created:
        metrics.record_play_started(instance.preset, instance.ranked)


def on_play_finished(sender: Any, play: Play, **kwargs: Any) -> None:
    metrics.record_play_finished(play.preset, play.status)


def on_moves_applied(sender: Any, preset: str, count: int, **kwargs: Any) -> None:
    metrics.record_moves_applied(preset, count)


def on_move_refused(sender: Any, code: str, rule: str, **kwargs: Any) -> None:
    metrics.record_move_refused(code, rule)


def record_days_ahead() -> None:
    if not metrics.enabled():
        return  # the query is the cost: only when someone reads the answer
    from .daily import utc_today
    from .daily.selectors import days_ahead_ready

    metrics.record_daily_days_ahead(days_ahead_ready(utc_today()))


def on_deal_prepared(sender: Any, deal: Deal, seconds: float, **kwargs: Any) -> None:
    metrics.record_daily_prepared(deal.preset, deal.verdict, len(deal.attempts or []), seconds)
    record_days_ahead()


def on_task_success(sender: Any = None, **kwargs: Any) -> None:
    if getattr(sender, "name", None) == UPCOMING_DAYS_TASK:
        record_days_ahead()


def connect() -> None:
    post_save.connect(on_play_saved, sender=Play, dispatch_uid="metrics.play_started")
    play_finished.connect(on_play_finished, dispatch_uid="metrics.play_finished")
    moves_applied.connect(on_moves_applied, dispatch_uid="metrics.moves_applied")
    move_refused.connect(on_move_refused, dispatch_uid="metrics.move_refused")
    deal_prepared.connect(on_deal_prepared, dispatch_uid="metrics.deal_prepared")
    connection_created.connect(metrics.on_connection_created, dispatch_uid="metrics.db")
    celery_signals.task_success.connect(on_task_success, weak=False, dispatch_uid="metrics.days")
