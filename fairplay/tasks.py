"""Celery tasks of fair play: the analysis of each finished ranked play, the key purge.

``analyse_play`` is queued after the commit that ended a ranked play; it is idempotent
(findings are upserted per detector, a cleared review is never re-flagged), so
``acks_late`` may redeliver it after a worker dies. Database hiccups are retried with the
games app's policy. ``purge_client_keys`` runs daily (``CELERY_BEAT_SCHEDULE``).
"""

from __future__ import annotations

import logging

from celery import shared_task

from games.task_policy import RELIABLE

from . import services

log = logging.getLogger(__name__)


@shared_task(name="fairplay.tasks.analyse_play", **RELIABLE)  # acks_late among them
def analyse_play(play_id: str) -> int:
    """Analyse one finished ranked play; return how many findings flagged it."""
    return sum(f.flagged for f in services.analyse(play_id))


@shared_task(name="fairplay.tasks.purge_client_keys", acks_late=True)
def purge_client_keys() -> int:
    """Blank the address and device keys past the retention period; return how many."""
    return services.purge_client_keys()


@shared_task(name="fairplay.tasks.analyse_missed", acks_late=True)
def analyse_missed() -> int:
    """Queue the analysis of every recent ranked play that has none yet; return how many."""
    queued = 0
    for play_id in services.missed_plays():
        try:
            analyse_play.delay(str(play_id))
            queued += 1
        except Exception:  # one play's failure (run eagerly) must not stop the sweep
            log.exception("fairplay: could not analyse play %s", play_id)
    return queued
